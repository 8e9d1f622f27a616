// Driving `arena run` for the kill -9 / --resume tests: start a run, SIGKILL it once some games have ended, then
// resume it to the end.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './helpers.js';

const BIN = path.join(ROOT, 'bin/arena.js');

/** Starts `arena run` on the spec, kills it with SIGKILL after `games` game_ended events, and returns the tournament id. */
export async function killRunAfterGames(specFile: string, dataDir: string, games = 5): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'run', specFile, '--data-dir', dataDir, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let id = '';
  let ended = 0;
  let buffer = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no progress from arena run')), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const event = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (event.event === 'started') id = event.tournament_id;
        if (event.event === 'game_ended' && ++ended === games) {
          child.kill('SIGKILL');
          clearTimeout(timer);
          resolve();
        }
        nl = buffer.indexOf('\n');
      }
    });
    child.once('exit', () => reject(new Error('arena run ended before it was killed')));
  });
  await new Promise((resolve) => child.once('close', resolve));
  return id;
}

/** `arena run --resume <id>` to the end; its JSON event lines. */
export function resumeRun(id: string, dataDir: string): Array<Record<string, unknown>> {
  const out = execFileSync(process.execPath, [BIN, 'run', '--resume', id, '--data-dir', dataDir, '--json'], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}
