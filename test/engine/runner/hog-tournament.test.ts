// A seat hog in a whole tournament through `arena run` (issue 42): two hostile agents take every thread, process,
// byte of memory and byte of /tmp and workspace their seats may have, at the start of every game, while a per-game
// honest bystander starts beside them (two games at a time). One plays on afterwards, the other gives up on its full
// disk. Every fault of every game is the hogs', never the bystander's; the bystander completes every one of its games
// unfaulted, rated above the quitter and at least as high as the hog that plays on. As a root engine (a cgroup per
// seat) and as an engine running as uid 65534 (RLIMIT_NPROC in each seat's own user namespace).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';
import { scaled } from '../../support/slowness.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/arena.js');
const HOG_DIR = path.join(ROOT, 'test/fixtures/agents/seat-hog');
const HONEST = path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.mjs');
const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;
const isRoot = process.getuid?.() === 0;
const HOGS = ['hog-plays', 'hog-quits'];

let root: string;

/** A folder for one agent: the hog's script and a manifest of our own. */
function agentFolder(id: string, entrypoint: Record<string, unknown>, limits?: Record<string, number>): string {
  const dir = path.join(root, id);
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.copyFileSync(path.join(HOG_DIR, 'hog.py'), path.join(dir, 'hog.py'));
  fs.chmodSync(path.join(dir, 'hog.py'), 0o644);
  const manifest = {
    id,
    name: id,
    framework: 'python',
    protocol: 'specarena',
    challenges: ['psi'],
    entrypoint,
    ...(limits ? { limits } : {}),
  };
  fs.writeFileSync(path.join(dir, 'agent.yaml'), YAML.stringify(manifest), { mode: 0o644 });
  return path.join(dir, 'agent.yaml');
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-hog-t-'));
  fs.chmodSync(root, 0o755);
  // Small seats, so the hogs reach their limits quickly: 64 tasks, 256 MB in all, 16 MB of /tmp, 24 MB of workspace.
  const limits = { processes: 64, seat_memory_mb: 256, tmp_mb: 16, workspace_mb: 24 };
  const hogEnv = { CAP: '3000', HOLD_SECONDS: '1', PROCS: '3', MB: '100' };
  const command = ['/usr/bin/python3', 'hog.py', 'all'];
  agentFolder('hog-plays', { command, env: { ...hogEnv, PLAY_WITH: HONEST } }, limits);
  agentFolder('hog-quits', { command, env: hogEnv }, limits);
  agentFolder('bystander', { command: ['node', HONEST] });
  const spec = {
    name: 'hog',
    challenge: 'psi',
    format: 'round-robin',
    games_per_pairing: 2,
    concurrency: 2,
    seed: 'hog-1',
    agents: ['hog-plays', 'hog-quits', 'bystander'].map((id) => ({ manifest: path.join(root, id, 'agent.yaml'), id })),
    // A hog takes ~20 s to get through its list on a busy 2-core machine before it joins.
    limits: { move_seconds: Math.ceil(scaled(60_000) / 1000), game_seconds: Math.ceil(scaled(120_000) / 1000) },
  };
  fs.writeFileSync(path.join(root, 'hog.tournament.yaml'), YAML.stringify(spec), { mode: 0o644 });
});

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** `arena run` to its end, as this user or through setpriv as another. */
function arenaRun(data: string, home: string, asNobody: boolean): Promise<{ status: number | null; stderr: string }> {
  const args = [BIN, 'run', path.join(root, 'hog.tournament.yaml'), '--data-dir', data, '--json'];
  const [program, argv] = asNobody
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(program as string, argv as string[], {
    env: { PATH: process.env.PATH, HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })));
}

interface ReportGame {
  seats: string[];
  termination: string;
  result: { faulted_seats: number[] };
  isolation: Array<{ seat?: Record<string, unknown> }>;
}

interface StandingRow {
  agent: string;
  rating: number | null;
}

async function playAndCheck(asNobody: boolean): Promise<void> {
  const name = asNobody ? 'nobody' : 'engine-user';
  const data = path.join(root, `${name}-data`);
  const home = path.join(root, `${name}-home`);
  for (const d of [data, home]) {
    fs.mkdirSync(d, { mode: 0o700 });
    if (asNobody) fs.chownSync(d, 65534, 65534);
  }
  const run = await arenaRun(data, home, asNobody);
  expect(run.status, run.stderr).toBe(0);
  const [id] = fs.readdirSync(path.join(data, 'tournaments'));
  const report = JSON.parse(fs.readFileSync(path.join(data, 'reports', id as string, 'report.json'), 'utf8'));
  const games = report.games as ReportGame[];
  expect(games).toHaveLength(6);

  const faulted = games.flatMap((g) => g.result.faulted_seats.map((seat) => g.seats[seat]));
  // Every fault is a hog's; the quitter is faulted in each of its games with the bystander.
  expect(
    faulted.filter((agent) => !HOGS.includes(agent as string)),
    JSON.stringify(games),
  ).toEqual([]);
  for (const g of games.filter((g) => g.seats.includes('hog-quits') && g.seats.includes('bystander')))
    expect(
      g.result.faulted_seats.map((seat) => g.seats[seat]),
      JSON.stringify(g),
    ).toEqual(['hog-quits']);
  // The bystander's games all ran to an end: completed, or won by forfeit of a faulted hog; none void.
  const bystanderGames = games.filter((g) => g.seats.includes('bystander'));
  expect(bystanderGames).toHaveLength(4);
  for (const g of bystanderGames) {
    expect(g.termination, JSON.stringify(g)).not.toMatch(/harness_error|void|cancel/);
    if (g.termination !== 'completed') expect(g.result.faulted_seats.length, JSON.stringify(g)).toBeGreaterThan(0);
  }
  // Each hog seat ran with its own totals, whatever accounting this engine had.
  for (const g of games)
    g.isolation.forEach((isolation, seat) => {
      if (HOGS.includes(g.seats[seat] as string))
        expect(isolation.seat, JSON.stringify(g)).toMatchObject({ processes: 64, tmp_mb: 16, workspace_mb: 24 });
    });
  const rows = report.standings.combined as StandingRow[];
  const rating = (agent: string) => rows.find((r) => r.agent === agent)?.rating ?? Number.NaN;
  expect(rating('bystander'), JSON.stringify(rows)).toBeGreaterThan(rating('hog-quits'));
  expect(rating('bystander'), JSON.stringify(rows)).toBeGreaterThanOrEqual(rating('hog-plays'));
  // Nothing of the hogs' files is left on the disk.
  const work = path.join(data, 'tournaments', id as string, 'work');
  expect(fs.existsSync(work) ? fs.readdirSync(work) : []).toEqual([]);
}

describe.runIf(linuxWithSandbox)('a seat hog in a whole tournament (arena run)', () => {
  it(
    'every fault is the hogs’; the bystander plays every game, rated at least as high as either hog',
    () => playAndCheck(false),
    scaled(400_000),
  );

  it.runIf(isRoot)('the same with the engine as the unprivileged uid 65534', () => playAndCheck(true), scaled(400_000));
});
