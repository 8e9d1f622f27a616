// The API-only PSI game of bench:api, shared with bench:tournament (which prints its engine CPU per tournament game
// against this game's cost measured in the same run): `arena serve` as a child process, 11 requests per game, the
// server's CPU read from the OS.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
export const PAIRS = 10;
// Steady state is what a long tournament pays, and the engine takes about 2,000 games to reach it: measured in windows
// of 400 games at concurrency 1, its CPU per game went 6.4, 4.0, 3.6, 3.4, 3.2 ms, then held at 3.0-3.2 through game
// 4,000, while the bare floor's held from the second window on (V8 still optimises the engine's code paths well after
// the first hundred games). So every server gets this many warm-up games before it is measured.
export const WARMUP_GAMES = 2000;

/** bench:api's yardsticks in the order it prints them, each a script run as its own process; the bare floor first. */
export const YARDSTICKS = [
  { label: 'bare floor', script: 'bench/bare-floor-server.mjs' },
  { label: 'fastify floor', script: 'bench/fastify-floor-server.mjs' },
  { label: 'append-only bound', script: 'bench/append-only-floor-server.mjs' },
  { label: 'engine, bare http', script: 'bench/engine-bare-http-server.mjs' },
];

export function start(command, argv, env) {
  const child = spawn(command, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ child, url: JSON.parse(line).url }));
    child.once('exit', (code) => reject(new Error(`server exited early with code ${code}`)));
  });
}

/** CPU time of a process in milliseconds, read from the OS: utime + stime, and stime alone (the kernel's part). */
export function cpuTimesMs(pid) {
  if (fs.existsSync(`/proc/${pid}/stat`)) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [user, system] = [Number(fields[11]), Number(fields[12])].map((ticks) => (ticks * 1000) / 100); // CLK_TCK is 100
    return { cpu: user + system, system };
  }
  throw new Error('bench:api reads server CPU from /proc; run it on Linux');
}

