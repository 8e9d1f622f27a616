// An `arena serve` of the spec's own in human mode (a temporary data folder), so the link it prints is exactly the one
// a researcher clicks: a one-time code in the fragment, never the token.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface HumanServe {
  /** The line it printed with `#code=`. */
  link: string;
  stop(): Promise<void>;
}

export async function startHumanServe(prefix: string): Promise<HumanServe> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin', 'arena.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('arena serve printed no link')), 20_000);
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.includes('#code=')) return;
      clearTimeout(timer);
      resolve(line.trim());
    });
  });
  return {
    link,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
