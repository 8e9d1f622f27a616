// `arena worker`: takes game jobs from the queue and plays each the way the local executor does, in an engine of its
// own (its own SQLite hosts the session) with its agents under the OS sandbox of this machine, then returns the full
// game record. Before playing it checks the app version, the challenge's module hash and every agent's manifest and
// entry-file hashes against the job; a mismatch is returned as a harness error naming what differs, and no agent
// starts. A worker killed mid-game leaves its job's lock to expire; BullMQ's stalled-job check hands the job to
// another worker, which replays it on the same seed.
import path from 'node:path';
import { type Job, Worker } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { startEngine } from '../app.js';
import { type GameJob, GameJobSchema, type GameResult } from '../contract/game-job.js';
import { systemClock } from '../core/clock.js';
import { grantedSecrets } from '../runner/agent-env.js';
import { sandboxPolicy } from '../runner/sandbox-policy.js';
import { registerSecrets, secretScrubber } from '../runtime/known-secrets.js';
import { APP_VERSION } from '../runtime/version.js';
import { blameByCause } from '../tournaments/launch/void-cause.js';
import type { GameContext, GameOutcome, GameRunner } from '../tournaments/run/game-runner.js';
import { folderSha256 } from '../tournaments/run/run-manifest.js';
import type { TournamentAgent } from '../tournaments/spec-file.js';
import type { WarmPool } from '../tournaments/warm/warm-pool.js';
import { JobAgents } from './job-agents.js';
import { GAMES_QUEUE, probeQueue, type QueueTarget, STOP_CHANNEL } from './queue-connection.js';
import { CONNECT_TIMEOUT_MS, QueueUnavailableError, withTimeout } from './queue-runner.js';
import { signRecord, type WorkerKey } from './worker-keys.js';
import { WorkerWarmPools } from './worker-warm-pools.js';

export interface GameWorkerOptions {
  target: QueueTarget;
  workerId: string;
  /** Games played at once. */
  concurrency: number;
  dataDir: string;
  /** Folders searched for the jobs' agents (by manifest id, verified by hash). */
  agentRoots: readonly string[];
  /** Agent folders that run without the OS sandbox. */
  trustedAgentDirs?: readonly string[];
  /** A game's lock lasts this long without renewal; a dead worker's game goes to another after about this long. */
  stallMs: number;
  /** Signs every record this worker returns (arena worker init). */
  key: WorkerKey;
  log(event: Record<string, unknown>): void;
}

export interface RunningWorker {
  id: string;
  /** Stops taking jobs, finishes the games in flight, and closes the engine. */
  close(): Promise<void>;
}

/** How often a job may stall (its worker died) before it fails; the coordinator then replays it as a new attempt. */
const MAX_STALLS = 3;

type WorkerEngine = Awaited<ReturnType<typeof startEngine>>;

/** What the games of one worker share: its options, engine, agents, sandbox and warm pools. */
interface WorkerGames {
  options: GameWorkerOptions;
  engine: WorkerEngine;
  agents: JobAgents;
  sandbox: ReturnType<typeof sandboxPolicy>;
  challengeHash: (id: string) => string | null;
  /** Agent teardowns still running after their games returned; awaited on close. */
  teardowns: Set<Promise<void>>;
  warm: WorkerWarmPools;
}

/** The module hash of an installed challenge (null: not installed), computed once per challenge. */
function challengeHasher(engine: WorkerEngine): (id: string) => string | null {
  const challengeHashes = new Map<string, string>();
  return (id) => {
    const dir = engine.playables.get(id)?.dir;
    if (!dir) return null;
    let hash = challengeHashes.get(id);
    if (hash === undefined) {
      hash = folderSha256(dir, (rel) => rel === 'agents' || rel.startsWith('agents/'));
      challengeHashes.set(id, hash);
    }
    return hash;
  };
}

