// The SpecArena engine: every action is one SQLite transaction; live events are published only after commit.
import { randomUUID } from 'node:crypto';
import { type ChallengeOperator, type OperatorContext, OperatorError } from '../../../challenges/kit/operator-base.js';
import type { ChallengeRegistry } from '../../challenges/registry.js';
import type {
  Challenge,
  ChallengeMetadata,
  ChallengeOperatorState,
  ChatMessage,
  GameResult,
  SessionStatus,
  UserProfile,
} from '../../contract/specarena.js';
import type { Clock } from '../../core/clock.js';
import { gameCategoryOf } from '../../core/game-category.js';
import { createListeners } from '../../core/listeners.js';
import type { LiveBus } from '../../core/live-bus.js';
import { operatorChannel, redactAll, sessionIdOfChannel } from '../../core/redaction.js';
import { fullSession, publicSession } from '../../core/sanitize.js';
import type { Store, StoredSession } from '../../db/store.js';
import { secretScrubber } from '../../runtime/known-secrets.js';
import { ArenaError } from './arena-error.js';
import { gameResultOf } from './game-result.js';
import { recordGameScores } from './scoring-service.js';
import { assertPlayerWritableChannel } from './sender-rules.js';

export interface ArenaEngineOptions {
  store: Store;
  challenges: ChallengeRegistry;
  live: LiveBus;
  clock: Clock;
  /** HMAC-derived seed for private data (spec §5.8). */
  seed(purpose: string): string;
  /** Inactivity after which an unfinished session expires; 0 disables expiry (decision 11(c)). */
  staleAfterMs: number;
  onScoringError?(error: unknown, result: GameResult): void;
}

/**
 * An action the operator refused (tournaments count them against a retry budget and keep the reason in the game's
 * record). `at` is the time the action was logged.
 */
export type RejectedActionListener = (
  sessionId: string,
  from: string,
  code: string | undefined,
  refusal: { message: string; at: number },
) => void;

/** What an action appended or ended; published after the transaction commits, in this order. */
interface Effects {
  messages: ChatMessage[];
  ended: { sessionId: string; state: ChallengeOperatorState } | null;
}

export interface ListQuery {
  challengeType?: string;
  status?: SessionStatus;
  /** false: leave out sessions tournaments created for their games. */
  tournamentSessions?: boolean;
  limit: number;
  offset: number;
}

const SEAT_KEY_CACHE_SIZE = 10_000;

