// Tournaments on game workers, all real: a redis-server on a loopback port, `arena worker` processes and `arena run
// --queue` coordinators of the built CLI, sandboxed PSI baselines. Every game ends up in the coordinator's SQLite
// exactly once: across two workers, when a worker is SIGKILLed mid-game (its job stalls and is replayed on the same
// seed), when the coordinator is killed -9 and resumed (games finished meanwhile are collected, not replayed), and
// when Redis restarts empty. A worker whose agent file differs from the run's refuses every job as a harness error.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { isSettled } from '../../../engine/tournaments/results/stats.js';
import { GAMES_QUEUE } from '../../../engine/workers/queue-connection.js';
import { storedJob } from '../../../engine/workers/stored-finish.js';
import { publicKeyText, signRecord } from '../../../engine/workers/worker-keys.js';
import { FIXTURES, tempDir } from '../tournaments/helpers.js';
import {
  type CliProcess,
  ensureBuilt,
  type GameRow,
  gameRows,
  hasRedis,
  heldJobs,
  initWorkerKey,
  PSI_AGENTS,
  psiSpec,
  signaturesOf,
  spawnCli,
  spawnCoordinator,
  startedJobs,
  startRedis,
  startWorker,
  type TestRedis,
  tournamentIdOf,
} from './harness.js';

const redisMissing = !hasRedis();
if (redisMissing) console.warn('game-worker tests skipped: redis-server is not installed (Debian: apt-get install redis-server)');

/** A well-formed job of a PSI game (hashes that match nothing: only its shape matters where it is used). */
function validJob() {
  const agent = (id: string) => ({
    id,
    manifest_id: id,
    manifest_sha256: 'a'.repeat(64),
    entry_file: 'agent.mjs',
    entry_sha256: 'b'.repeat(64),
  });
  return {
    version: 1,
    tournament_id: 't-hostile',
    attempt: 1,
    manifest_hash: 'sha256:x',
    app_version: '0.1.0',
    protocol: 'specarena',
    game: { gameIndex: 0, round: 1, pairingIndex: 0, seats: [0, 1], seed: 's', setSize: 2, opening: 0, challenge: 'psi' },
    agents: [agent('honest-exact'), agent('greedy-overclaim')],
    challenge_sha256: 'c'.repeat(64),
    options: {},
    move_ms: 5000,
    game_ms: 20_000,
    start_ms: 10_000,
    max_illegal_actions: 3,
  };
}

/** Terminations that settle a game (rated); the rest are void and replayed. */
const RATED = /^(completed|adjudicated|agent_)/;

