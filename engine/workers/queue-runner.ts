// The coordinator's side of game workers: a GameRunner per protocol that turns each game attempt into a BullMQ job
// (deterministic id: tournament, game index, attempt) and waits for the game record a worker returns. The executor
// is unchanged: it keeps `concurrency` games in flight (so the queue holds a bounded window of the lazy schedule,
// never the whole plan), commits each returned record once, and replays void attempts under the next attempt number.
// A resumed coordinator re-adds the attempts it had in flight under the same ids, which finds the jobs (and the
// results of games finished while it was down) instead of playing them again.
import { type Job, Queue, QueueEvents } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { GAME_JOB_VERSION, type GameJob, type GameResult, GameResultSchema, gameJobId } from '../contract/game-job.js';
import type { PlayProtocol } from '../core/playables.js';
import { type Termination, TerminationSchema } from '../core/ratings/index.js';
import type { ScheduledGame } from '../core/tournament/index.js';
import { canonicalJson } from '../runtime/canonical-json.js';
import type { GameContext, GameOutcome, GameRunner, GameRunners } from '../tournaments/run/game-runner.js';
import type { RunManifest } from '../tournaments/run/run-manifest.js';
import { GAMES_QUEUE, probeQueue, type QueueTarget, STOP_CHANNEL } from './queue-connection.js';
import { type StoredFinish, storedJob } from './stored-finish.js';
import { attestationSignatureValid, type RecordAttestation, recordAttestation, type TrustedWorker } from './worker-keys.js';

/** Finished jobs stay this long in Redis, so a coordinator resumed after a crash still finds their records. */
const KEEP_FINISHED = { age: 24 * 3600, count: 10_000 };
export const CONNECT_TIMEOUT_MS = 10_000;
const CLOSE_GRACE_MS = 2_000;

export interface QueueDispatchOptions {
  target: QueueTarget;
  /** The workers whose signed records are accepted; a record signed by anyone else is refused (harness error). */
  trusted: readonly TrustedWorker[];
  /** Redis unreachable this long stops the runs (resumable); default 60 s. */
  unreachableMs?: number;
  /**
   * How often each job in flight is looked at in Redis: still there (a Redis that restarted empty lost it), or
   * finished without an event this coordinator saw; default 5 s.
   */
  watchMs?: number;
  /** Called once when Redis stayed unreachable too long: the caller halts its runs (they resume later). */
  onLost?: (message: string) => void;
  /** Told about re-added jobs and reconnects. */
  log?: (message: string) => void;
}

export interface QueueDispatch {
  /** The runner of each protocol: every game goes to a worker. */
  runners: GameRunners;
  close(): Promise<void>;
}

export class QueueUnavailableError extends Error {
  override name = 'QueueUnavailableError';
}

/** The queue and its event stream, both ready, or QueueUnavailableError after the connect timeout. */
async function openQueue(target: QueueTarget): Promise<{ queue: GamesQueue; events: QueueEvents }> {
  try {
    await probeQueue(target, CONNECT_TIMEOUT_MS);
  } catch (error) {
    throw new QueueUnavailableError(`cannot reach the queue at ${target.display}: ${(error as Error).message}`);
  }
  const queue = new Queue<GameJob, GameResult>(GAMES_QUEUE, { connection: target.connection });
  const events = new QueueEvents(GAMES_QUEUE, { connection: target.connection });
  // Errors while Redis is away are expected (the clients reconnect); they must not crash the coordinator.
  queue.on('error', () => {});
  events.on('error', () => {});
  try {
    await withTimeout(Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), CONNECT_TIMEOUT_MS);
  } catch (error) {
    await withTimeout(Promise.allSettled([queue.disconnect(), events.disconnect()]), CLOSE_GRACE_MS).catch(() => {});
    throw new QueueUnavailableError(`cannot reach the queue at ${target.display}: ${(error as Error).message}`);
  }
  return { queue, events };
}