export function createArenaEngine(options: ArenaEngineOptions) {
  const { store, challenges, live, clock } = options;
  const seatKeyFlags = new Map<string, boolean>();
  const rejections = createListeners<Parameters<RejectedActionListener>>();

  function publish(effects: Effects): void {
    for (const message of effects.messages) live.publishMessage(message);
    if (effects.ended) live.publishGameEnded(effects.ended.sessionId, effects.ended.state);
  }

  function isStale(session: StoredSession, now: number): boolean {
    return options.staleAfterMs > 0 && session.status !== 'ended' && now - session.lastActivityAt > options.staleAfterMs;
  }

  function deleteSession(id: string): void {
    store.sessions.delete(id);
    store.chat.deleteChannel(id);
    store.chat.deleteChannel(operatorChannel(id));
  }

  /** Every lookup treats a stale session as gone and deletes it with both channels. Call inside a transaction. */
  function fresh(session: StoredSession | undefined): StoredSession | undefined {
    if (session && isStale(session, clock.now())) {
      deleteSession(session.id);
      return undefined;
    }
    return session;
  }

  function challengeOf(type: string) {
    const challenge = challenges.get(type);
    if (!challenge) throw new ArenaError(400, `Unknown challenge type: ${type}`);
    return challenge;
  }

  /** Builds an operator for a stored session with messaging that appends inside the current transaction. */
  function operatorFor(session: StoredSession, effects: Effects): ChallengeOperator<object> {
    const challenge = challengeOf(session.challengeType);
    const ctx = operatorContext(session.id, effects);
    const operator = challenge.module.createOperator(ctx, session.options as { players: number }, session.gameState);
    operator.restore({ gameState: session.gameState, state: session.state });
    return operator;
  }

  function operatorContext(sessionId: string, effects: Effects): OperatorContext {
    const append = (channel: string, from: string, content: string, to?: string) => {
      effects.messages.push(store.chat.append(channel, from, content, clock.now(), to));
    };
    return {
      challengeId: sessionId,
      now: () => clock.now(),
      seed: options.seed,
      messaging: {
        sendMessage: append,
        sendChallengeMessage: (id, from, content, to) => append(operatorChannel(id), from, content, to),
        broadcastChallengeEvent: (id, event) => {
          effects.ended = { sessionId: id, state: event.data };
        },
      },
    };
  }

  /** Writes the operator's state back; on the ending action also fixes the category and scores the game. */
  function persist(session: StoredSession, operator: ChallengeOperator<object>, seatsChanged: boolean): StoredSession {
    const snapshot = operator.serialize();
    const wasEnded = session.status === 'ended';
    const next: StoredSession = {
      ...session,
      gameState: snapshot.gameState as Record<string, unknown>,
      state: snapshot.state,
      status: snapshot.state.status,
      completedAt: snapshot.state.completedAt ?? session.completedAt,
      lastActivityAt: Math.max(session.lastActivityAt, clock.now()),
    };
    if (next.status === 'ended' && !wasEnded) {
      const identities = Object.values(next.state.playerIdentities);
      if (next.gameCategory === 'train') next.gameCategory = gameCategoryOf(identities, store.users.getMany(identities));
      store.sessions.update(next, seatsChanged);
      scoreInSavepoint(gameResultOf(next));
    } else {
      store.sessions.update(next, seatsChanged);
    }
    return next;
  }

  /** Scoring shares the ending transaction; a scoring bug must not undo the game, so it gets its own savepoint. */
  function scoreInSavepoint(result: GameResult): void {
    try {
      store.transaction(() => recordGameScores(store, result));
    } catch (error) {
      options.onScoringError?.(error, result);
    }
  }

  /** Chat keeps a session alive, but cannot revive one that has already expired (it is deleted instead). */
  function touchChannel(channel: string, at: number): void {
    const session = fresh(store.sessions.get(sessionIdOfChannel(channel)));
    if (session && session.status !== 'ended') store.sessions.touch(session.id, at);
  }

  function appendChat(channel: string, from: string, content: string, to?: string | null): ChatMessage {
    const message = store.transaction(() => {
      const now = clock.now();
      touchChannel(channel, now);
      return store.chat.append(channel, from, content, now, to);
    });
    live.publishMessage(message);
    return message;
  }

  const engine = {
    live,

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
     * Creates a session; `overrides` are challenge options (tournaments), validated by the challenge.
     * `seatKeysRequired` marks a session whose invites only seat keys may join and play (runner-launched agents).
     * `seed` (tournament games) replaces the random session id in the private-data seeds, so the same game seed
     * deals the same hands on this installation; the installation secret still keys them, so agents cannot derive them.
     */
    createSession(
      type: string,
      overrides: Record<string, unknown> = {},
      flags: { seatKeysRequired?: boolean; seed?: string } = {},
    ): StoredSession {
      const challenge = challengeOf(type);
      const parsed = challenge.module.optionsSchema.safeParse({ ...defaultOptionsOf(type), ...overrides });
      if (!parsed.success)
        throw new ArenaError(400, `Invalid options for ${type}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'INVALID_OPTIONS');
      const sessionOptions = parsed.data;
      const id = randomUUID();
      const effects: Effects = { messages: [], ended: null };
      const session = store.transaction(() => {
        const base = operatorContext(id, effects);
        const gameSeed = flags.seed;
        const ctx: OperatorContext =
          gameSeed === undefined ? base : { ...base, seed: (purpose) => options.seed(purpose.split(id).join(`game-seed:${gameSeed}`)) };
        const gameState = challenge.module.createGameState(ctx, sessionOptions);
        const operator = challenge.module.createOperator(ctx, sessionOptions, gameState);
        const snapshot = operator.serialize();
        const now = clock.now();
        const created: StoredSession = {
          id,
          name: type,
          challengeType: type,
          createdAt: now,
          completedAt: null,
          lastActivityAt: now,
          status: snapshot.state.status,
          gameCategory: 'train',
          options: sessionOptions as Record<string, unknown>,
          gameState: snapshot.gameState as Record<string, unknown>,
          state: snapshot.state,
          invites: Array.from({ length: challenge.metadata.players }, () => `inv_${randomUUID()}`),
          seatKeysRequired: flags.seatKeysRequired === true,
        };
        store.sessions.insert(created);
        return created;
      });
      publish(effects);
      return session;
    },

    join(invite: string, userId?: string): { session: StoredSession; playerIndex: number; metadata: ChallengeMetadata } {
      const effects: Effects = { messages: [], ended: null };
      // Not-found is returned, not thrown, so deleting a stale session inside this transaction is kept.
      const result = store.transaction(() => {
        const session = fresh(store.sessions.getByInvite(invite));
        if (!session) return null;
        const operator = operatorFor(session, effects);
        try {
          operator.join(invite, userId);
        } catch (error) {
          if (error instanceof OperatorError) throw new ArenaError(400, error.message, error.code);
          throw error;
        }
        const next = persist(session, operator, true);
        return { session: next, playerIndex: next.state.players.indexOf(invite), metadata: challengeOf(session.challengeType).metadata };
      });
      if (!result) throw new ArenaError(400, `Challenge not found for invite: ${invite}`);
      publish(effects);
      return result;
    },

    /** Arena action (spec §3.4): the raw action is logged even when the operator rejects it (decision 11(d)). */
    message(challengeId: string, from: string, messageType: string | undefined, content: string): void {
      const effects: Effects = { messages: [], ended: null };
      let rejection: ArenaError | null = null;
      let at = clock.now();
      store.transaction(() => {
        const session = fresh(store.sessions.get(challengeId));
        if (!session) {
          rejection = new ArenaError(400, 'Challenge not found');
          return;
        }
        const now = clock.now();
        at = now;
        const logged = secretScrubber()(messageType ? `(${messageType}) ${content}` : content);
        effects.messages.push(store.chat.append(operatorChannel(challengeId), from, logged, now, 'operator'));
        const operatorEffects: Effects = { messages: [], ended: null };
        try {
          store.transaction(() => {
            const operator = operatorFor({ ...session, lastActivityAt: now }, operatorEffects);
            operator.message({ channel: challengeId, from, type: messageType, content, timestamp: now });
            persist({ ...session, lastActivityAt: now }, operator, false);
          });
          effects.messages.push(...operatorEffects.messages);
          effects.ended = operatorEffects.ended;
        } catch (error) {
          if (!(error instanceof OperatorError)) throw error;
          // An accepted action's state write carries the activity time; a refused one still keeps the session alive.
          store.sessions.touch(challengeId, now);
          rejection = new ArenaError(400, error.message, error.code);
        }
      });
      publish(effects);
      if (rejection) {
        const { code, message } = rejection as ArenaError;
        rejections.emit([challengeId, from, code, { message, at }]);
        throw rejection;
      }
    },

    /** Observes refused actions; returns the unsubscribe function. */
    onRejectedAction(listener: RejectedActionListener): () => void {
      return rejections.add((args) => listener(...args));
    },

    /** Player chat (REST and MCP): any channel but an operator channel; `from` is an already resolved identity. */
    chatSend(channel: string, from: string, content: string, to?: string | null): ChatMessage {
      assertPlayerWritableChannel(channel);
      // A player's words are stored and relayed without any secret the engine knows of (an agent's own key included).
      return appendChat(channel, from, secretScrubber()(content), to);
    },

    /** Chat or operator-channel sync with the redaction rules of spec §5.4. */
    sync(channel: string, start: number, viewer: string | null): ChatMessage[] {
      if (Number.isNaN(start)) return [];
      const from = Math.max(0, Math.floor(start));
      return store.transaction(() => {
        const messages = store.chat.since(channel, from);
        return redactAll(messages, viewer, isRevealed(channel));
      });
    },

    /** SSE snapshot: messages after `since` (0 = all), redacted; plus the session if it has ended. */
    snapshot(channel: string, since: number, viewer: string | null): { messages: ChatMessage[]; ended: ChallengeOperatorState | null } {
      return store.transaction(() => {
        // Expire first: a stale session's channels are deleted by this lookup and must not be replayed.
        const session = fresh(store.sessions.get(sessionIdOfChannel(channel)));
        const messages = redactAll(store.chat.since(channel, since + 1), viewer, isRevealed(channel));
        return { messages, ended: session?.status === 'ended' ? session.state : null };
      });
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

    /**
     * Removes a session that will never finish, with both channels: a tournament game that ended without it (a forfeit
     * or a void game) once its record, transcript included, is stored. An ended session is kept. True when removed.
     */
    discardUnfinished(id: string): boolean {
      return store.transaction(() => {
        const session = store.sessions.get(id);
        if (!session || session.status === 'ended') return false;
        deleteSession(id);
        return true;
      });
    },

    /** A whole channel without redaction, for the admin API and reports. */
    transcript(channel: string): ChatMessage[] {
      return store.chat.since(channel, 0);
    },

    /** Invite lookups (GET/POST /api/invites): 404 unknown, 409 used. */
    sessionForUnusedInvite(invite: string): StoredSession {
      const session = store.transaction(() => fresh(store.sessions.getByInvite(invite)));
      if (!session) throw new ArenaError(404, `Challenge not found for invite: ${invite}`);
      if (session.state.players.includes(invite)) throw new ArenaError(409, `Invite already used: ${invite}`);
      return session;
    },

    advertiseInvite(invite: string): void {
      engine.sessionForUnusedInvite(invite);
      appendChat('invites', 'operator', invite);
    },

    /** Session by id with the staleness rule; used by auth to map key indices to invites. */
    session(id: string): StoredSession | undefined {
      return store.transaction(() => fresh(store.sessions.get(id)));
    },

    sessionByInvite(invite: string): StoredSession | undefined {
      return store.transaction(() => fresh(store.sessions.getByInvite(invite)));
    },

    /** True when `invite` belongs to a session that only its seat keys may play. */
    seatKeysRequired(invite: string): boolean {
      return remembered(`i:${invite}`, () => store.sessions.seatKeysRequiredForInvite(invite));
    },

    /** True when session `id` (a bare id) was created with seat keys. */
    seatKeysRequiredForSession(id: string): boolean {
      return remembered(`s:${id}`, () => store.sessions.seatKeysRequiredForSession(id));
    },

    /** Deletes every stale session in one transaction; returns how many went. */
    sweepStale(): number {
      if (options.staleAfterMs <= 0) return 0;
      return store.transaction(() => {
        const ids = store.sessions.staleIds(clock.now() - options.staleAfterMs);
        for (const id of ids) deleteSession(id);
        return ids.length;
      });
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
    },
  };

  /**
   * Seat-key flags are asked on every request that names a session; a flag is fixed at creation, and ids and invites
   * are random UUIDs nobody can name before they exist, so answers can be kept.
   */
  function remembered(key: string, look: () => boolean): boolean {
    const known = seatKeyFlags.get(key);
    if (known !== undefined) return known;
    const required = look();
    if (seatKeyFlags.size >= SEAT_KEY_CACHE_SIZE) seatKeyFlags.clear();
    seatKeyFlags.set(key, required);
    return required;
  }

  function defaultOptionsOf(type: string): Record<string, unknown> {
    return challenges.defaultOptions(type);
  }

  function isRevealed(channel: string): boolean {
    if (!channel.startsWith('challenge_')) return false;
    return store.sessions.status(sessionIdOfChannel(channel)) === 'ended';
  }

  function profilesOf(list: Challenge[]): Record<string, UserProfile> {
    const ids = list.flatMap((c) => Object.values(c.state.playerIdentities));
    return store.users.getMany(ids);
  }

  return engine;
}

export type ArenaEngine = ReturnType<typeof createArenaEngine>;