/** A job's return value once it has finished, polled from its stored state (not an event a late reader can miss). */
async function resultOfJob(queue: Queue, id: string, ms: number): Promise<unknown> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { finish } = await storedJob(queue, id);
    if (finish && 'error' in finish) throw new Error(`job ${id} failed: ${finish.error}`);
    if (finish) return finish.value;
    if (Date.now() > deadline) throw new Error(`job ${id} not finished after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(redisMissing)('game workers on BullMQ and a real Redis', () => {
  let dir: string;
  let redis: TestRedis;
  const processes: CliProcess[] = [];
  const track = (p: CliProcess): CliProcess => {
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir('arena-workers-');
    redis = await startRedis(dir);
  }, 250_000);
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.kill('SIGKILL')));
  });
  afterAll(async () => {
    await redis?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const writeSpec = (name: string, spec: Record<string, unknown>): string => {
    const file = path.join(dir, `${name}.tournament.yaml`);
    fs.writeFileSync(file, YAML.stringify(spec));
    return file;
  };
  const trustedFile = (): string => path.join(dir, 'trusted-workers.txt');
  const runQueued = (args: string[], env: NodeJS.ProcessEnv = {}) => track(spawnCoordinator(args, redis.url, trustedFile(), env));

  /** Every planned game index once, each settled by exactly one attempt, and no attempt after it. */
  const expectExactlyOnce = (rows: GameRow[], planned: number): void => {
    expect([...new Set(rows.map((r) => r.game_index))].sort((a, b) => a - b)).toEqual([...Array(planned).keys()]);
    for (let index = 0; index < planned; index++) {
      const attempts = rows.filter((r) => r.game_index === index);
      expect(
        attempts.filter((r) => RATED.test(r.termination)),
        `game ${index}`,
      ).toHaveLength(1);
      expect(RATED.test(attempts.at(-1)?.termination ?? ''), `game ${index} ends settled`).toBe(true);
      expect(new Set(attempts.map((r) => r.attempt)).size).toBe(attempts.length);
    }
  };

  it('48 PSI games across two workers: each game once, both workers play, each job played once', async () => {
    const w1 = track(await startWorker(redis.url, path.join(dir, 'w1'), 'w1'));
    const w2 = track(await startWorker(redis.url, path.join(dir, 'w2'), 'w2'));
    const data = path.join(dir, 'c48');
    const spec = writeSpec('c48', psiSpec('c48', ['honest-exact', 'greedy-overclaim', 'cautious-minimal'], 16, 4));
    const run = runQueued([spec, '--data-dir', data]);
    expect(await run.exited, run.stderr()).toBe(0);
    const id = tournamentIdOf(run);
    const rows = gameRows(data, id);
    expectExactlyOnce(rows, 48);
    expect(new Set(rows.map((r) => r.worker_id))).toEqual(new Set(['w1', 'w2']));
    // The worker's sandbox on its own machine: every seat ran under bubblewrap with only its arena endpoint.
    for (const row of rows.filter((r) => r.termination === 'completed'))
      expect((JSON.parse(row.isolation ?? '[]') as Array<{ method: string }>).map((i) => i.method)).toEqual(['bubblewrap', 'bubblewrap']);
    const jobs = [...startedJobs(w1), ...startedJobs(w2)];
    expect(jobs).toHaveLength(rows.length);
    expect(new Set(jobs).size).toBe(jobs.length);
    const report = JSON.parse(fs.readFileSync(path.join(data, 'reports', id, 'report.json'), 'utf8'));
    // The report lists every committed attempt (a loaded machine may void and replay a game).
    expect(report.games).toHaveLength(rows.length);
  }, 300_000);

  it('the shipped warm baselines, unchanged: 48 games over two workers, one SIGKILLed mid-run, each game once', async () => {
    const w1 = track(await startWorker(redis.url, path.join(dir, 'm1'), 'm1'));
    const w2 = track(await startWorker(redis.url, path.join(dir, 'm2'), 'm2'));
    const data = path.join(dir, 'cwarm');
    const names = ['honest-exact', 'greedy-overclaim', 'cautious-minimal'];
    // The definitions as shipped: lifecycle persistent, no override.
    const spec = {
      ...psiSpec('cwarm', names, 16, 4),
      agents: names.map((a) => ({ manifest: path.join(PSI_AGENTS, a, 'agent.yaml'), id: a })),
    };
    const run = runQueued([writeSpec('cwarm', spec), '--data-dir', data]);
    // Killed once its warm processes have played and while it holds a game.
    await expect
      .poll(() => w1.events.filter((e) => e.event === 'game_ended').length >= 2 && heldJobs(w1).length > 0, {
        timeout: 60_000,
        interval: 5,
      })
      .toBe(true);
    await w1.kill('SIGKILL');
    const killed = heldJobs(w1);
    expect(run.stderr()).not.toMatch(/persistent/);
    expect(await run.exited, run.stderr()).toBe(0);
    const id = tournamentIdOf(run);
    const rows = gameRows(data, id);
    expectExactlyOnce(rows, 48);
    // The killed worker's games: the same jobs, started again by the survivor once their locks expired.
    for (const job of killed) expect(startedJobs(w2)).toContain(job);
    expect(rows.filter((r) => RATED.test(r.termination)).every((r) => r.worker_id === 'm1' || r.worker_id === 'm2')).toBe(true);
    // Each worker's warm figures, per agent: processes kept warm (far fewer than games), and their sum for the run.
    const report = JSON.parse(fs.readFileSync(path.join(data, 'reports', id, 'report.json'), 'utf8')) as {
      games: Array<{ worker_id: string | null; worker_key: string | null; worker_signature: string | null; termination: string }>;
      agent_lifecycles: Array<{
        agent: string;
        lifecycle: string;
        processes: number;
        workers: Array<{ worker: string; processes: number }>;
      }>;
    };
    expect(report.agent_lifecycles.map((l) => [l.agent, l.lifecycle])).toEqual(names.map((n) => [n, 'persistent']));
    for (const l of report.agent_lifecycles) {
      expect(l.workers.map((w) => w.worker).sort()).toEqual(['m1', 'm2']);
      expect(l.processes).toBe(l.workers.reduce((n, w) => n + w.processes, 0));
      expect(l.processes).toBeGreaterThan(0);
      expect(l.processes).toBeLessThan(32);
    }
    // Provenance in the exports: the worker of every game (and its signature) in report.json, its id in games.csv.
    for (const g of report.games.filter((x) => RATED.test(x.termination))) {
      expect(['m1', 'm2']).toContain(g.worker_id);
      expect(g.worker_key).toMatch(/^ed25519:/);
      expect(g.worker_signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    }
    const csv = fs
      .readFileSync(path.join(data, 'reports', id, 'games.csv'), 'utf8')
      .trim()
      .split('\n');
    const column = (csv[0] ?? '').split(',').indexOf('worker_id');
    expect(column).toBeGreaterThan(0);
    const workerCells = csv.slice(1).map((line) => line.split(',').at(column - (csv[0] ?? '').split(',').length));
    expect(new Set(workerCells.filter((c) => c !== ''))).toEqual(new Set(['m1', 'm2']));
    expect(csv).toHaveLength(rows.length + 1);
  }, 300_000);

  it('a worker SIGKILLed mid-game: its jobs stall, another worker replays them on the same seed, each game once', async () => {
    const w1 = track(await startWorker(redis.url, path.join(dir, 'k1'), 'k1'));
    const w2 = track(await startWorker(redis.url, path.join(dir, 'k2'), 'k2'));
    const data = path.join(dir, 'ckill');
    const spec = psiSpec('ckill', ['honest-exact', 'greedy-overclaim'], 12, 4);
    const run = runQueued([writeSpec('ckill', spec), '--data-dir', data]);
    await w1.until((e) => e.event === 'game_started');
    await w1.kill('SIGKILL');
    const killed = heldJobs(w1);
    expect(killed.length).toBeGreaterThan(0);
    expect(await run.exited, run.stderr()).toBe(0);
    const rows = gameRows(data, tournamentIdOf(run));
    expectExactlyOnce(rows, 12);
    for (const job of killed) {
      const index = Number(/\.g(\d+)\.a1$/.exec(job)?.[1]);
      // The same job (attempt 1), retried after its lock expired: not a new attempt, played by the survivor.
      expect(startedJobs(w2)).toContain(job);
      expect(rows.filter((r) => r.game_index === index).map((r) => [r.attempt, r.worker_id])).toEqual([[1, 'k2']]);
    }
    // Same seeds, same games: the queued run's results are those of the same definition played locally.
    const local = track(
      spawnCli(['run', writeSpec('ckill-local', { ...spec, name: 'ckill-local' }), '--data-dir', path.join(dir, 'local'), '--json']),
    );
    expect(await local.exited, local.stderr()).toBe(0);
    const localRows = gameRows(path.join(dir, 'local'), tournamentIdOf(local));
    const results = (list: GameRow[]) => list.filter((r) => RATED.test(r.termination)).map((r) => [r.game_index, r.placements, r.scores]);
    expect(results(rows)).toEqual(results(localRows));
  }, 300_000);

  it('a worker whose copy of an agent differs refuses every job as a harness error, and starts no agent', async () => {
    const theirs = path.join(dir, 'agents-coordinator');
    const mine = path.join(dir, 'agents-worker');
    fs.cpSync(PSI_AGENTS, theirs, { recursive: true });
    fs.cpSync(PSI_AGENTS, mine, { recursive: true });
    fs.appendFileSync(path.join(mine, 'honest-exact', 'agent.mjs'), '\n// edited on the worker\n');
    track(await startWorker(redis.url, path.join(dir, 'bad'), 'bad', ['--agents-root', mine]));
    const data = path.join(dir, 'cbad');
    const run = runQueued([writeSpec('cbad', psiSpec('cbad', ['honest-exact', 'greedy-overclaim'], 2, 2, theirs)), '--data-dir', data]);
    expect(await run.exited, run.stderr()).toBe(0);
    const rows = gameRows(data, tournamentIdOf(run));
    // Two games, each refused on all three attempts, then settled void: nobody's fault but the harness's.
    expect(rows.map((r) => [r.game_index, r.attempt])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 1],
      [1, 2],
      [1, 3],
    ]);
    for (const row of rows) {
      expect(row.termination).toBe('harness_error');
      expect(row.worker_id).toBe('bad');
      expect(row.detail).toMatch(/worker bad refused: agent honest-exact \(honest-exact\): its entry file agent\.mjs differs/);
      expect(row.isolation).toBeNull();
    }
    expect(fs.existsSync(path.join(dir, 'bad', 'worker', 'work'))).toBe(false);
  }, 120_000);

  it('hostile queue traffic: a worker refuses a malformed job; the coordinator refuses a forged game record', async () => {
    track(await startWorker(redis.url, path.join(dir, 'h1'), 'h1'));
    const connection = { host: '127.0.0.1', port: redis.port };
    const queue = new Queue(GAMES_QUEUE, { connection });
    try {
      for (const [name, data] of [
        ['not a job', { version: 99, run: 'rm -rf /' }],
        ['a clock past the timer ceiling', { ...validJob(), game_ms: 1e13 }],
      ] as const) {
        const job = await queue.add('game', data, { jobId: `hostile.${name.replaceAll(' ', '-')}` });
        const result = (await resultOfJob(queue, String(job.id), 30_000)) as { termination: string; detail: string; worker_id: string };
        expect(result, name).toMatchObject({ termination: 'harness_error', worker_id: 'h1' });
        expect(result.detail, name).toMatch(/^harness: worker h1 refused a malformed job/);
      }
    } finally {
      await queue.close();
    }
    await processes.splice(0).reduce((p, w) => p.then(() => w.kill('SIGKILL')), Promise.resolve());
    // A "worker" that answers every job with a record of its own making.
    const forger = new Worker(GAMES_QUEUE, async () => ({ worker_id: 'forger', termination: 'completed', placements: [1, 2] }), {
      connection,
    });
    try {
      const data = path.join(dir, 'cforged');
      const run = runQueued([writeSpec('cforged', psiSpec('cforged', ['honest-exact', 'greedy-overclaim'], 1, 1)), '--data-dir', data]);
      expect(await run.exited, run.stderr()).toBe(0);
      const rows = gameRows(data, tournamentIdOf(run));
      expect(rows.map((r) => r.termination)).toEqual(['harness_error', 'harness_error', 'harness_error']);
      for (const row of rows) expect(row.detail).toMatch(/^harness: a worker returned a malformed game record/);
    } finally {
      await forger.close();
    }
  }, 120_000);

  it('forged records from a process with Redis access: none accepted, each game replayed by a real worker, results as a clean run', async () => {
    // The forger: Redis access and nothing else. It answers the first jobs it takes with well-shaped records in which
    // seat 0 wins: unsigned, signed with its own (untrusted) key, and claiming a trusted worker's key and id.
    const connection = { host: '127.0.0.1', port: redis.port };
    const own = generateKeyPairSync('ed25519').privateKey;
    const honestKey = initWorkerKey(path.join(dir, 'f1'));
    fs.appendFileSync(trustedFile(), `${honestKey} f1\n`);
    const taker = new Worker(GAMES_QUEUE, null, { connection, autorun: false });
    const forged: string[] = [];
    const forgery = (jobId: string, n: number): Record<string, unknown> => {
      const record: Record<string, unknown> = {
        ...{ session_id: null, invites: [], termination: 'completed', faulted_seats: [], placements: [1, 2] },
        ...{
          scores: [
            { security: 1, utility: 1 },
            { security: 0, utility: 0 },
          ],
          detail: 'completed',
          agent_ms: 10,
        },
        ...{ started_at: Date.now(), ended_at: Date.now(), transcript: [], usage: null, model_turns: [], isolation: null },
      };
      if (n % 3 === 0) return { ...record, worker_id: 'forger' };
      if (n % 3 === 1) {
        const key = publicKeyText(createPublicKey(own));
        const content = { ...record, worker_id: 'forger', worker_key: key };
        return { ...content, signature: signRecord(own, jobId, 'f'.repeat(64), content) };
      }
      const content = { ...record, worker_id: 'f1', worker_key: honestKey };
      return { ...content, signature: signRecord(own, jobId, 'f'.repeat(64), content) };
    };
    // Four jobs, taken one at a time: with two games queued at once, no game is forged on all three of its attempts.
    const forging = (async () => {
      while (forged.length < 4) {
        const job = await taker.getNextJob('forger', { block: true });
        if (!job?.id) continue;
        await job.moveToCompleted(forgery(job.id, forged.length), 'forger', false);
        forged.push(job.id);
      }
    })();
    const data = path.join(dir, 'cforge');
    const spec = psiSpec('cforge', ['honest-exact', 'greedy-overclaim'], 4, 2);
    const run = runQueued([writeSpec('cforge', spec), '--data-dir', data]);
    try {
      await forging;
    } finally {
      await taker.close();
    }
    // The real worker only now: every job the forger answered is replayed by it.
    track(await startWorker(redis.url, path.join(dir, 'f1'), 'f1'));
    expect(await run.exited, run.stderr()).toBe(0);
    const rows = gameRows(data, tournamentIdOf(run));
    expectExactlyOnce(rows, 4);
    const refused = rows.filter((r) => r.termination === 'harness_error');
    expect(refused).toHaveLength(4);
    expect(refused.map((r) => r.detail)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^harness: refused the game record of job .*: it is unsigned \(worker "forger"\)$/),
        expect.stringMatching(
          /^harness: refused the game record of job .*: worker "forger" signed with a key this coordinator does not trust/,
        ),
        expect.stringMatching(
          /^harness: refused the game record of job .*: its signature does not match the job and the record \(worker "f1"\)/,
        ),
      ]),
    );
    for (const row of refused) expect(row.worker_id).toBeNull();
    expect(run.stderr().match(/refused the game record of job/g)).toHaveLength(4);
    // Every settled game: played by the real worker, its record signed by the trusted key and kept with it.
    const settled = rows.filter((r) => RATED.test(r.termination));
    expect(settled.every((r) => r.worker_id === 'f1')).toBe(true);
    const signatures = signaturesOf(data, tournamentIdOf(run));
    expect(signatures.filter((s) => s.worker_key === honestKey && /^[A-Za-z0-9+/]{86}==$/.test(s.worker_signature ?? ''))).toHaveLength(4);
    // The same definition played locally: the same results, game for game.
    const local = track(
      spawnCli(['run', writeSpec('cforge-local', { ...spec, name: 'cforge-local' }), '--data-dir', path.join(dir, 'lforge'), '--json']),
    );
    expect(await local.exited, local.stderr()).toBe(0);
    const results = (list: GameRow[]) => list.filter((r) => RATED.test(r.termination)).map((r) => [r.game_index, r.placements, r.scores]);
    expect(results(rows)).toEqual(results(gameRows(path.join(dir, 'lforge'), tournamentIdOf(local))));
  }, 180_000);

  it('a job that finishes without an event the coordinator sees is read from Redis, not waited on forever', async () => {
    // A "worker" that takes each job and stores it as failed by hand, the way BullMQ stores it but without the event
    // a finish adds to the stream: what a coordinator whose reader started late (or reconnected) never hears about.
    const connection = { host: '127.0.0.1', port: redis.port };
    const taker = new Worker(GAMES_QUEUE, null, { connection, autorun: false });
    const raw = new Redis(connection);
    const key = (suffix: string) => `bull:${GAMES_QUEUE}:${suffix}`;
    let taking = true;
    const taken: string[] = [];
    const loop = (async () => {
      while (taking) {
        const job = await taker.getNextJob('silent', { block: true });
        if (!job?.id) continue;
        taken.push(job.id);
        await raw
          .multi()
          .lrem(key('active'), 0, job.id)
          .zadd(key('failed'), Date.now(), job.id)
          .hset(key(job.id), 'failedReason', 'finished out of sight', 'finishedOn', String(Date.now()))
          .del(key(`${job.id}:lock`))
          .exec();
      }
    })();
    try {
      const data = path.join(dir, 'csilent');
      const run = runQueued([writeSpec('csilent', psiSpec('csilent', ['honest-exact', 'greedy-overclaim'], 1, 1)), '--data-dir', data]);
      expect(await run.exited, run.stderr()).toBe(0);
      const rows = gameRows(data, tournamentIdOf(run));
      // Each attempt is collected from its stored state and blamed on the harness; the void game is replayed.
      expect(rows.map((r) => [r.attempt, r.termination])).toEqual([
        [1, 'harness_error'],
        [2, 'harness_error'],
        [3, 'harness_error'],
      ]);
      for (const row of rows) expect(row.detail).toBe("harness: the worker's job failed: finished out of sight");
      expect(taken).toHaveLength(3);
    } finally {
      taking = false;
      await taker.close();
      await loop.catch(() => {});
      raw.disconnect();
    }
  }, 120_000);

  it('coordinator kill -9, then --resume: games its workers finished meanwhile are collected, none is played twice', async () => {
    const w = track(await startWorker(redis.url, path.join(dir, 'r1'), 'r1'));
    const data = path.join(dir, 'cresume');
    const run = runQueued([writeSpec('cresume', psiSpec('cresume', ['honest-exact', 'cautious-minimal'], 12, 2)), '--data-dir', data]);
    await run.until((e) => e.event === 'game_ended' && Number(e.games_done) >= 4);
    await run.kill('SIGKILL');
    const id = tournamentIdOf(run);
    // Games settled before the kill (a void attempt, a harness error on a loaded machine, is replayed under the next
    // attempt number: a replay, not a game played twice).
    const settledBefore = new Set(gameRows(data, id).flatMap((r) => (RATED.test(r.termination) ? [r.game_index] : [])));
    const before = settledBefore.size;
    expect(before).toBeLessThan(12);
    // The worker finishes what the dead coordinator had queued; those records wait in Redis.
    await expect.poll(() => w.events.filter((e) => e.event === 'game_ended').length, { timeout: 30_000 }).toBe(startedJobs(w).length);
    const resumed = runQueued(['--resume', id, '--data-dir', data]);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expect(resumed.events[0]).toMatchObject({ event: 'started', tournament_id: id, resumed: true });
    // The resumed run settles every other game once, and none that was settled before the kill.
    const settledAfter = resumed.events.flatMap((e) => (e.event === 'game_ended' && e.replay === false ? [Number(e.game_index)] : []));
    expect(settledAfter).toHaveLength(12 - before);
    expect(new Set(settledAfter).size).toBe(settledAfter.length);
    expect(settledAfter.filter((index) => settledBefore.has(index))).toEqual([]);
    const rows = gameRows(data, id);
    expectExactlyOnce(rows, 12);
    const jobs = startedJobs(w);
    expect(new Set(jobs).size).toBe(jobs.length);
    expect(jobs).toHaveLength(rows.length);
  }, 180_000);

  it('arena serve --queue: a tournament from the admin API plays on the worker; pause, resume and cancel work', async () => {
    const w = track(await startWorker(redis.url, path.join(dir, 's1'), 's1'));
    const data = path.join(dir, 'cserve');
    const serve = track(spawnCli(['serve', '--queue', redis.url, '--trusted-workers', trustedFile(), '--data-dir', data, '--json']));
    const ready = (await serve.until((e) => e.event === 'listening', 30_000)) as { url: string; token: string };
    const api = async (route: string, body?: unknown) => {
      const res = await fetch(`${ready.url}/admin/api/v1${route}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${ready.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.status, route).toBe(200);
      return (await res.json()) as { id: string; status: string; games_done: number; active: boolean };
    };
    const { id } = await api('/tournaments', { spec: psiSpec('served', ['honest-exact', 'greedy-overclaim'], 40, 2) });
    await expect.poll(async () => (await api(`/tournaments/${id}`)).games_done, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    // Pause: the games on the worker finish and are committed, nothing new is queued.
    await api(`/tournaments/${id}/pause`, {});
    await expect.poll(async () => (await api(`/tournaments/${id}`)).active, { timeout: 60_000 }).toBe(false);
    const paused = await api(`/tournaments/${id}`);
    expect(paused.status).toBe('paused');
    // games_done counts settled games; a void attempt (a harness error on a loaded machine) is stored too and replayed.
    const settledAtPause = gameRows(data, id).filter(isSettled);
    expect(settledAtPause).toHaveLength(paused.games_done);
    const startedWhilePaused = startedJobs(w).length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(startedJobs(w)).toHaveLength(startedWhilePaused);
    // Resume, then cancel mid-game: the worker is told to stop the game it holds, which is never stored.
    await api(`/tournaments/${id}/resume`, {});
    await w.until((e) => e.event === 'game_started' && !startedJobs(w).slice(0, startedWhilePaused).includes(String(e.job)));
    await api(`/tournaments/${id}/cancel`, {});
    await expect.poll(async () => (await api(`/tournaments/${id}`)).status, { timeout: 30_000 }).toBe('cancelled');
    await w.until((e) => e.event === 'game_stopped', 30_000);
    const attempts = gameRows(data, id);
    const rows = attempts.filter(isSettled);
    // A void attempt may be left unreplayed by the cancel; no attempt of a game is stored twice.
    expect(new Set(attempts.map((r) => `${r.game_index}/${r.attempt}`)).size).toBe(attempts.length);
    expect(rows.length).toBeLessThan(40);
    expect(rows.every((r) => r.worker_id === 's1')).toBe(true);
    expect(new Set(rows.map((r) => r.game_index)).size).toBe(rows.length);
    // The games API names the worker of each game.
    const listed = (await (
      await fetch(`${ready.url}/admin/api/v1/tournaments/${id}/games`, { headers: { authorization: `Bearer ${ready.token}` } })
    ).json()) as { games: Array<{ workerId: string | null }> };
    // One final attempt per game: the settled one, or a void one the cancel left unreplayed.
    expect(listed.games.length).toBe(new Set(attempts.map((r) => r.game_index)).size);
    expect(listed.games.every((g) => g.workerId === 's1')).toBe(true);
  }, 240_000);

  it('Redis restarting empty mid-run: the coordinator queues its lost jobs again and the run completes, each game once', async () => {
    const roots = ['--agents-root', PSI_AGENTS, '--agents-root', FIXTURES];
    const workers = [
      track(await startWorker(redis.url, path.join(dir, 'x1'), 'x1', roots)),
      track(await startWorker(redis.url, path.join(dir, 'x2'), 'x2', roots)),
    ];
    const data = path.join(dir, 'crestart');
    const spec = psiSpec('crestart', ['honest-exact', 'greedy-overclaim'], 12, 4);
    spec.agents[0] = { manifest: path.join(FIXTURES, 'slow-honest/agent.yaml'), id: 'slow-honest', lifecycle: 'per-game' };
    const run = runQueued([writeSpec('crestart', spec), '--data-dir', data]);
    await run.until((e) => e.event === 'game_ended' && Number(e.games_done) >= 3);
    // Redis goes while a worker holds a game, so at least one job is lost with it. Killed between two games, nothing
    // would be: the next jobs wait in the client's offline queue. Every game lasts over 2 s (slow-honest pauses), far
    // longer than a worker's event line can lag behind its game, so a game seen held here is still in flight.
    await expect.poll(() => workers.some((w) => heldJobs(w).length > 0), { timeout: 30_000, interval: 5 }).toBe(true);
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1000));
    await redis.start();
    expect(await run.exited, run.stderr()).toBe(0);
    // The games in flight went with Redis's memory; the coordinator noticed and queued them again.
    expect(run.stderr()).toMatch(/vanished from the queue \(Redis restarted without its data\?\); queued again/);
    expectExactlyOnce(gameRows(data, tournamentIdOf(run)), 12);
  }, 180_000);

  it('Redis gone for good: the run stops paused with a clear message and resumes once Redis is back', async () => {
    track(await startWorker(redis.url, path.join(dir, 'g1'), 'g1'));
    const data = path.join(dir, 'cgone');
    const run = runQueued([writeSpec('cgone', psiSpec('cgone', ['honest-exact', 'greedy-overclaim'], 8, 2)), '--data-dir', data], {
      ARENA_QUEUE_UNREACHABLE_MS: '3000',
    });
    await run.until((e) => e.event === 'game_ended');
    await redis.kill();
    expect(await run.exited).toBe(1);
    const id = tournamentIdOf(run);
    expect(run.stderr()).toMatch(/unreachable for 3 s; the run stops here and resumes with --resume/);
    expect(run.stderr()).toContain(`continue with: arena run --resume ${id}`);
    expect(run.events.at(-1)).toMatchObject({ event: 'paused', tournament_id: id });
    await redis.start();
    const resumed = runQueued(['--resume', id, '--data-dir', data]);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expectExactlyOnce(gameRows(data, id), 8);
  }, 180_000);
});
