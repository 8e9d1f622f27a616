// bench:engine — bench:api's PSI game played against the engine in-process, without HTTP: `createArenaEngine` on a
// real SQLite file (WAL, durable), the same 11 operations. Prints this process's CPU per game with the operations
// back to back and with an idle pause between them (as a client at concurrency 1 leaves, each request then finds the
// caches cold), and the WAL pages each kind of operation commits (read from the WAL index in the -shm file, so the
// engine's connection is not touched). The same rows again on an in-memory database show what durability itself
// costs: the rest is SQL and JavaScript. Last, the CPU of each kind of call on the file database, back to back and
// with the first pause, in a pass of its own (reading the CPU clock around every call costs a little). Needs
// `npm run build`. Quick run: npm run bench:engine -- --games=300
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const GAMES = Number(args.get('games') ?? 1000);
const WARMUP = Number(args.get('warmup') ?? 300);
const GAPS_MS = (args.get('gaps') ?? '0.3,1').split(',').map(Number);
const app = path.join(root, 'dist/engine/app.js');
if (!fs.existsSync(app)) {
  process.stderr.write('bench:engine: run "npm run build" first\n');
  process.exit(1);
}
const { startEngine } = await import(app);
const { setOf } = await import('./api-game.mjs');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-engine-'));
const volatileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-engine-memory-'));
const running = await startEngine({ dataDir, port: 0, staleAfterMs: 0, logLevel: 'silent', rendererDir: null });
let engine = running.engine;

// The WAL index header (first 48 bytes of -shm, native byte order): mxFrame, the WAL's valid frames, at offset 16.
const shm = fs.openSync(path.join(dataDir, 'arena.sqlite-shm'), 'r');
const header = Buffer.alloc(24);
const walFrames = () => {
  fs.readSync(shm, header, 0, 24, 0);
  return os.endianness() === 'LE' ? header.readUInt32LE(16) : header.readUInt32BE(16);
};
const pages = new Map();
let counting = false;
/** While timing: per call kind, the CPU microseconds its calls took and their count. */
let callCpu = null;
/**
 * Runs one engine call; while counting, adds the WAL frames it committed (a checkpoint restart in between is skipped);
 * while timing, adds its CPU time.
 */
function op(kind, fn) {
  if (callCpu) {
    const cpu0 = process.cpuUsage();
    const result = fn();
    const cpu = process.cpuUsage(cpu0);
    const c = callCpu.get(kind) ?? { us: 0, calls: 0 };
    c.us += cpu.user + cpu.system;
    c.calls++;
    callCpu.set(kind, c);
    return result;
  }
  if (!counting) return fn();
  const before = walFrames();
  const result = fn();
  const added = walFrames() - before;
  if (added >= 0) {
    const p = pages.get(kind) ?? { frames: 0, calls: 0 };
    p.frames += added;
    p.calls++;
    pages.set(kind, p);
  }
  return result;
}

const privateSet = (messages) => setOf(messages.find((m) => m.content.startsWith('Your private set'))?.content ?? '');

/** bench:api's game: create, two joins, two syncs, two chat sends, a chat sync, two guesses, a final sync. */
async function game(n, pause) {
  const session = op('create', () => engine.createSession('psi'));
  await pause();
  const [a, b] = session.invites;
  const id = session.id;
  const operator = `challenge_${id}`;
  op('join', () => engine.join(a, `bench-a-${n % 10}`));
  await pause();
  op('join', () => engine.join(b, `bench-b-${n % 10}`));
  await pause();
  const setA = privateSet(op('sync', () => engine.sync(operator, 0, a)));
  await pause();
  const setB = privateSet(op('sync', () => engine.sync(operator, 0, b)));
  await pause();
  op('chat send', () => engine.chatSend(id, a, `my set: {${[...setA].join(', ')}}`));
  await pause();
  op('chat send', () => engine.chatSend(id, b, `my set: {${[...setB].join(', ')}}`));
  await pause();
  op('sync', () => engine.sync(id, 0, a));
  await pause();
  const both = [...setA].filter((x) => setB.has(x));
  const guess = both.length ? both.join(', ') : '0';
  op('first guess', () => engine.message(id, a, 'guess', guess));
  await pause();
  op('last guess (ends the game)', () => engine.message(id, b, 'guess', guess));
  await pause();
  const last = op('sync', () => engine.sync(operator, 2, a));
  if (!last.some((m) => m.content.startsWith('Game ended.'))) throw new Error(`game ${id} did not end`);
}

const immediate = () => new Promise((resolve) => setImmediate(resolve));
const gap = (ms) => () => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(label, pause, games) {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < games; i++) await game(i, pause);
  const cpu = process.cpuUsage(cpu0);
  return { label, user: cpu.user / 1000 / games, system: cpu.system / 1000 / games };
}

