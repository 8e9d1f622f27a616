// bench:workers — the quickstart PSI tournament (per-game agents) played three times in the same run: locally (the
// baseline), on 1 game worker and on 2 game workers (`arena worker` processes on this machine), through a real
// redis-server on a free loopback port. Prints games/s of each, the 1 → 2 workers ratio, the coordinator's CPU per
// game (this process: scheduling, SQLite commits, BullMQ client) against the local engine's, the Redis commands per
// game sent by the coordinator and by the workers (counted with MONITOR, told apart by client name), and Redis memory
// per queued job and per finished job kept for resume. Workers sign every record (Ed25519) and the coordinator checks
// it: the CPU of one signature and one check per game is measured on the 1-worker run's real game records.
// Needs `npm run build` and redis-server. Quick run: npm run bench:workers -- --games=48 (--concurrency=2 per worker)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const GAMES = Number(args.get('games') ?? 96);
const CONCURRENCY = Number(args.get('concurrency') ?? 2);
const dist = (rel) => path.join(root, 'dist/engine', rel);
if (!fs.existsSync(dist('workers/queue-runner.js'))) {
  process.stderr.write('bench:workers: run "npm run build" first\n');
  process.exit(1);
}
try {
  execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
} catch {
  process.stderr.write('bench:workers: redis-server is not installed (Debian: apt-get install redis-server)\n');
  process.exit(1);
}
const { startEngine } = await import(dist('app.js'));
const { connectQueue, signatureProblem } = await import(dist('workers/queue-runner.js'));
const keys = await import(dist('workers/worker-keys.js'));
const { parseQueueUrl, GAMES_QUEUE } = await import(dist('workers/queue-connection.js'));
const { Redis } = await import('ioredis');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-workers-'));
const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const redisProcess = spawn(
  'redis-server',
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', scratch],
  {
    stdio: 'ignore',
  },
);
const url = `redis://127.0.0.1:${port}`;
const admin = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 50, 500) });
// Refused connections while redis-server starts are retried.
admin.on('error', () => {});
await admin.ping();

const quickstart = path.join(root, 'examples/quickstart.tournament.yaml');
const raw = YAML.parse(fs.readFileSync(quickstart, 'utf8'));
const perCycle = 12;
const specFor = (name, concurrency) => ({
  ...raw,
  name,
  format: { kind: 'round-robin', cycles: Math.max(1, Math.ceil(GAMES / perCycle)) },
  concurrency,
  agents: raw.agents.map((a) => ({ ...a, lifecycle: 'per-game' })),
});

/** `arena worker init` in the worker's data folder: its public key, for the coordinator's trusted list. */
function initKey(id) {
  const out = execFileSync(process.execPath, [
    path.join(root, 'bin/arena.js'),
    'worker',
    'init',
    '--data-dir',
    path.join(scratch, id),
    '--json',
  ]);
  return { publicKey: JSON.parse(String(out)).public_key, id };
}

function startWorker(id) {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/arena.js'),
      'worker',
      '--queue',
      url,
      '--id',
      id,
      '--concurrency',
      String(CONCURRENCY),
      '--data-dir',
      path.join(scratch, id),
      '--agents-root',
      path.join(root, 'challenges/psi/agents'),
      '--json',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('"worker_ready"')) resolve();
    });
    child.once('exit', () => reject(new Error(`worker ${id} exited`)));
  });
  return { child, ready };
}

/** Redis commands by side while `fn` runs: MONITOR lines, attributed by the sending connection's client name. */
async function countCommands(fn) {
  const monitor = await admin.monitor();
  const bySource = new Map();
  monitor.on('monitor', (_time, _args, source) => bySource.set(source, (bySource.get(source) ?? 0) + 1));
  const result = await fn();
  const names = new Map(
    String(await admin.client('LIST'))
      .trim()
      .split('\n')
      .map((line) => {
        const fields = Object.fromEntries(line.split(' ').map((kv) => kv.split('=')));
        return [fields.addr, fields.name ?? ''];
      }),
  );
  monitor.disconnect();
  const sides = { coordinator: 0, workers: 0, other: 0 };
  for (const [source, n] of bySource) {
    const name = names.get(source) ?? '';
    if (name === 'arena-worker' || name.includes(':w:')) sides.workers += n;
    else if (name === 'arena-coordinator' || name.endsWith(':qe')) sides.coordinator += n;
    else sides.other += n;
  }
  return { result, sides };
}

