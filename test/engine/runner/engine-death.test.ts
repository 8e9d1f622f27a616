// When the engine itself dies (kill -9 of `arena run`), every agent sandbox dies with it (bubblewrap's
// --die-with-parent): no agent process, and nothing an agent left behind, keeps running. Checked by host pid.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';
import { processesWith, type SeenProcess, stillRunning } from '../../support/agent-processes.js';
import { ROOT, tempDir } from '../tournaments/helpers.js';

const BIN = path.join(ROOT, 'bin/arena.js');
const HANG = path.join(ROOT, 'test/fixtures/agents/tournament/hang-bot/agent.yaml');
let dir: string;

beforeAll(() => {
  // The CLI runs the compiled engine; build it when this checkout has not been built yet.
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/runner/os-sandbox.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir('arena-engine-death-');
}, 250_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it.runIf(process.platform === 'linux' && sandboxSupport().bwrap != null)(
  'kill -9 of the engine takes every agent sandbox down with it',
  async () => {
    const specFile = path.join(dir, 'hang.tournament.yaml');
    fs.writeFileSync(
      specFile,
      YAML.stringify({
        name: 'engine death',
        challenge: 'millionaire',
        format: 'round-robin',
        games_per_pairing: 2,
        concurrency: 2,
        seed: 'death-1',
        agents: [
          { manifest: HANG, id: 'hang-a' },
          { manifest: HANG, id: 'hang-b' },
        ],
        limits: { move_seconds: 60, game_seconds: 120 },
      }),
    );
    const child = spawn(process.execPath, [BIN, 'run', specFile, '--data-dir', path.join(dir, 'data'), '--json'], { stdio: 'ignore' });
    const seen = new Map<number, SeenProcess>();
    const sample = () => {
      for (const marker of ['ARENA_AGENT_ID=hang-a', 'ARENA_AGENT_ID=hang-b']) for (const p of processesWith(marker)) seen.set(p.pid, p);
    };
    // Both games' four seats are up: two sandbox processes and the agent each.
    const deadline = Date.now() + 60_000;
    while (seen.size < 12 && Date.now() < deadline) {
      sample();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen.size).toBeGreaterThanOrEqual(12);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const gone = Date.now() + 5_000;
    while (stillRunning([...seen.values()]).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stillRunning([...seen.values()])).toEqual([]);
  },
  90_000,
);