/** utime + stime of a process in milliseconds. */
export const cpuMs = (pid) => cpuTimesMs(pid).cpu;

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function call(base, latencies, method, pathAndQuery, body) {
  const t0 = performance.now();
  const res = await fetch(base + pathAndQuery, {
    method,
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  latencies.push(performance.now() - t0);
  if (!res.ok) throw new Error(`${method} ${pathAndQuery} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The numbers between the braces of a PSI set line. */
export const setOf = (text) =>
  new Set(
    (text.match(/\{([^}]*)\}/)?.[1] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** One game: create, 2 joins, 2 arena syncs, 2 chat sends, 1 chat sync, 2 guesses, final sync = 11 requests. */
export async function playGame(base, n, latencies) {
  const session = await call(base, latencies, 'POST', '/api/challenges/psi');
  const [a, b] = session.invites;
  const pair = n % PAIRS;
  await call(base, latencies, 'POST', '/api/arena/join', { invite: a, userId: `bench-a-${pair}` });
  await call(base, latencies, 'POST', '/api/arena/join', { invite: b, userId: `bench-b-${pair}` });
  const id = session.id;
  const syncA = await call(base, latencies, 'GET', `/api/arena/sync?channel=${id}&from=${a}&index=0`);
  const syncB = await call(base, latencies, 'GET', `/api/arena/sync?channel=${id}&from=${b}&index=0`);
  const setA = setOf(syncA.messages.find((m) => m.content.startsWith('Your private set'))?.content ?? '');
  const setB = setOf(syncB.messages.find((m) => m.content.startsWith('Your private set'))?.content ?? '');
  await call(base, latencies, 'POST', '/api/chat/send', { channel: id, from: a, content: `my set: {${[...setA].join(', ')}}` });
  await call(base, latencies, 'POST', '/api/chat/send', { channel: id, from: b, content: `my set: {${[...setB].join(', ')}}` });
  await call(base, latencies, 'GET', `/api/chat/sync?channel=${id}&from=${a}&index=0`);
  const both = [...setA].filter((x) => setB.has(x));
  const guess = both.length ? both.join(', ') : '0';
  await call(base, latencies, 'POST', '/api/arena/message', { challengeId: id, from: a, messageType: 'guess', content: guess });
  await call(base, latencies, 'POST', '/api/arena/message', { challengeId: id, from: b, messageType: 'guess', content: guess });
  const last = await call(base, latencies, 'GET', `/api/arena/sync?channel=${id}&from=${a}&index=2`);
  if (!last.messages.some((m) => m.content.startsWith('Game ended.'))) throw new Error(`game ${id} did not end`);
}

/** What one server has played so far; rounds add to it. */
function emptyTally() {
  return { games: 0, failed: 0, cpu: 0, system: 0, seconds: 0, latencies: [] };
}

/** Plays `games` more games on one server at `concurrency` and adds their CPU, time and latencies to `acc`. */
async function playRound(base, pid, concurrency, games, acc, deadline) {
  let started = 0;
  const start = cpuTimesMs(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < games && performance.now() < deadline) {
        started++;
        const n = acc.games++;
        try {
          await playGame(base, n, acc.latencies);
        } catch (error) {
          acc.failed++;
          if (acc.failed <= 3) process.stderr.write(`game ${n} failed: ${error.message}\n`);
        }
      }
    }),
  );
  acc.seconds += (performance.now() - t0) / 1000;
  const end = cpuTimesMs(pid);
  acc.cpu += end.cpu - start.cpu;
  acc.system += end.system - start.system;
}

function summary(acc) {
  const latencies = [...acc.latencies].sort((x, y) => x - y);
  return {
    games: acc.games,
    failed: acc.failed,
    gamesPerSecond: acc.games / acc.seconds,
    requestsPerSecond: latencies.length / acc.seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuPerGame: acc.cpu / Math.max(1, acc.games - acc.failed),
    systemPerGame: acc.system / Math.max(1, acc.games - acc.failed),
  };
}

/** Plays `games` unmeasured games; returns the server's CPU per game over the first and the last fifth of them. */
async function warmUp(base, pid, games) {
  const ignored = [];
  const fifth = Math.max(1, Math.floor(games / 5));
  const windows = [];
  let cpu0 = 0;
  for (let i = 0; i < games; i++) {
    if (i === 0 || i === games - fifth) cpu0 = cpuMs(pid);
    await playGame(base, i, ignored);
    if (i === fifth - 1 || i === games - 1) windows.push((cpuMs(pid) - cpu0) / fifth);
  }
  return games > 0 ? { firstFifth: windows[0], lastFifth: windows.at(-1) } : null;
}

export async function run(base, pid, concurrency, { games, warmup, maxSeconds }) {
  await warmUp(base, pid, warmup);
  const acc = emptyTally();
  await playRound(base, pid, concurrency, games, acc, performance.now() + maxSeconds * 1000);
  return summary(acc);
}

/**
 * Several servers measured over the same stretch of time: after each one's warm-up (`warmup` games, 0 for servers
 * already warm), `rounds` rounds in which every server plays its share of `games` in turn, so a machine that speeds up
 * or slows down during the run (a shared VM does) weighs on all of them alike and their ratio stays put. Returns one
 * summary per server, in order, with its warm-up's CPU per game over the first and last fifth (null without one).
 */
export async function runInterleaved(servers, concurrency, { games, warmup, rounds, maxSeconds }) {
  const warmups = [];
  for (const server of servers) warmups.push(await warmUp(server.url, server.pid, warmup));
  const accs = servers.map(() => emptyTally());
  const deadline = performance.now() + maxSeconds * 1000;
  for (let round = 0; round < rounds; round++) {
    const share = Math.ceil(((round + 1) * games) / rounds) - Math.ceil((round * games) / rounds);
    for (const [i, server] of servers.entries()) await playRound(server.url, server.pid, concurrency, share, accs[i], deadline);
  }
  return accs.map((acc, i) => ({ ...summary(acc), warmup: warmups[i] }));
}

/** Starts `arena serve` on a fresh data dir (durable SQLite, no expiry); `close()` stops it and removes the dir. */
export async function startArena() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-'));
  const server = await start(process.execPath, [
    'bin/arena.js',
    'serve',
    '--json',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--stale-after',
    '0',
    '--log-level',
    'error',
  ]);
  return {
    ...server,
    close() {
      server.child.kill('SIGTERM');
      return new Promise((resolve) =>
        server.child.once('exit', () => {
          fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        }),
      );
    },
  };
}
