// Real parts for the game-worker tests: a redis-server on a free loopback port (no persistence, in a temp folder),
// `arena worker` and `arena run --queue` processes of the built CLI, and the coordinator's SQLite read back.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { scaled } from '../../support/slowness.js';
import { ROOT } from '../tournaments/helpers.js';

export const BIN = path.join(ROOT, 'bin/arena.js');
export const PSI_AGENTS = path.join(ROOT, 'challenges/psi/agents');

export function hasRedis(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The CLI runs the compiled engine; build it when this checkout's dist/ lacks the workers. */
export function ensureBuilt(): void {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/workers/game-worker.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export async function untilPort(port: number, up: boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open === up) return;
    if (Date.now() > deadline) throw new Error(`redis port ${port} never went ${up ? 'up' : 'down'}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface TestRedis {
  url: string;
  port: number;
  /** Stops it abruptly (SIGKILL; nothing is saved). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

export async function startRedis(dir: string): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const redis: TestRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'],
        { stdio: 'ignore' },
      );
      await untilPort(port, true);
    },
    async kill() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const closed = new Promise((r) => c.once('close', r));
      c.kill('SIGKILL');
      await closed;
      await untilPort(port, false);
    },
  };
  await redis.start();
  return redis;
}

/** A spawned CLI process and its JSON event lines. */
export interface CliProcess {
  child: ChildProcess;
  events: Array<Record<string, unknown>>;
  stderr: () => string;
  /** Resolves with the first event matching, or rejects after `ms`. */
  until(match: (e: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const events: Array<Record<string, unknown>> = [];
  const waiters: Array<{ match: (e: Record<string, unknown>) => boolean; resolve: (e: Record<string, unknown>) => void }> = [];
  let buffer = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      events.push(event);
      for (const w of [...waiters])
        if (w.match(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    events,
    stderr: () => err,
    until(match, ms = 60_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event within ${ms} ms; stderr: ${err.slice(-500)}`)), ms);
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`process exited before the event; stderr: ${err.slice(-800)}`));
        });
      });
    },
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

/** `arena run … --queue URL`: a coordinator that accepts the records of the workers in `trustedFile`, with JSON events. */
export function spawnCoordinator(args: string[], queueUrl: string, trustedFile: string, env: NodeJS.ProcessEnv = {}): CliProcess {
  return spawnCli(['run', ...args, '--queue', queueUrl, '--trusted-workers', trustedFile, '--json'], env);
}

/** The tournament a coordinator started (its `started` event). */
export function tournamentIdOf(run: CliProcess): string {
  return String(run.events.find((e) => e.event === 'started')?.tournament_id);
}

/** `arena worker init`: the worker's key pair in its data folder; returns the public key it printed. */
export function initWorkerKey(dataDir: string): string {
  const out = execFileSync(process.execPath, [BIN, 'worker', 'init', '--data-dir', dataDir, '--json'], { encoding: 'utf8' });
  return (JSON.parse(out) as { public_key: string }).public_key;
}

/** The trusted-workers file the tests' coordinators read: next to the workers' data folders. */
export function trustedFileOf(workerDataDir: string): string {
  return path.join(path.dirname(workerDataDir), 'trusted-workers.txt');
}

/**
 * `arena worker` on the queue, ready to take jobs: its key made with `arena worker init` and trusted (under its id)
 * in the trusted-workers file next to its data folder (trustedFileOf), which the tests' coordinators are given.
 */
export async function startWorker(
  url: string,
  dataDir: string,
  id: string,
  extra: string[] = ['--agents-root', PSI_AGENTS],
  env: NodeJS.ProcessEnv = {},
): Promise<CliProcess> {
  fs.appendFileSync(trustedFileOf(dataDir), `${initWorkerKey(dataDir)} ${id}\n`);
  // A short stall time makes a SIGKILLed worker's jobs move on quickly; it is a wall-clock margin all the same (a worker
  // renews its lock from its event loop), so a loaded machine widens it rather than handing a live worker's job away.
  const stallSeconds = String(Math.max(3, Math.ceil(scaled(3_000) / 1000)));
  const worker = spawnCli(
    [
      'worker',
      '--queue',
      url,
      '--data-dir',
      dataDir,
      '--id',
      id,
      '--concurrency',
      '2',
      '--stall-seconds',
      stallSeconds,
      '--json',
      ...extra,
    ],
    env,
  );
  // Its first connection and the key check: slow only on a loaded machine, so the wait widens with the load.
  await worker.until((e) => e.event === 'worker_ready', scaled(30_000));
  return worker;
}

export interface GameRow {
  game_key: string;
  game_index: number;
  attempt: number;
  termination: string;
  detail: string;
  placements: string | null;
  scores: string | null;
  worker_id: string | null;
  isolation: string | null;
}

export function gameRows(dataDir: string, tournamentId: string): GameRow[] {
  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT game_key, game_index, attempt, termination, detail, placements, scores, worker_id, isolation FROM tournament_games WHERE tournament_id = ? ORDER BY game_index, attempt',
      )
      .all(tournamentId) as GameRow[];
  } finally {
    db.close();
  }
}

/** A PSI round robin of the shipped baselines, with cold starts (workers play per-game agents). */
export function psiSpec(name: string, agents: string[], gamesPerPairing: number, concurrency: number, agentsDir = PSI_AGENTS) {
  return {
    name,
    challenge: 'psi',
    format: 'round-robin',
    games_per_pairing: gamesPerPairing,
    concurrency,
    seed: `${name}-seed`,
    agents: agents.map((a) => ({ manifest: path.join(agentsDir, a, 'agent.yaml'), id: a, lifecycle: 'per-game' })),
    limits: { move_seconds: 5, game_seconds: 20 },
  };
}

/** Job ids a worker started, from its event lines. */
export function startedJobs(worker: CliProcess): string[] {
  return worker.events.filter((e) => e.event === 'game_started').map((e) => String(e.job));
}

/** Job ids a worker started and has not yet ended: the games it holds right now, as far as its event lines tell. */
export function heldJobs(worker: CliProcess): string[] {
  return startedJobs(worker).filter((job) => !worker.events.some((e) => e.event === 'game_ended' && e.job === job));
}

/** The worker key and signature kept with each stored attempt. */
export function signaturesOf(dataDir: string, tournamentId: string): Array<{ worker_key: string | null; worker_signature: string | null }> {
  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT worker_key, worker_signature FROM tournament_games WHERE tournament_id = ? ORDER BY game_index, attempt')
      .all(tournamentId) as Array<{ worker_key: string | null; worker_signature: string | null }>;
  } finally {
    db.close();
  }
}
