// What the SpecArena engine answers without changing a game: challenge metadata, session lists and stats, and chat
// reads with the redaction rules of spec §5.4.
import type { ChallengeRegistry } from '../../challenges/registry.js';
import type {
  Challenge,
  ChallengeMetadata,
  ChallengeOperatorState,
  ChatMessage,
  SessionStatus,
  UserProfile,
} from '../../contract/specarena.js';
import { isOperatorChannel, redactAll, sessionIdOfChannel } from '../../core/redaction.js';
import { fullSession, publicSession } from '../../core/sanitize.js';
import type { Store, StoredSession } from '../../db/store.js';

export interface ListQuery {
  challengeType?: string;
  status?: SessionStatus;
  /** false: leave out sessions tournaments created for their games. */
  tournamentSessions?: boolean;
  limit: number;
  offset: number;
}

export function createSessionReads(
  store: Store,
  challenges: ChallengeRegistry,
  live: {
    liveSession(ref: { id: string }): StoredSession | undefined;
    liveActivity(id: string): { status: SessionStatus } | undefined;
  },
) {
  /** Others' DMs on an operator channel are revealed once its game has ended (spec §5.4); `ended` when known. */
  function isRevealed(channel: string, ended?: boolean): boolean {
    return isOperatorChannel(channel) && (ended ?? store.sessions.status(sessionIdOfChannel(channel)) === 'ended');
  }

  function profilesOf(list: Challenge[]): Record<string, UserProfile> {
    const ids = list.flatMap((c) => Object.values(c.state.playerIdentities));
    return store.users.getMany(ids);
  }

  return {
    metadata(): Record<string, ChallengeMetadata> {
      const out: Record<string, ChallengeMetadata> = {};
      for (const [id, challenge] of challenges) out[id] = challenge.metadata;
      return out;
    },

    metadataOf(type: string): ChallengeMetadata | undefined {
      return challenges.get(type)?.metadata;
    },

    hasChallenge(type: string): boolean {
      return challenges.has(type);
    },

    /**
     * Chat or operator-channel sync with the redaction rules of spec §5.4. Two reads without a transaction: a game
     * that ends between them has its messages revealed, which is what an answer given after its end must do.
     */
    sync(channel: string, start: number, viewer: string | null): ChatMessage[] {
      if (Number.isNaN(start)) return [];
      const from = Math.max(0, Math.floor(start));
      const messages = store.chat.since(channel, from);
      // Most polls find nothing new: they need no answer to whether the game is over.
      return messages.length === 0 ? messages : redactAll(messages, viewer, isRevealed(channel));
    },

    /** SSE snapshot: messages after `since` (0 = all), redacted; plus the session if it has ended. */
    snapshot(channel: string, since: number, viewer: string | null): { messages: ChatMessage[]; ended: ChallengeOperatorState | null } {
      // Expire first: a stale session's channels are deleted by this lookup and must not be replayed. A stream opened
      // during a game needs only the status (every agent opens two per game); the whole session is read once ended.
      const id = sessionIdOfChannel(channel);
      const ended = live.liveActivity(id)?.status === 'ended';
      const messages = redactAll(store.chat.since(channel, since + 1), viewer, isRevealed(channel, ended));
      return { messages, ended: ended ? (live.liveSession({ id })?.state ?? null) : null };
    },

    list(query: ListQuery): { challenges: Challenge[]; total: number; profiles: Record<string, UserProfile> } {
      const page = store.sessions.list(query);
      const challengesOut = page.items.map((s) => publicSession(s));
      return { challenges: challengesOut, total: page.total, profiles: profilesOf(challengesOut) };
    },

    listForUser(userId: string, limit: number, offset: number) {
      const page = store.sessions.list({ userId, status: 'ended', limit, offset });
      const out = page.items.map((s) => fullSession(s));
      return { challenges: out, total: page.total, profiles: profilesOf(out) };
    },

    /** Unsanitized page for the admin API (the UI shows private data of the user's own arena). */
    adminList(query: ListQuery) {
      return store.sessions.list(query);
    },

    /** Which of these sessions a tournament created for a game, and which tournament. */
    tournamentsOf(ids: readonly string[]): Map<string, string> {
      return store.sessions.tournamentsOf(ids);
    },

    /** A whole channel without redaction, for the admin API and reports. */
    transcript(channel: string): ChatMessage[] {
      return store.chat.since(channel, 0);
    },

    stats() {
      const counts = store.sessions.endedCountsByType();
      const perType: Record<string, { gamesPlayed: number }> = {};
      let gamesPlayed = 0;
      for (const id of challenges.keys()) {
        const n = counts[id] ?? 0;
        perType[id] = { gamesPlayed: n };
        gamesPlayed += n;
      }
      return { challenges: perType, global: { participants: store.scoring.globalParticipants(), gamesPlayed } };
    },

    users: {
      list: () => store.users.list(),
      get: (id: string) => store.users.get(id),
      getMany: (ids: readonly string[]) => store.users.getMany(ids),
      merge: (update: { userId: string; username?: string; model?: string }) => store.transaction(() => store.users.merge(update)),
      /** A profile that played in a seat-key session changes only through that seat's key (`seat`: the caller's invite). */
      writableBy: (userId: string, seat: string | null) =>
        !store.sessions.isSeatKeyPlayer(userId) || (seat !== null && store.sessions.userOfInvite(seat) === userId),
    },
  };
}
