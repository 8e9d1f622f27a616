// Two engines on one data directory (`arena run` in a terminal, the app or `arena serve` opened on the same folder):
// a tournament one of them is playing is left 'running' in the database, the same as one whose engine crashed. The
// engine playing it records its mark, so `arena serve` neither resumes it at start (it would play the same games
// again, or fail the run), nor starts, pauses or cancels it, nor pauses it when it stops, and `arena run --resume`
// refuses it with the pid to stop. Once the player is killed with -9, its mark is stale and the next engine start
// resumes the run: every game exactly once.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { ADMIN_PREFIX } from '../../../engine/contract/admin.js';
import { scaled } from '../../support/slowness.js';
import { FIXTURES, ROOT, tempDir } from './helpers.js';

/** Written by the test when the gated agent may play on (test/fixtures/agents/tournament/gated-honest). */
const RELEASE = path.join(FIXTURES, 'gated-honest/release.flag');

const BIN = path.join(ROOT, 'bin/arena.js');
const GAMES = 4;
let dir: string;

beforeAll(() => {
  // The CLI runs the compiled engine; build it when this checkout has not been built yet.
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/run/run-claim.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir('arena-shared-dir-');
}, 250_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(RELEASE, { force: true });
});

/** A PSI run that lasts: each game waits 2 s for the slow seat, one game at a time. */
function specFile(name: string, slow: 'slow-honest' | 'gated-honest' = 'slow-honest'): string {
  const file = path.join(dir, `${name}.tournament.yaml`);
  fs.writeFileSync(
    file,
    YAML.stringify({
      name,
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: GAMES,
      concurrency: 1,
      seed: name,
      agents: [
        { manifest: path.join(FIXTURES, `${slow}/agent.yaml`), id: slow },
        { manifest: path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml'), id: 'honest-exact' },
      ],
      // The gated seat waits for the test, so its clocks leave room for a busy machine's slowest steps.
      limits: slow === 'gated-honest' ? { move_seconds: 600, game_seconds: 900 } : { move_seconds: 10, game_seconds: 30 },
    }),
  );
  return file;
}

interface Run {
  child: ChildProcessWithoutNullStreams;
  events: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/** `arena run <file> --json`, resolved once its first game has started (so its engine is surely playing it). */
async function startRun(file: string, dataDir: string): Promise<Run & { id: string }> {
  const child = spawn(process.execPath, [BIN, 'run', file, '--data-dir', dataDir, '--json']);
  const events: Array<Record<string, unknown>> = [];
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let buffer = '';
  const id = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('arena run started no game')), scaled(60_000));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const event = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        events.push(event);
        if (event.event === 'game_started') {
          clearTimeout(timer);
          resolve(event.tournament_id as string);
        }
      }
    });
    void exited.then(() => reject(new Error('arena run ended before its first game')));
  });
  return { child, events, exited, id };
}

function rowsOf(dataDir: string, id: string) {
  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  try {
    return {
      tournament: db.prepare('SELECT status, runner FROM tournaments WHERE id = ?').get(id) as { status: string; runner: string | null },
      games: db.prepare('SELECT game_index, termination FROM tournament_games WHERE tournament_id = ?').all(id) as Array<{
        game_index: number;
        termination: string;
      }>,
    };
  } finally {
    db.close();
  }
}

function expectEveryGameOnce(dataDir: string, id: string): void {
  const { tournament, games } = rowsOf(dataDir, id);
  expect(tournament).toEqual({ status: 'finished', runner: null });
  expect(games.map((g) => g.game_index).sort((a, b) => a - b)).toEqual([...Array(GAMES).keys()]);
  expect(games.every((g) => g.termination === 'completed')).toBe(true);
}

interface Serve {
  child: ChildProcessWithoutNullStreams;
  admin(method: string, route: string): Promise<{ status: number; body: Record<string, unknown> }>;
  stop(): Promise<number | null>;
}

