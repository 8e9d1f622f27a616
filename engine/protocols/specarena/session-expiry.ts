// Session expiry (decision 11(c)): an unfinished session idle past `staleAfterMs` is gone — every lookup deletes it
// with both its channels, and a sweep removes the rest. 0 disables expiry.

import type { SessionStatus } from '../../contract/specarena.js';
import type { Clock } from '../../core/clock.js';
import { operatorChannel } from '../../core/redaction.js';
import type { SessionSeats, Store, StoredSession } from '../../db/store.js';

export function createSessionExpiry(store: Store, clock: Clock, staleAfterMs: number) {
  function isStale(session: Pick<StoredSession, 'status' | 'lastActivityAt'>, now: number): boolean {
    return staleAfterMs > 0 && session.status !== 'ended' && now - session.lastActivityAt > staleAfterMs;
  }

  function deleteSession(id: string): void {
    store.sessions.delete(id);
    store.chat.deleteChannel(id);
    store.chat.deleteChannel(operatorChannel(id));
  }

  return {
    deleteSession,

    /** Every lookup treats a stale session as gone and deletes it with both channels. Call inside a transaction. */
    fresh(session: StoredSession | undefined): StoredSession | undefined {
      if (session && isStale(session, clock.now())) {
        deleteSession(session.id);
        return undefined;
      }
      return session;
    },

    /** `fresh` for a session's seats (see sessions.seats): a stale session is deleted and reads as gone. */
    liveSeats(ref: { id: string } | { invite: string }): SessionSeats | undefined {
      const seats = store.sessions.seats(ref);
      if (seats && isStale(seats, clock.now())) {
        deleteSession(seats.id);
        return undefined;
      }
      return seats;
    },

    /** `fresh` for a caller that needs only the status: a stale session is deleted and reads as gone. */
    liveStatus(id: string): SessionStatus | undefined {
      const activity = store.sessions.activity(id);
      if (!activity) return undefined;
      if (isStale(activity, clock.now())) {
        deleteSession(id);
        return undefined;
      }
      return activity.status;
    },

    /** Deletes every stale session in one transaction; returns how many went. */
    sweepStale(): number {
      if (staleAfterMs <= 0) return 0;
      return store.transaction(() => {
        const ids = store.sessions.staleIds(clock.now() - staleAfterMs);
        for (const id of ids) deleteSession(id);
        return ids.length;
      });
    },
  };
}
