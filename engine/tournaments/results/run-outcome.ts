// How a run ends: the status the tournament's row keeps, and the event the live view gets for it.

import type { TournamentEvent } from '../../contract/tournament.js';
import type { Store } from '../../db/store.js';

export type RunOutcome =
  | { status: 'finished'; stopReason: string }
  | { status: 'paused'; reason?: string }
  | { status: 'cancelled' }
  | { status: 'halted' }
  | { status: 'failed'; error: string };

/** Stores the run's final status; returns the event announcing it (a finished run's last game_ended says it all). */
export function recordOutcome(store: Store, id: string, outcome: RunOutcome, gamesDone: number, now: number): TournamentEvent | null {
  switch (outcome.status) {
    case 'finished':
      store.tournaments.setStatus(id, 'finished', now, outcome.stopReason);
      return null;
    case 'paused':
    case 'halted': {
      // A halted run (app shutdown) is left paused, so the next start lists it for the user to resume.
      const reason = outcome.status === 'paused' ? (outcome.reason ?? null) : null;
      store.tournaments.setStatus(id, 'paused', now, reason);
      return { event: 'paused', tournament_id: id, games_done: gamesDone, ...(reason ? { reason } : {}), at: now };
    }
    case 'cancelled':
      store.tournaments.setStatus(id, 'cancelled', now, 'cancelled');
      return { event: 'cancelled', tournament_id: id, games_done: gamesDone, at: now };
    case 'failed':
      store.tournaments.setStatus(id, 'failed', now, outcome.error);
      return { event: 'failed', tournament_id: id, error: outcome.error, at: now };
  }
}
