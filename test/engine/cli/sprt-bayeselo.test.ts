// `arena run` with real PSI baseline agents and a BayesElo SPRT on seat-swapped pairs (issue 44): the definition used
// to validate and then crash the run with "the BayesElo model has no pentanomial form" (exit 1, run left paused), and a
// sweep kept the BayesElo LLR at 0. Now the run reaches a decision, as fishtest would, and exits 0.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/arena.js');
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/cli/index.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-sprt-bayeselo-'));
}, 250_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('runs a BayesElo SPRT with games_per_pairing 2 to a decision', () => {
  const agents = path.join(ROOT, 'challenges/psi/agents');
  const spec = {
    name: 'BayesElo SPRT on pairs',
    challenge: 'psi',
    format: { kind: 'round-robin', cycles: 200 },
    games_per_pairing: 2,
    concurrency: 2,
    seed: 'sprt-bayeselo-1',
    agents: [
      { manifest: path.join(agents, 'honest-exact/agent.yaml'), id: 'honest-exact' },
      { manifest: path.join(agents, 'greedy-overclaim/agent.yaml'), id: 'greedy-overclaim' },
    ],
    stop: { kind: 'sprt', elo0: 0, elo1: 200, alpha: 0.05, beta: 0.05, model: 'bayeselo' },
    limits: { move_seconds: 10, game_seconds: 30 },
  };
  const file = path.join(dir, 'sprt.tournament.yaml');
  fs.writeFileSync(file, YAML.stringify(spec));
  const run = spawnSync(process.execPath, [BIN, 'run', file, '--data-dir', path.join(dir, 'data'), '--json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, ARENA_DATA_DIR: '' },
  });
  expect(run.stderr).not.toMatch(/RangeError|pentanomial/);
  expect(run.status).toBe(0);
  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { event: string; stop_reason?: string; games_done?: number; sprt?: { decision: string } });
  const finished = events.find((e) => e.event === 'finished');
  expect(finished?.stop_reason).toMatch(/^sprt_accept_h[01]$/);
  // Decided long before the 400 planned games (a game already in flight at the decision may still finish).
  expect(finished?.games_done).toBeLessThan(400);
  const last = events.filter((e) => e.event === 'game_ended').at(-1);
  expect(last?.sprt?.decision).not.toBe('continue');
}, 320_000);