/** Watches the control connection: Redis away longer than `unreachableMs` calls onLost once. Returns the timer. */
function watchReachability(control: Redis, options: QueueDispatchOptions): NodeJS.Timeout {
  const { target } = options;
  const unreachableMs = options.unreachableMs ?? 60_000;
  let downSince: number | null = null;
  let lost = false;
  control.on('close', () => {
    downSince ??= Date.now();
  });
  control.on('ready', () => {
    if (downSince !== null) options.log?.(`queue ${target.display} reachable again`);
    downSince = null;
  });
  const health = setInterval(() => {
    if (lost || downSince === null || Date.now() - downSince < unreachableMs) return;
    lost = true;
    options.onLost?.(
      `the queue at ${target.display} has been unreachable for ${Math.round(unreachableMs / 1000)} s; the run stops here and resumes with --resume`,
    );
  }, 1000);
  health.unref();
  return health;
}

type GamesQueue = Queue<GameJob, GameResult>;

/** What playing a game through the queue needs: the clients and the dispatch options. */
interface QueueClients {
  queue: GamesQueue;
  events: QueueEvents;
  control: Redis;
  options: QueueDispatchOptions;
}

function addJob(queue: GamesQueue, id: string, data: GameJob): Promise<Job<GameJob, GameResult>> {
  return queue.add('game', data, { jobId: id, attempts: 1, removeOnComplete: KEEP_FINISHED, removeOnFail: KEEP_FINISHED });
}

/**
 * Looks at the job every `watchMs` until `signal` aborts or it is cleared: a Redis that restarted without its data
 * lost the job, so it is added again (same id, same seed), once per loss; a job that finished without an event this
 * coordinator saw is read from Redis and handed to `onStored`. Returns the clear function.
 */
function watchJob(
  { queue, options }: QueueClients,
  id: string,
  data: GameJob,
  signal: AbortSignal,
  onStored: (finish: StoredFinish) => void,
): () => void {
  let watch: NodeJS.Timeout | undefined;
  const watching = (): void => {
    watch = setTimeout(async () => {
      try {
        const { state, finish } = await storedJob(queue, id);
        if (finish) return onStored(finish);
        if (state === 'unknown') {
          options.log?.(`job ${id} vanished from the queue (Redis restarted without its data?); queued again`);
          await addJob(queue, id, data);
        }
      } catch {
        // Unreachable: the health check decides when to give up.
      }
      if (!signal.aborted) watching();
    }, options.watchMs ?? 5_000);
  };
  watching();
  return () => clearTimeout(watch);
}

/** The outcome of the record a worker returned, or the harness fault when it is malformed or not trusted. */
function acceptRecord(
  options: QueueDispatchOptions,
  id: string,
  queuedJob: unknown,
  value: unknown,
  fail: (detail: string) => GameOutcome,
): GameOutcome {
  const parsed = GameResultSchema.safeParse(value);
  const termination = TerminationSchema.safeParse(parsed.data?.termination);
  if (!parsed.success || !termination.success)
    return fail(`harness: a worker returned a malformed game record (${parsed.error?.issues[0]?.message ?? 'termination'})`);
  const attestation = recordAttestation(id, queuedJob, parsed.data);
  const refused = attestationProblem(options.trusted, parsed.data, attestation);
  if (refused !== null) {
    options.log?.(`refused the game record of job ${id}: ${refused}; the game is replayed`);
    return fail(`harness: refused the game record of job ${id}: ${refused}`);
  }
  return outcomeOf(parsed.data, termination.data, attestation);
}

