// Deadlines on the injected clock: a due decision window gets its default move, a scheduled match whose seats did not
// all connect starts anyway. Real timers wake the service at the next deadline; tests with a manual clock call tick().
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawMatch } from '../../db/store.js';
import type { MatchRuntime } from './match-runtime.js';
import type { MatchSignals } from './match-signals.js';

export function createDeadlines(deps: { store: Store; clock: Clock; runtime: MatchRuntime; signals: MatchSignals; timers: boolean }) {
  const { store, clock, runtime, signals } = deps;
  const repo = store.clawarena;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  /** Applies due deadlines of one match; returns the reloaded match. */
  function expireMatch(matchId: number): StoredClawMatch | undefined {
    const before = repo.match(matchId);
    if (!before || before.status === 'finished') return before;
    const changed = store.transaction(() => runtime.expire(repo.match(matchId) as StoredClawMatch));
    const after = repo.match(matchId);
    if (changed && after) {
      signals.changed(matchId);
      if (after.status === 'finished') signals.finished(after);
    }
    return after;
  }

  function tick(): void {
    if (closed) return;
    for (const matchId of repo.dueMatchIds(clock.now())) expireMatch(matchId);
    schedule();
  }

  /** (Re)arms the timer for the next deadline. */
  function schedule(): void {
    if (!deps.timers || closed) return;
    if (timer) clearTimeout(timer);
    const next = repo.nextDeadline();
    if (next === null) {
      timer = undefined;
      return;
    }
    // Re-check at least every 30 s, so a clock that jumps is noticed.
    const delay = Math.min(Math.max(0, next - clock.now()) + 5, 30_000);
    timer = setTimeout(tick, delay);
    timer.unref?.();
  }

  return {
    expireMatch,
    tick,
    schedule,
    get closed() {
      return closed;
    },
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}

export type Deadlines = ReturnType<typeof createDeadlines>;
