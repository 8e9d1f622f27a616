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

  /** The one staleness rule of every lookup: a stale row is deleted with both channels and reads as gone. */
  function alive<T extends Pick<StoredSession, 'status' | 'lastActivityAt'> & { id?: string }>(
    row: T | undefined,
    id = row?.id,
  ): T | undefined {
    if (row && id !== undefined && isStale(row, clock.now())) {
      deleteSession(id);
      return undefined;
    }
    return row;
  }

  return {
    deleteSession,

    /** Every lookup treats a stale session as gone and deletes it with both channels. Call inside a transaction. */
    fresh: (session: StoredSession | undefined): StoredSession | undefined => alive(session),

    /** `fresh` for a session's seats (see sessions.seats). */
    liveSeats: (ref: { id: string } | { invite: string }): SessionSeats | undefined => alive(store.sessions.seats(ref)),

    /** `fresh` for a caller that needs only who has joined. */
    livePlayers: (id: string): string[] | undefined => alive(store.sessions.players(id), id)?.players,

    /** `fresh` for a caller that needs only the status. */
    liveStatus: (id: string): SessionStatus | undefined => alive(store.sessions.activity(id), id)?.status,

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
