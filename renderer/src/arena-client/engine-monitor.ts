// Whether the page can reach its engine, and finding it again: the client reports every request that got no answer
// and every answer; once a request got none, the monitor asks the engine (the probe: one admin read) with backoff
// until it answers. A restarted `arena serve` on the same data folder listens on the same port and still accepts this
// browser's session cookie, so the page recovers by itself; each recovery bumps `epoch`, which pages' loads watch to
// fetch their data again. A probe the engine refuses (401: the session ended) stops the retries: only a new link helps.
import { UnauthorizedError } from './errors.js';

export type EngineStatus = 'connected' | 'unreachable' | 'signed-out';

export interface EngineState {
  status: EngineStatus;
  /** Recoveries so far: a change means "load your data again". */
  epoch: number;
}

export interface ReachabilityHooks {
  /** A request got no answer (network error or timeout). */
  unreachable(): void;
  /** The engine answered a request; `ok`: with a 2xx (after a refused session, a new link in another tab may have helped). */
  answered(ok: boolean): void;
}

export interface EngineMonitor {
  hooks: ReachabilityHooks;
  /** The call that checks the engine while it is unreachable; set once the page has its client. */
  setProbe(probe: (() => Promise<unknown>) | null): void;
  state(): EngineState;
  subscribe(listener: () => void): () => void;
  dispose(): void;
}

/** 1 s, 2 s, 4 s, then every 8 s: a restart is usually back within seconds, and a page left open should not hammer. */
export function reconnectDelay(attempt: number): number {
  return Math.min(8000, 1000 * 2 ** Math.max(0, attempt - 1));
}

export function createEngineMonitor(delay: (attempt: number) => number = reconnectDelay): EngineMonitor {
  let current: EngineState = { status: 'connected', epoch: 0 };
  let probe: (() => Promise<unknown>) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let probing = false;
  let disposed = false;
  const listeners = new Set<() => void>();

  const set = (next: EngineState) => {
    if (next.status === current.status && next.epoch === current.epoch) return;
    current = next;
    for (const listener of listeners) listener();
  };

  const schedule = () => {
    if (disposed || timer !== undefined || probing || current.status !== 'unreachable') return;
    attempt += 1;
    timer = setTimeout(runProbe, delay(attempt));
  };

  const runProbe = () => {
    timer = undefined;
    if (!probe || current.status !== 'unreachable') return;
    probing = true;
    probe().then(
      () => {
        probing = false;
        // The answer itself reported `answered` (through the client); this covers a probe that bypasses it.
        recovered(true);
      },
      (error: unknown) => {
        probing = false;
        if (error instanceof UnauthorizedError) set({ ...current, status: 'signed-out' });
        else schedule();
      },
    );
  };

  const recovered = (ok: boolean) => {
    if (current.status === 'connected' || (current.status === 'signed-out' && !ok)) return;
    attempt = 0;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    set({ status: 'connected', epoch: current.epoch + 1 });
  };

  return {
    hooks: {
      unreachable() {
        if (current.status === 'connected') set({ ...current, status: 'unreachable' });
        schedule();
      },
      answered: recovered,
    },
    setProbe(next) {
      probe = next;
      schedule();
    },
    state: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      listeners.clear();
    },
  };
}