/** Plays a job after checking it matches this machine (version, challenge hash, options, agents), or refuses it. */
async function playJob(games: WorkerGames, job: GameJob, signal: AbortSignal): Promise<GameResult> {
  const { options, engine, warm } = games;
  const startedAt = systemClock.now();
  const refuse = (why: string): GameResult => refusal(options.workerId, startedAt, `harness: worker ${options.workerId} refused: ${why}`);
  if (job.app_version !== APP_VERSION) return refuse(`the coordinator runs Local Arena ${job.app_version}, this worker ${APP_VERSION}`);
  const runner = engine.localRunners[job.protocol];
  const hash = games.challengeHash(job.game.challenge);
  if (!runner || hash === null) return refuse(`challenge ${job.game.challenge} is not installed here`);
  if (hash !== job.challenge_sha256)
    return refuse(`challenge ${job.game.challenge} differs from the run manifest (module sha256 ${hash.slice(0, 12)})`);
  const optionsProblem = engine.playables.get(job.game.challenge)?.optionsProblem(job.options);
  if (optionsProblem) return refuse(`options for ${job.game.challenge}: ${optionsProblem}`);
  const resolved = games.agents.resolve(job);
  if ('problem' in resolved) return refuse(resolved.problem);
  // Granted secrets come from this machine's environment; they join the scrubber before any agent starts.
  for (const agent of resolved.agents) registerSecrets(grantedSecrets(agent.manifest, process.env));
  const pool = warm.acquire(job, resolved.agents);
  try {
    return await playWith(games, runner, job, resolved.agents, pool, signal);
  } finally {
    if (pool) warm.release(job);
  }
}

async function playWith(
  games: WorkerGames,
  runner: GameRunner,
  job: GameJob,
  agents: TournamentAgent[],
  pool: WarmPool | null,
  signal: AbortSignal,
): Promise<GameResult> {
  const { options, teardowns } = games;
  const context: GameContext = {
    clock: systemClock,
    workspaceRoot: path.join(options.dataDir, 'worker', 'work', job.tournament_id),
    agents,
    options: job.options,
    moveMs: job.move_ms,
    gameMs: job.game_ms,
    startMs: job.start_ms,
    maxIllegalActions: job.max_illegal_actions,
    onSession: () => {},
    sandbox: games.sandbox,
    ...(pool ? { warm: pool } : {}),
  };
  const outcome = await runner.play(context, job.game, signal);
  if (outcome.teardown) {
    const t = outcome.teardown.catch(() => {});
    teardowns.add(t);
    void t.then(() => teardowns.delete(t));
  }
  const [accounting, isolation] = await Promise.all([
    outcome.accounting?.catch(() => null) ?? null,
    outcome.isolation?.catch(() => null) ?? null,
  ]);
  // Blamed here, where the seats' stderr is: a model server the agent could not reach voids the game with its cause.
  const seatIds = job.game.seats.map((index) => context.agents[index]?.id ?? `agent ${index}`);
  const result = resultOf(options.workerId, blameByCause(outcome, accounting, seatIds), accounting, isolation);
  return secretScrubber().deep(pool ? { ...result, lifecycles: pool.stats() } : result);
}

/** One queue job: parsed (a malformed one is refused), played, logged, and its record signed with the worker's key. */
async function processJob(games: WorkerGames, job: Job<unknown, GameResult>, signal: AbortSignal | undefined): Promise<GameResult> {
  const { options } = games;
  const signed = (result: GameResult): GameResult => {
    const record = { ...result, worker_key: options.key.publicKey };
    return { ...record, signature: signRecord(options.key.privateKey, String(job.id), job.data, record) };
  };
  const parsed = GameJobSchema.safeParse(job.data);
  if (!parsed.success)
    return signed(
      refusal(
        options.workerId,
        systemClock.now(),
        `harness: worker ${options.workerId} refused a malformed job (${parsed.error.issues[0]?.message})`,
      ),
    );
  const data = parsed.data;
  options.log({
    event: 'game_started',
    job: job.id,
    tournament_id: data.tournament_id,
    game_index: data.game.gameIndex,
    attempt: data.attempt,
  });
  const result = await playJob(games, data, signal ?? new AbortController().signal);
  options.log({ event: 'game_ended', job: job.id, termination: result.termination });
  return signed(result);
}

/** The BullMQ worker (not yet running) that plays the queue's jobs, logging each distinct queue error once. */
function queueWorker(games: WorkerGames): Worker<unknown, GameResult> {
  const { options } = games;
  const worker = new Worker<unknown, GameResult>(GAMES_QUEUE, (job, _token, signal) => processJob(games, job, signal), {
    connection: options.target.connection,
    concurrency: options.concurrency,
    name: options.workerId,
    lockDuration: options.stallMs,
    stalledInterval: Math.max(500, Math.floor(options.stallMs / 2)),
    maxStalledCount: MAX_STALLS,
    // Records are kept (for a resumed coordinator) by the job's own options.
    autorun: false,
  });
  // While Redis is away every reconnect attempt fails alike: say it once, and again when the reason changes.
  let lastError = '';
  worker.on('error', (error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    options.log({ event: 'queue_error', message: error.message });
  });
  worker.on('ready', () => {
    lastError = '';
  });
  return worker;
}