try {
  const memory = await startEngine({
    dataDir: volatileDir,
    volatileDatabase: true,
    port: 0,
    staleAfterMs: 0,
    logLevel: 'silent',
    rendererDir: null,
  });
  const engines = { file: running.engine, memory: memory.engine };
  /** Per pause kind, each database's mean CPU per game. */
  const results = [];
  /** Per pause kind, the file database's CPU per call kind. */
  const perCall = new Map();
  try {
    for (const which of ['file', 'memory']) {
      engine = engines[which];
      for (let i = 0; i < WARMUP; i++) await game(i, immediate);
    }
    // The two databases play in alternating rounds, so JIT warm-up and drift in the machine's speed hit both alike.
    const ROUNDS = 4;
    for (const [pauses, pause] of [['back to back', immediate], ...GAPS_MS.map((ms) => [`${ms} ms pauses`, gap(ms)])]) {
      const sums = { pauses, file: { user: 0, system: 0 }, memory: { user: 0, system: 0 } };
      for (let round = 0; round < ROUNDS; round++) {
        for (const which of ['file', 'memory']) {
          engine = engines[which];
          const r = await measure('', pause, Math.ceil(GAMES / ROUNDS));
          sums[which].user += r.user / ROUNDS;
          sums[which].system += r.system / ROUNDS;
        }
      }
      results.push(sums);
    }
    engine = engines.file;
    counting = true;
    await measure('pages', immediate, Math.min(GAMES, 500));
    counting = false;
    // Per-call CPU, file database: back to back, then with the first pause, in alternating rounds.
    const timedGames = Math.ceil(Math.min(GAMES, 800) / 4);
    for (let round = 0; round < 4; round++) {
      for (const [which, pause] of [
        ['back to back', immediate],
        [`${GAPS_MS[0]} ms pauses`, gap(GAPS_MS[0])],
      ]) {
        callCpu = perCall.get(which) ?? new Map();
        perCall.set(which, callCpu);
        await measure('calls', pause, timedGames);
      }
    }
    callCpu = null;
  } finally {
    await memory.close();
  }
  console.log(
    `bench:engine — bench:api's PSI game in-process, no HTTP (${os.cpus().length} cores, Node ${process.version}), ${GAMES} games per row`,
  );
  console.log('database, operations                CPU ms/game  user   system  × file back to back');
  const rows = ['file', 'memory'].flatMap((which) => results.map((r) => ({ label: `${which}, ${r.pauses}`, ...r[which] })));
  for (const r of rows) {
    const total = r.user + r.system;
    const base = rows[0].user + rows[0].system;
    console.log(
      `${r.label.padEnd(34)} ${total.toFixed(3).padStart(11)}  ${r.user.toFixed(3)}  ${r.system.toFixed(3).padStart(6)}  ${(total / base).toFixed(2).padStart(19)}`,
    );
  }
  const cpu = ({ user, system }) => user + system;
  const shares = results.map((r) => `${((100 * (cpu(r.file) - cpu(r.memory))) / cpu(r.file)).toFixed(0)}% (${r.pauses})`);
  console.log(`durability's share of the engine's CPU: ${shares.join(', ')}`);
  console.log('WAL pages committed per call, file database (per game: the call count times this)');
  let perGame = 0;
  const gamesCounted = Math.min(GAMES, 500);
  for (const [kind, p] of pages) {
    const calls = p.calls / gamesCounted;
    perGame += p.frames / gamesCounted;
    console.log(`  ${kind.padEnd(28)} ${(p.frames / p.calls).toFixed(2).padStart(6)} pages × ${calls.toFixed(0)} per game`);
  }
  console.log(`  per game                     ${perGame.toFixed(1).padStart(6)} pages`);
  const [steady, paused] = [...perCall.keys()];
  console.log(`CPU µs per call, file database (${steady} | ${paused}); calls per game; each kind's share of all paused calls`);
  const pausedTotal = [...perCall.get(paused).values()].reduce((sum, c) => sum + c.us, 0);
  for (const [kind, c] of perCall.get(steady)) {
    const p = perCall.get(paused).get(kind);
    const perGameCalls = c.calls / [...perCall.get(steady).values()][0].calls;
    console.log(
      `  ${kind.padEnd(28)} ${(c.us / c.calls).toFixed(0).padStart(5)} | ${(p.us / p.calls).toFixed(0).padStart(5)}  × ${perGameCalls.toFixed(0)}  ${((100 * p.us) / pausedTotal).toFixed(0).padStart(3)}%`,
    );
  }
} finally {
  fs.closeSync(shm);
  await running.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(volatileDir, { recursive: true, force: true });
}
