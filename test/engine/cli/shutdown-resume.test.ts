// Graceful shutdown with a tournament running, as a user meets it: `arena serve` (a real child process) plays the PSI
// baselines, gets SIGTERM mid-run, and exits cleanly; started again on the same data dir it lists the tournament as
// paused, and resuming it finishes exactly the planned games — the games stopped in flight were void and replayed,
// none counted twice.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AgentCatalogResponseSchema } from '../../../engine/contract/agent-catalog.js';
import {
  RunningGamesResponseSchema,
  TournamentGamesResponseSchema,
  TournamentListResponseSchema,
  TournamentSummarySchema,
} from '../../../engine/contract/tournament.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'bin/arena.js');
const PSI = path.join(ROOT, 'challenges/psi/agents');
let dataDir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/run/executor.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-shutdown-'));
}, 250_000);
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function serve() {
  // Started from another folder: shipped content must come from the package folder, not the working folder.
  const child = spawn(process.execPath, [CLI, 'serve', '--json', '--port', '0', '--data-dir', dataDir], {
    cwd: dataDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${url}/admin/api/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { child, exited, call, stderr: () => stderr };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('SIGTERM mid-run pauses the tournament; after a restart, resume finishes the plan with no game counted twice', async () => {
  const first = await serve();
  const spec = {
    name: 'shutdown',
    challenge: 'psi',
    format: 'round-robin',
    games_per_pairing: 8,
    concurrency: 2,
    seed: 'shutdown-1',
    agents: ['honest-exact', 'greedy-overclaim', 'cautious-minimal'].map((id) => ({ manifest: path.join(PSI, id, 'agent.yaml'), id })),
    limits: { move_seconds: 10, game_seconds: 30 },
  };
  const created = TournamentSummarySchema.parse(await first.call('POST', '/tournaments', { spec }));
  expect(created.planned_games).toBe(24);
  const id = created.id;
  // Stop while games are in flight and some are already committed.
  await until('three games and a game in flight', async () => {
    const s = TournamentSummarySchema.parse(await first.call('GET', `/tournaments/${id}`));
    if (s.games_done < 3) return undefined;
    const running = RunningGamesResponseSchema.parse(await first.call('GET', `/tournaments/${id}/running`));
    return running.games.length > 0 ? running : undefined;
  });
  const stopAt = Date.now();
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  const shutdownMs = Date.now() - stopAt;
  expect(shutdownMs).toBeLessThan(15_000);

  const second = await serve();
  try {
    const catalog = AgentCatalogResponseSchema.parse(await second.call('GET', '/agents'));
    expect(catalog.folders.find((f) => f.id === 'builtin:challenges/psi/agents')).toMatchObject({ exists: true, path: PSI });
    expect(catalog.agents.some((a) => a.manifest_path === path.join(PSI, 'honest-exact', 'agent.yaml'))).toBe(true);
    const scenarios = (await second.call('GET', '/governance/scenarios')) as { scenarios: Array<{ id: string }> };
    expect(scenarios.scenarios.map((x) => x.id)).toContain('github-maintainer-dungeon');

    const list = TournamentListResponseSchema.parse(await second.call('GET', '/tournaments'));
    const paused = list.tournaments.find((t) => t.id === id);
    expect(paused).toMatchObject({ status: 'paused', active: false });
    expect(paused?.games_done).toBeGreaterThanOrEqual(3);
    expect(paused?.games_done).toBeLessThan(24);
    // Nothing was stored for the games stopped in flight.
    const before = TournamentGamesResponseSchema.parse(await second.call('GET', `/tournaments/${id}/games?all_attempts=true&limit=1000`));
    expect(before.games.some((g) => g.termination === 'interrupted')).toBe(false);

    expect(TournamentSummarySchema.parse(await second.call('POST', `/tournaments/${id}/resume`)).status).toBe('running');
    const done = await until('the resumed run to finish', async () => {
      const s = TournamentSummarySchema.parse(await second.call('GET', `/tournaments/${id}`));
      return s.status === 'running' ? undefined : s;
    });
    expect(done).toMatchObject({ status: 'finished', stop_reason: 'complete', games_done: 24, planned_games: 24 });
    const finals = TournamentGamesResponseSchema.parse(await second.call('GET', `/tournaments/${id}/games?limit=1000`));
    expect(finals.total).toBe(24);
    expect(new Set(finals.games.map((g) => g.gameIndex)).size).toBe(24);
    const all = TournamentGamesResponseSchema.parse(await second.call('GET', `/tournaments/${id}/games?all_attempts=true&limit=1000`));
    expect(new Set(all.games.map((g) => `${g.gameKey}#${g.attempt}`)).size).toBe(all.games.length);
    const standings = (await second.call('GET', `/tournaments/${id}/standings`)) as { standings: { combined: Array<{ games: number }> } };
    // Two seats per game: every settled game counts once for each of its two agents.
    expect(standings.standings.combined.reduce((n, r) => n + r.games, 0)).toBe(2 * 24);
  } finally {
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }
}, 240_000);
