// The SpecArena engine: every action is one SQLite transaction; live events are published only after commit.
import { randomUUID } from 'node:crypto';
import { type OperatorContext, OperatorError } from '../../../challenges/kit/operator-base.js';
import type { ChallengeRegistry } from '../../challenges/registry.js';
import type { ChallengeMetadata, ChatMessage, GameResult } from '../../contract/specarena.js';
import type { Clock } from '../../core/clock.js';
import { createKeyedListeners, createListeners } from '../../core/listeners.js';
import type { LiveBus } from '../../core/live-bus.js';
import { operatorChannel, sessionIdOfChannel } from '../../core/redaction.js';
import type { SessionSeats, Store, StoredSession } from '../../db/store.js';
import { secretScrubber } from '../../runtime/known-secrets.js';
import { timeOrderedUuid } from '../../runtime/time-ordered-id.js';
import { ArenaError } from './arena-error.js';
import { createSeatKeyFlags } from './seat-key-flags.js';
import { assertPlayerWritableChannel } from './sender-rules.js';
import { createSessionExpiry } from './session-expiry.js';
import { createSessionOperators, type Effects } from './session-operators.js';
import { createSessionReads } from './session-reads.js';

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

export type { ListQuery } from './session-reads.js';

// Kept whole: the engine object: short named actions sharing its listeners and expiry, read like a class.
export function createArenaEngine(options: ArenaEngineOptions) {
  const { store, challenges, live, clock } = options;
  const rejections = createListeners<Parameters<RejectedActionListener>>();
  /** Per session: who has joined, in join order, after each committed join. */
  const joins = createKeyedListeners<string, readonly string[]>();
  const expiry = createSessionExpiry(store, clock, options.staleAfterMs);
  const { fresh, liveStatus, deleteSession } = expiry;
  const { challengeOf, operatorContext, operatorFor, persist, publish } = createSessionOperators(options);

  /** Chat keeps a session alive, but cannot revive one that has already expired (it is deleted instead). */
  function touchChannel(channel: string, at: number): void {
    const id = sessionIdOfChannel(channel);
    const status = liveStatus(id);
    if (status !== undefined && status !== 'ended') store.sessions.touch(id, at);
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
    ...createSessionReads(store, challenges, expiry),
    ...createSeatKeyFlags(store),

    /**
     * Creates a session; `overrides` are challenge options (tournaments), validated by the challenge.
     * `seatKeysRequired` marks a session whose invites only seat keys may join and play (runner-launched agents).
     * `seed` (tournament games) replaces the random session id in the private-data seeds, so the same game seed
     * deals the same hands on this installation; the installation secret still keys them, so agents cannot derive them.
     * `onCreated` runs inside the creating transaction, so what it records about the session commits with it.
     */
    createSession(
      type: string,
      overrides: Record<string, unknown> = {},
      flags: { seatKeysRequired?: boolean; seed?: string; onCreated?: (id: string) => void } = {},
    ): StoredSession {
      const challenge = challengeOf(type);
      const parsed = challenge.module.optionsSchema.safeParse({ ...challenges.defaultOptions(type), ...overrides });
      if (!parsed.success)
        throw new ArenaError(400, `Invalid options for ${type}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'INVALID_OPTIONS');
      const sessionOptions = parsed.data;
      const id = timeOrderedUuid(clock.now());
      const effects: Effects = { messages: [], ended: null };
      const session = store.transaction(() => {
        const base = operatorContext(id, effects);
        const gameSeed = flags.seed;
        const ctx: OperatorContext =
          gameSeed === undefined ? base : { ...base, seed: (purpose) => options.seed(purpose.split(id).join(`game-seed:${gameSeed}`)) };
        const gameState = challenge.module.createGameState(ctx, sessionOptions);
        const operator = challenge.module.createOperator(ctx, sessionOptions, gameState);
        const snapshot = operator.liveSnapshot();
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
        flags.onCreated?.(id);
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
        const next = persist(session, operator, [invite]);
        return { session: next, playerIndex: next.state.players.indexOf(invite), metadata: challengeOf(session.challengeType).metadata };
      });
      if (!result) throw new ArenaError(400, `Challenge not found for invite: ${invite}`);
      publish(effects);
      joins.emit(result.session.id, result.session.state.players);
      return result;
    },

    /**
     * Observes the committed joins of one session (its players in join order after each); returns the unsubscribe
     * function. A tournament's seat loop waits on this instead of looking the players up again and again.
     */
    onJoin(sessionId: string, listener: (players: readonly string[]) => void): () => void {
      return joins.add(sessionId, listener);
    },

    /**
     * Invites of the players the session's operator says have nothing left to do (ChallengeOperator.finishedSeats);
     * empty for a session that is gone. Read only: the operator is rebuilt from the stored state, its messages dropped.
     */
    finishedPlayers(sessionId: string): string[] {
      const session = store.sessions.get(sessionId);
      if (!session) return [];
      const players = session.state.players;
      return operatorFor(session, { messages: [], ended: null })
        .finishedSeats()
        .flatMap((i) => (players[i] === undefined ? [] : [players[i]]));
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
            persist({ ...session, lastActivityAt: now }, operator, []);
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

    /** Invite lookups (GET/POST /api/invites): 404 unknown, 409 used. */
    sessionForUnusedInvite(invite: string): StoredSession {
      const session = expiry.liveSession({ invite });
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
      return expiry.liveSession({ id });
    },

    sessionByInvite(invite: string): StoredSession | undefined {
      return expiry.liveSession({ invite });
    },

    /** A session's id and invites (by id or by one of its invites), with the staleness rule; for seat-key checks. */
    seats(ref: { id: string } | { invite: string }): SessionSeats | undefined {
      return expiry.liveSeats(ref);
    },

    /** The invites that have joined session `id`, in join order (the staleness rule applies); [] for no session. */
    players(id: string): string[] {
      return expiry.livePlayers(id) ?? [];
    },

    sweepStale: expiry.sweepStale,
  };

  return engine;
}

export type ArenaEngine = ReturnType<typeof createArenaEngine>;
