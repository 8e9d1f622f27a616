// Rate limits for live refetches: a burst of feed events becomes at most one call per interval, the first at once
// and the last never lost (leading + trailing edge). Timers are injectable so the behaviour is tested without waiting.

export interface ThrottleTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: ThrottleTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Throttled {
  /** Asks for a run: now if the interval has passed, else once at the end of it (repeated asks merge). */
  (): void;
  cancel(): void;
}

export function throttle(fn: () => void, intervalMs: number, timers: ThrottleTimers = realTimers): Throttled {
  let last = Number.NEGATIVE_INFINITY;
  let pending: unknown = null;
  const run = () => {
    pending = null;
    last = timers.now();
    fn();
  };
  const throttled = (() => {
    if (pending !== null) return;
    const wait = last + intervalMs - timers.now();
    if (wait <= 0) run();
    else pending = timers.setTimeout(run, wait);
  }) as Throttled;
  throttled.cancel = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
  };
  return throttled;
}