/** Plays one game attempt through the queue: adds its job, then waits for its record, a stored finish or a stop. */
async function playQueued(
  clients: QueueClients,
  protocol: PlayProtocol,
  context: GameContext,
  game: ScheduledGame,
  signal: AbortSignal,
): Promise<GameOutcome> {
  const { queue, events, control } = clients;
  const startedAt = context.clock.now();
  const fail = (detail: string): GameOutcome => harnessOutcome(startedAt, context.clock.now(), detail);
  if (!context.run) return fail('harness: a queued game needs its run (tournament, attempt, manifest)');
  const id = gameJobId(context.run.tournamentId, game.gameIndex, context.run.attempt);
  const data = jobOf(protocol, context, game);
  if (typeof data === 'string') return fail(`harness: ${data}`);
  // What the worker sees after Redis's JSON round trip (fields left undefined are dropped).
  const queuedJob: unknown = JSON.parse(JSON.stringify(data));
  if (signal.aborted) return interruptedOutcome(startedAt, context.clock.now());
  let onAbort: (() => void) | undefined;
  // The operator's stop wins over everything the queue may keep waiting for (a Redis that went away included).
  const stopped = new Promise<'stopped'>((resolve) => {
    onAbort = () => resolve('stopped');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const stop = (): GameOutcome => {
    // Whoever holds the job stops its game; a job still waiting is dropped (a locked one refuses: fine).
    void control.publish(STOP_CHANNEL, id).catch(() => {});
    void queue.remove(id).catch(() => {});
    return interruptedOutcome(startedAt, context.clock.now());
  };
  const queued = await Promise.race([
    addJob(queue, id, data).then(
      (job) => ({ job }),
      (error: unknown) => ({ error: (error as Error).message }),
    ),
    stopped,
  ]);
  if (queued === 'stopped') {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    return stop();
  }
  if ('error' in queued) {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    return fail(`harness: could not queue game ${game.gameIndex}: ${queued.error}`);
  }
  let onStored: ((finish: StoredFinish) => void) | undefined;
  const stored = new Promise<StoredFinish>((resolve) => {
    onStored = resolve;
  });
  const stopWatching = watchJob(clients, id, data, signal, (finish) => onStored?.(finish));
  try {
    const finished = queued.job.waitUntilFinished(events).then(
      (value) => ({ value }),
      (error: unknown) => ({ error: (error as Error).message }),
    );
    const first = await Promise.race([finished, stored, stopped]);
    if (first === 'stopped') return stop();
    if ('error' in first) return fail(`harness: the worker's job failed: ${first.error}`);
    return acceptRecord(clients.options, id, queuedJob, first.value, fail);
  } finally {
    stopWatching();
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Connects to the queue (failing after 10 s with a clear message) and returns its runners. */
export async function connectQueue(options: QueueDispatchOptions): Promise<QueueDispatch> {
  const { target } = options;
  const { queue, events } = await openQueue(target);
  // Its own connection: publishes stops, and tells when Redis goes away and comes back.
  const control = new Redis({ ...target.connection, connectionName: 'arena-coordinator' } as RedisOptions);
  control.on('error', () => {});
  const health = watchReachability(control, options);
  const clients: QueueClients = { queue, events, control, options };
  const runner = (protocol: PlayProtocol): GameRunner => ({
    play: (context, game, signal) => playQueued(clients, protocol, context, game, signal),
  });
  return {
    runners: { specarena: runner('specarena'), clawarena: runner('clawarena') },
    async close() {
      clearInterval(health);
      // A Redis that is gone never answers QUIT: give it a moment, then drop the connections.
      await withTimeout(Promise.allSettled([events.close(), queue.close(), control.quit()]), CLOSE_GRACE_MS).catch(() => {});
      control.disconnect();
      // BullMQ's disconnect waits for an 'end' that a connection stuck reconnecting may never emit.
      await withTimeout(Promise.allSettled([queue.disconnect(), events.disconnect()]), CLOSE_GRACE_MS).catch(() => {});
    },
  };
}

/** Why a returned record is not accepted (null: signed, for this job, by a trusted worker under its registered name). */
export function signatureProblem(trusted: readonly TrustedWorker[], jobId: string, job: unknown, record: GameResult): string | null {
  return attestationProblem(trusted, record, recordAttestation(jobId, job, record));
}

function attestationProblem(trusted: readonly TrustedWorker[], record: GameResult, attestation: RecordAttestation): string | null {
  if (!record.worker_key || !record.signature) return `it is unsigned (worker ${JSON.stringify(record.worker_id)})`;
  const candidates = trusted.filter((t) => t.publicKey === record.worker_key);
  if (candidates.length === 0)
    return `worker ${JSON.stringify(record.worker_id)} signed with a key this coordinator does not trust (${record.worker_key.slice(0, 20)}…)`;
  const named = candidates.find((t) => t.name === null || t.name === record.worker_id);
  if (!named) return `the key is trusted as worker ${candidates.map((t) => t.name).join(', ')}, not ${JSON.stringify(record.worker_id)}`;
  if (!attestationSignatureValid(named.key, attestation, record.signature))
    return `its signature does not match the job and the record (worker ${JSON.stringify(record.worker_id)}): altered, or signed for another job`;
  return null;
}

/** The job of one attempt from the run manifest: agents by manifest id and hashes, the challenge's module hash. */
function jobOf(protocol: PlayProtocol, context: GameContext, game: ScheduledGame): GameJob | string {
  const run = context.run as NonNullable<GameContext['run']>;
  const manifest = run.manifest as unknown as RunManifest;
  const challenge = manifest.challenges?.find((c) => c.id === game.challenge);
  if (!challenge) return `the run manifest has no challenge ${game.challenge}`;
  if (!Array.isArray(manifest.agents) || manifest.agents.length !== context.agents.length)
    return 'the run manifest does not list the agents of the run';
  return {
    version: GAME_JOB_VERSION,
    tournament_id: run.tournamentId,
    attempt: run.attempt,
    manifest_hash: run.manifestHash,
    app_version: manifest.app.version,
    protocol,
    game: { ...game },
    agents: manifest.agents.map((a, i) => ({
      id: a.id,
      lifecycle: context.agents[i]?.manifest.lifecycle === 'persistent' ? ('persistent' as const) : ('per-game' as const),
      manifest_id: a.manifest_id,
      manifest_sha256: a.manifest_sha256,
      entry_file: a.entry_file,
      entry_sha256: a.entry_sha256,
    })),
    challenge_sha256: challenge.module_sha256,
    options: context.options,
    move_ms: context.moveMs,
    game_ms: context.gameMs,
    start_ms: context.startMs,
    max_illegal_actions: context.maxIllegalActions,
    ...(run.maxRestarts !== undefined ? { max_restarts: run.maxRestarts } : {}),
  };
}

function outcomeOf(result: GameResult, termination: Termination, attestation: RecordAttestation): GameOutcome {
  return {
    sessionId: result.session_id,
    invites: result.invites,
    termination,
    faultedSeats: result.faulted_seats,
    placements: result.placements,
    scores: result.scores,
    detail: result.detail,
    agentMs: result.agent_ms,
    startedAt: result.started_at,
    endedAt: result.ended_at,
    transcript: result.transcript,
    accounting: Promise.resolve({
      usage: result.usage as never,
      turns: result.model_turns,
      ...(result.model_calls ? { calls: result.model_calls } : {}),
    }),
    ...(result.isolation ? { isolation: Promise.resolve(result.isolation) } : {}),
    workerId: result.worker_id,
    ...(result.void_cause ? { voidCause: result.void_cause } : {}),
    ...(result.lifecycles ? { lifecycles: result.lifecycles } : {}),
    ...(result.worker_key && result.signature
      ? { workerSignature: { key: result.worker_key, signature: result.signature, attestation: canonicalJson(attestation) } }
      : {}),
  };
}

function harnessOutcome(startedAt: number, endedAt: number, detail: string): GameOutcome {
  return bareOutcome('harness_error', startedAt, endedAt, detail);
}

function interruptedOutcome(startedAt: number, endedAt: number): GameOutcome {
  return bareOutcome('interrupted', startedAt, endedAt, 'stopped by the operator');
}

function bareOutcome(termination: GameOutcome['termination'], startedAt: number, endedAt: number, detail: string): GameOutcome {
  return {
    sessionId: null,
    invites: [],
    termination,
    faultedSeats: [],
    placements: null,
    scores: null,
    detail,
    agentMs: 0,
    startedAt,
    endedAt,
    transcript: [],
  };
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
