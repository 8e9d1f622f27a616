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

  /**
   * A lookup of one statement needs no transaction of its own (every agent request makes one, and an IMMEDIATE
   * transaction takes the write lock): it is read as it stands, and only a stale row, which is rare, takes the lock
   * to be looked up again and deleted. Inside a caller's transaction it is read and judged there.
   */
  function aliveRead<T extends Pick<StoredSession, 'status' | 'lastActivityAt'> & { id?: string }>(
    lookup: () => T | undefined,
    id?: string,
  ): T | undefined {
    if (store.inTransaction) return alive(lookup(), id);
    const row = lookup();
    if (!row || !isStale(row, clock.now())) return row;
    return store.transaction(() => alive(lookup(), id));
  }

  return {
    deleteSession,

    /** Every lookup treats a stale session as gone and deletes it with both channels. Call inside a transaction. */
    fresh: (session: StoredSession | undefined): StoredSession | undefined => alive(session),

    /** A session by id or by one of its invites, with the staleness rule; no transaction needed. */
    liveSession: (ref: { id: string } | { invite: string }): StoredSession | undefined =>
      aliveRead(() => ('id' in ref ? store.sessions.get(ref.id) : store.sessions.getByInvite(ref.invite))),

    /** `liveSession` for a session's seats (see sessions.seats). */
    liveSeats: (ref: { id: string } | { invite: string }): SessionSeats | undefined => aliveRead(() => store.sessions.seats(ref)),

    /** `liveSession` for a caller that needs only who has joined. */
    livePlayers: (id: string): string[] | undefined => aliveRead(() => store.sessions.players(id), id)?.players,

    /** `liveSession` for a caller that needs only the status. */
    liveActivity: (id: string): Pick<StoredSession, 'status' | 'lastActivityAt'> | undefined =>
      aliveRead(() => store.sessions.activity(id), id),

    /** `fresh` for a caller that needs only the status. Call inside a transaction. */
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
