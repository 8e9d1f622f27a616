// Supervises the engine utility process: ready handshake with a timeout, restart with backoff after a crash, messages
// to the engine, and a graceful stop that waits (bounded) for the process to exit.
import { type EngineConnection, EngineReadyMessageSchema, type EngineShutdownMessage } from '../engine/contract/channels.js';

/** Structural subset of Electron's UtilityProcess. */
export interface UtilityProcessLike {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  postMessage(message: unknown): void;
  kill(): boolean;
}

export type ForkFn = (modulePath: string, args: string[], options: { serviceName: string }) => UtilityProcessLike;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export type EngineHostState = 'idle' | 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

export interface EngineHostOptions {
  fork: ForkFn;
  modulePath: string;
  dataDir: string;
  readyTimeoutMs?: number;
  /** Consecutive failed starts before giving up. */
  maxAttempts?: number;
  /** A process that stayed up this long resets the failure count. */
  stableAfterMs?: number;
  /** How long stop() waits for the engine to close its database and exit before killing it. */
  shutdownTimeoutMs?: number;
  timers?: Timers;
  log?: (line: string) => void;
  onStateChange?: (state: EngineHostState) => void;
}

export interface EngineHost {
  start(): void;
  /** The current connection; waits while the engine is starting or restarting. */
  connection(): Promise<EngineConnection>;
  /** http://127.0.0.1:<port> while ready, for the shell's CSP. */
  origin(): string | null;
  state(): EngineHostState;
  /** Posts a message to the running engine; while it is (re)starting, the message waits for its ready handshake. */
  send(message: unknown): void;
  /**
   * Asks the engine to shut down (it pauses running tournaments so they can resume) and resolves once the process has
   * exited, or after shutdownTimeoutMs when it is killed instead. Never restarts it afterwards.
   */
  stop(): Promise<void>;
}

/** 0.5 s, 1 s, 2 s … capped at 30 s: a crash loop must not spin the CPU. */
export function backoffDelay(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

// Kept whole: short named methods sharing the child engine process state, read like a class.
export function createEngineHost(options: EngineHostOptions): EngineHost {
  const timers = options.timers ?? realTimers;
  const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const stableAfterMs = options.stableAfterMs ?? 60_000;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  const log = options.log ?? (() => {});

  let state: EngineHostState = 'idle';
  let child: UtilityProcessLike | null = null;
  let current: EngineConnection | null = null;
  let failures = 0;
  let readyAt = 0;
  let readyTimer: unknown = null;
  let restartTimer: unknown = null;
  let waiters: { resolve: (c: EngineConnection) => void; reject: (e: Error) => void }[] = [];
  let outbox: unknown[] = [];
  let stopping: Promise<void> | null = null;
  let onChildExit: (() => void) | null = null;

  const setState = (next: EngineHostState) => {
    state = next;
    options.onStateChange?.(next);
  };

  const settle = (outcome: { connection: EngineConnection } | { error: Error }) => {
    const pending = waiters;
    waiters = [];
    for (const waiter of pending) {
      if ('connection' in outcome) waiter.resolve(outcome.connection);
      else waiter.reject(outcome.error);
    }
  };

  const clearReadyTimer = () => {
    if (readyTimer !== null) timers.clearTimeout(readyTimer);
    readyTimer = null;
  };

  function spawn(): void {
    setState('starting');
    const proc = options.fork(options.modulePath, ['--data-dir', options.dataDir], { serviceName: 'Local Arena engine' });
    child = proc;
    readyTimer = timers.setTimeout(() => {
      readyTimer = null;
      log(`engine did not report ready within ${readyTimeoutMs} ms; killing it`);
      proc.kill();
    }, readyTimeoutMs);

    proc.on('message', (message) => {
      // After stop() the process is on its way out: a late handshake must not revive it.
      if (child !== proc || state === 'stopped') return;
      const ready = EngineReadyMessageSchema.safeParse(message);
      if (!ready.success) return;
      clearReadyTimer();
      current = { baseUrl: `http://127.0.0.1:${ready.data.port}`, token: ready.data.token };
      readyAt = timers.now();
      setState('ready');
      const queued = outbox;
      outbox = [];
      for (const item of queued) proc.postMessage(item);
      settle({ connection: current });
    });

    proc.on('exit', (code) => {
      if (child !== proc) return;
      clearReadyTimer();
      child = null;
      current = null;
      // A deliberate stop: report the exit, never restart.
      if (state === 'stopped') {
        onChildExit?.();
        return;
      }
      // A long healthy run means this crash is not part of a crash loop.
      if (readyAt > 0 && timers.now() - readyAt >= stableAfterMs) failures = 0;
      readyAt = 0;
      failures++;
      if (failures >= maxAttempts) {
        log(`engine exited with code ${code}; giving up after ${failures} attempts`);
        setState('failed');
        settle({ error: new Error(`The engine failed to start ${failures} times in a row (last exit code ${code}).`) });
        return;
      }
      const delay = backoffDelay(failures);
      log(`engine exited with code ${code}; restarting in ${delay} ms`);
      setState('restarting');
      restartTimer = timers.setTimeout(() => {
        restartTimer = null;
        if (state === 'restarting') spawn();
      }, delay);
    });
  }

  return {
    start() {
      if (state !== 'idle' && state !== 'failed') return;
      failures = 0;
      spawn();
    },
    connection() {
      if (state === 'ready' && current) return Promise.resolve(current);
      if (state === 'stopped') return Promise.reject(new Error('The engine has been stopped.'));
      if (state === 'failed') return Promise.reject(new Error('The engine could not be started.'));
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    origin() {
      return state === 'ready' && current ? current.baseUrl : null;
    },
    state: () => state,
    send(message) {
      if (state === 'stopped') return;
      if (state === 'ready' && child) child.postMessage(message);
      else outbox.push(message);
    },
    stop() {
      if (stopping) return stopping;
      setState('stopped');
      clearReadyTimer();
      if (restartTimer !== null) timers.clearTimeout(restartTimer);
      restartTimer = null;
      outbox = [];
      settle({ error: new Error('The engine has been stopped.') });
      const proc = child;
      stopping = new Promise<void>((resolve) => {
        if (!proc) {
          resolve();
          return;
        }
        const killTimer = timers.setTimeout(() => {
          if (child !== proc) return;
          log(`engine did not exit within ${shutdownTimeoutMs} ms of the shutdown request; killing it`);
          // The kill is final; do not wait on an exit event that a wedged process may never deliver.
          onChildExit = null;
          proc.kill();
          resolve();
        }, shutdownTimeoutMs);
        onChildExit = () => {
          onChildExit = null;
          timers.clearTimeout(killTimer);
          resolve();
        };
        const shutdown: EngineShutdownMessage = { type: 'shutdown' };
        proc.postMessage(shutdown);
      });
      return stopping;
    },
  };
}
