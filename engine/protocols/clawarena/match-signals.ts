// What a change to a match tells the rest of the engine: parked long-polls of its seats wake up, and a finished match
// is announced to observers (the tournament runner waits for it).
import { createListeners } from '../../core/listeners.js';
import type { Store, StoredClawMatch } from '../../db/store.js';
import type { createWaiters } from './waiters.js';

export interface FinishedMatch {
  matchId: number;
  gameType: string;
  origin: 'lobby' | 'scheduled';
  result: Record<string, unknown> | null;
  summary: Record<string, unknown> | null;
}

export function createMatchSignals(deps: { store: Store; waiters: ReturnType<typeof createWaiters> }) {
  const finished = createListeners<FinishedMatch>();
  return {
    /** Wakes the long-polls of every seat of the match. */
    changed(matchId: number): void {
      deps.waiters.notify(deps.store.clawarena.seats(matchId).map((s) => s.agentId));
    },
    finished(match: StoredClawMatch): void {
      finished.emit({
        matchId: match.matchId,
        gameType: match.gameType,
        origin: match.origin,
        result: match.result,
        summary: match.summary,
      });
    },
    onFinished: (listener: (match: FinishedMatch) => void): (() => void) => finished.add(listener),
  };
}

export type MatchSignals = ReturnType<typeof createMatchSignals>;