/** `arena serve` on the data directory, as the app runs it: it resumes interrupted runs at start. */
async function serve(dataDir: string): Promise<Serve> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--json', '--log-level', 'error']);
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const nl = buffer.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buffer.slice(0, nl)));
    });
    void exited.then((code) => reject(new Error(`arena serve exited with ${code}`)));
  });
  return {
    child,
    async admin(method, route) {
      const res = await fetch(`${ready.url}${ADMIN_PREFIX}${route}`, { method, headers: { authorization: `Bearer ${ready.token}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

it(
  'a run another engine process is playing is neither resumed, started, paused nor cancelled by arena serve',
  async () => {
    const dataDir = path.join(dir, 'live');
    // The gated agent holds its first game until the checks below are done: the run is surely still being played.
    fs.rmSync(RELEASE, { force: true });
    const run = await startRun(specFile('live', 'gated-honest'), dataDir);
    const pid = run.child.pid as number;
    expect(rowsOf(dataDir, run.id).tournament).toMatchObject({ status: 'running', runner: expect.stringMatching(new RegExp(`^${pid}:`)) });
    const refusal = `tournament ${run.id} is being played by another Local Arena process (pid ${pid}) on this data directory`;

    const other = await serve(dataDir);
    try {
      expect((await other.admin('GET', `/tournaments/${run.id}`)).body).toMatchObject({
        status: 'running',
        active: false,
        played_by_pid: pid,
      });
      for (const action of ['start', 'resume', 'pause', 'cancel']) {
        const { status, body } = await other.admin('POST', `/tournaments/${run.id}/${action}`);
        expect({ action, status }).toEqual({ action, status: 409 });
        expect(body.error).toContain(refusal);
      }
      expect((await other.admin('GET', `/tournaments/${run.id}`)).body).toMatchObject({ status: 'running', active: false });
    } finally {
      // A graceful stop pauses the runs this engine plays: it must not pause the other's.
      expect(await other.stop()).toBe(0);
    }
    expect(rowsOf(dataDir, run.id).tournament.status).toBe('running');

    const resumed = spawnSync(process.execPath, [BIN, 'run', '--resume', run.id, '--data-dir', dataDir, '--json'], {
      encoding: 'utf8',
      timeout: scaled(60_000),
    });
    expect(resumed.status).toBe(2);
    expect(resumed.stderr).toContain(refusal);
    expect(resumed.stdout).toBe('');

    fs.writeFileSync(RELEASE, 'go\n');
    expect(await run.exited).toBe(0);
    expect(run.events.filter((e) => e.event === 'game_ended')).toHaveLength(GAMES);
    expect(run.events.at(-1)).toMatchObject({ event: 'finished', tournament_id: run.id });
    expectEveryGameOnce(dataDir, run.id);
  },
  scaled(180_000),
);

it(
  'after kill -9 of the engine playing it, the next engine start resumes the run: every game once',
  async () => {
    const dataDir = path.join(dir, 'killed');
    const run = await startRun(specFile('killed'), dataDir);
    run.child.kill('SIGKILL');
    await run.exited;
    const left = rowsOf(dataDir, run.id);
    expect(left.tournament).toMatchObject({ status: 'running', runner: expect.stringMatching(new RegExp(`^${run.child.pid}:`)) });
    expect(left.games.length).toBeLessThan(GAMES);

    const next = await serve(dataDir);
    try {
      const deadline = Date.now() + scaled(90_000);
      let summary = (await next.admin('GET', `/tournaments/${run.id}`)).body;
      expect(summary).toMatchObject({ active: true });
      expect(summary).not.toHaveProperty('played_by_pid');
      while (summary.status !== 'finished' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        summary = (await next.admin('GET', `/tournaments/${run.id}`)).body;
      }
      expect(summary.status).toBe('finished');
    } finally {
      expect(await next.stop()).toBe(0);
    }
    expectEveryGameOnce(dataDir, run.id);
  },
  scaled(180_000),
);