/** The connection on which the coordinator's stop (cancel, shutdown) reaches whichever worker holds the job. */
function stopListener(options: GameWorkerOptions, worker: Worker<unknown, GameResult>): Redis {
  const stops = new Redis({ ...options.target.connection, connectionName: 'arena-worker' } as RedisOptions);
  stops.on('error', () => {});
  stops.on('message', (_channel: string, jobId: string) => {
    if (worker.cancelJob(jobId, 'stopped by the coordinator')) options.log({ event: 'game_stopped', job: jobId });
  });
  return stops;
}

export async function startGameWorker(options: GameWorkerOptions): Promise<RunningWorker> {
  try {
    await probeQueue(options.target, CONNECT_TIMEOUT_MS);
  } catch (error) {
    throw new QueueUnavailableError(`cannot reach the queue at ${options.target.display}: ${(error as Error).message}`);
  }
  const engine = await startEngine({
    dataDir: options.dataDir,
    port: 0,
    logLevel: 'silent',
    rendererDir: null,
    resumeTournaments: false,
  });
  const sandbox = sandboxPolicy(options.dataDir, options.trustedAgentDirs ?? []);
  const games: WorkerGames = {
    options,
    engine,
    agents: new JobAgents(options.agentRoots),
    sandbox,
    challengeHash: challengeHasher(engine),
    teardowns: new Set<Promise<void>>(),
    warm: new WorkerWarmPools(engine.warmHooks, sandbox, path.join(options.dataDir, 'worker', 'work')),
  };
  const worker = queueWorker(games);
  const stops = stopListener(options, worker);
  try {
    await withTimeout(Promise.all([worker.waitUntilReady(), stops.subscribe(STOP_CHANNEL)]), CONNECT_TIMEOUT_MS);
  } catch (error) {
    stops.disconnect();
    await withTimeout(worker.disconnect(), CONNECT_TIMEOUT_MS).catch(() => {});
    await engine.close();
    throw new QueueUnavailableError(`cannot reach the queue at ${options.target.display}: ${(error as Error).message}`);
  }
  void worker.run().catch((error: unknown) => options.log({ event: 'queue_error', message: (error as Error).message }));

  let closing: Promise<void> | undefined;
  return {
    id: options.workerId,
    close() {
      closing ??= (async () => {
        await worker.close();
        await Promise.allSettled([stops.quit(), ...games.teardowns, games.warm.close()]);
        await engine.close();
      })();
      return closing;
    },
  };
}

function resultOf(
  workerId: string,
  outcome: GameOutcome,
  accounting: Awaited<NonNullable<GameOutcome['accounting']>> | null,
  isolation: Awaited<NonNullable<GameOutcome['isolation']>> | null,
): GameResult {
  return {
    worker_id: workerId,
    session_id: outcome.sessionId,
    invites: outcome.invites,
    termination: outcome.termination,
    faulted_seats: outcome.faultedSeats,
    placements: outcome.placements,
    scores: outcome.scores,
    detail: outcome.detail,
    agent_ms: outcome.agentMs,
    started_at: outcome.startedAt,
    ended_at: outcome.endedAt,
    transcript: outcome.transcript,
    usage: (accounting?.usage ?? null) as GameResult['usage'],
    model_turns: accounting?.turns ?? [],
    ...(accounting?.calls ? { model_calls: accounting.calls } : {}),
    isolation,
    ...(outcome.voidCause ? { void_cause: outcome.voidCause } : {}),
  };
}

function refusal(workerId: string, startedAt: number, detail: string): GameResult {
  return {
    worker_id: workerId,
    session_id: null,
    invites: [],
    termination: 'harness_error',
    faulted_seats: [],
    placements: null,
    scores: null,
    detail,
    agent_ms: 0,
    started_at: startedAt,
    ended_at: systemClock.now(),
    transcript: [],
    usage: null,
    model_turns: [],
    isolation: null,
  };
}