async function play(label, workers) {
  const dataDir = path.join(scratch, `coordinator-${label}`);
  const ids = Array.from({ length: workers }, (_, i) => `${label}-w${i + 1}`);
  const trusted = ids.map(initKey).map((k) => ({ publicKey: k.publicKey, name: k.id, key: keys.parsePublicKey(k.publicKey) }));
  const queue = workers > 0 ? await connectQueue({ target: parseQueueUrl(url, 'coordinator'), trusted }) : null;
  const engine = await startEngine({
    dataDir,
    port: 0,
    logLevel: 'silent',
    rendererDir: null,
    resumeTournaments: false,
    ...(queue ? { remoteRunners: queue.runners } : {}),
  });
  const started = [];
  for (const id of ids) started.push(startWorker(id));
  await Promise.all(started.map((w) => w.ready));
  try {
    const t = engine.tournaments.create(specFor(`bench ${label}`, CONCURRENCY * Math.max(1, workers)), path.dirname(quickstart));
    const memory0 = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))[1]);
    const { result, sides } = await countCommands(async () => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const outcome = await engine.tournaments.start(t.id);
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      return { outcome, seconds, cpuMs: (cpu.user + cpu.system) / 1000 };
    });
    const memory1 = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))[1]);
    const games = engine.store.tournaments.games(t.id);
    const harness = games.filter((g) => g.fault === 'harness').length;
    const n = Math.max(1, games.length);
    return {
      run: label,
      workers,
      outcome: result.outcome.status,
      games: games.length,
      harness_faults: harness,
      ...(harness > 0
        ? { harness_details: [...new Set(games.filter((g) => g.fault === 'harness').map((g) => g.detail))].slice(0, 3) }
        : {}),
      seconds: Number(result.seconds.toFixed(2)),
      games_per_second: Number((games.length / result.seconds).toFixed(2)),
      coordinator_cpu_ms_per_game: Number((result.cpuMs / n).toFixed(1)),
      ...(workers > 0
        ? {
            redis_commands_per_game: {
              coordinator: Number((sides.coordinator / n).toFixed(1)),
              workers: Number((sides.workers / n).toFixed(1)),
            },
            redis_bytes_per_finished_job_kept: Math.round((memory1 - memory0) / n),
            signature_cpu_ms_per_game: signatureCost(engine, t.id, dataDir),
          }
        : {}),
    };
  } finally {
    await engine.close();
    await queue?.close();
    await Promise.all(
      started.map(
        ({ child }) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}

/**
 * CPU of signing (worker side) and checking (coordinator side) each stored record of the run, rebuilt with its
 * transcript the size the worker sent it: canonical JSON and sha256 of the whole record and of the job, the attestation,
 * Ed25519.
 */
function signatureCost(engine, tournamentId, dataDir) {
  const { privateKey, publicKey } = keys.initWorkerKey(path.join(dataDir, 'bench-key')).key;
  const trusted = [{ publicKey, name: null, key: keys.parsePublicKey(publicKey) }];
  const job = benchJob(tournamentId);
  const records = [...engine.store.tournaments.eachGameWithTranscript(tournamentId)].map((g) => ({
    worker_id: 'bench',
    session_id: g.sessionId,
    invites: g.invites,
    termination: g.termination,
    faulted_seats: g.faultedSeats,
    placements: g.placements,
    scores: g.scores,
    detail: g.detail,
    agent_ms: g.agentMs,
    started_at: g.startedAt,
    ended_at: g.endedAt,
    transcript: g.transcript,
    usage: null,
    model_turns: [],
    isolation: g.isolation ?? null,
    worker_key: publicKey,
  }));
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const sign = () => records.map((r, i) => ({ ...r, signature: keys.signRecord(privateKey, `j${i}`, job, r) }));
  const check = (signed) => signed.filter((r, i) => signatureProblem(trusted, `j${i}`, job, r) !== null).length;
  // One pass to warm the JIT and the key objects, then enough passes for a measurable total on a busy machine.
  if (check(sign()) > 0) throw new Error('a genuine record was refused');
  const rounds = Math.max(1, Math.ceil(500 / Math.max(1, records.length)));
  let signMs = 0;
  let checkMs = 0;
  for (let k = 0; k < rounds; k++) {
    const s0 = cpu();
    const signed = sign();
    const s1 = cpu();
    check(signed);
    signMs += s1 - s0;
    checkMs += cpu() - s1;
  }
  const n = Math.max(1, records.length) * rounds;
  return { worker_sign: Number((signMs / n).toFixed(3)), coordinator_check: Number((checkMs / n).toFixed(3)) };
}

/** A job shaped like a real one: a PSI game of three agents. */
function benchJob(tournamentId) {
  const agent = (id) => ({ id, manifest_id: id, manifest_sha256: 'a'.repeat(64), entry_file: 'agent.mjs', entry_sha256: 'b'.repeat(64) });
  return {
    version: 1,
    tournament_id: tournamentId,
    attempt: 1,
    manifest_hash: `sha256:${'c'.repeat(64)}`,
    app_version: '0.1.0',
    protocol: 'specarena',
    game: { gameIndex: 0, round: 1, pairingIndex: 0, seats: [0, 1], seed: 'd'.repeat(32), setSize: 2, opening: 0, challenge: 'psi' },
    agents: ['honest-exact', 'greedy-overclaim', 'cautious-minimal'].map(agent),
    challenge_sha256: 'e'.repeat(64),
    options: {},
    move_ms: 10_000,
    game_ms: 30_000,
    start_ms: 10_000,
    max_illegal_actions: 3,
  };
}

/** Memory of 1,000 waiting jobs shaped like a real one (a PSI game of three agents), in a scratch queue. */
async function queuedJobBytes() {
  const { Queue } = await import('bullmq');
  const q = new Queue('bench-scratch', { connection: { host: '127.0.0.1', port } });
  const data = benchJob('t-20260101-0123abcd');
  const before = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))[1]);
  for (let i = 0; i < 1000; i++) await q.add('game', { ...data, game: { ...data.game, gameIndex: i } }, { jobId: `t.g${i}.a1` });
  const after = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))[1]);
  await q.obliterate({ force: true });
  await q.close();
  return Math.round((after - before) / 1000);
}

try {
  const runs = [];
  for (const [label, workers] of [
    ['local', 0],
    ['1-worker', 1],
    ['2-workers', 2],
  ]) {
    process.stderr.write(`  ${label}…\n`);
    runs.push(await play(label, workers));
  }
  const [local, one, two] = runs;
  const summary = {
    cores: os.availableParallelism(),
    load_average: os.loadavg().map((x) => Number(x.toFixed(2))),
    concurrency_per_worker: CONCURRENCY,
    queue: GAMES_QUEUE,
    runs,
    two_vs_one_worker_games_per_second: Number((two.games_per_second / one.games_per_second).toFixed(2)),
    coordinator_vs_local_cpu_per_game: Number((one.coordinator_cpu_ms_per_game / local.coordinator_cpu_ms_per_game).toFixed(2)),
    redis_bytes_per_queued_job: await queuedJobBytes(),
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} finally {
  admin.disconnect();
  redisProcess.kill('SIGKILL');
  fs.rmSync(scratch, { recursive: true, force: true });
}
