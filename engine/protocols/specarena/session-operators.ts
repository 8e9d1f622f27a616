// A stored session's challenge operator, rebuilt for one action inside its transaction: its messages are appended
// in that transaction and collected as effects, published only once it commits; its state is written back after.
import type { ChallengeOperator, OperatorContext } from '../../../challenges/kit/operator-base.js';
import type { ChallengeRegistry } from '../../challenges/registry.js';
import type { ChallengeOperatorState, ChatMessage, GameResult } from '../../contract/specarena.js';
import type { Clock } from '../../core/clock.js';
import { gameCategoryOf } from '../../core/game-category.js';
import type { LiveBus } from '../../core/live-bus.js';
import { operatorChannel } from '../../core/redaction.js';
import type { Store, StoredSession } from '../../db/store.js';
import { ArenaError } from './arena-error.js';
import { gameResultOf } from './game-result.js';
import { recordGameScores } from './scoring-service.js';

/** What an action appended or ended; published after the transaction commits, in this order. */
export interface Effects {
  messages: ChatMessage[];
  ended: { sessionId: string; state: ChallengeOperatorState } | null;
}

/** The part of the engine's options operators need (see ArenaEngineOptions). */
export interface SessionOperatorDeps {
  store: Store;
  challenges: ChallengeRegistry;
  live: LiveBus;
  clock: Clock;
  seed(purpose: string): string;
  onScoringError?(error: unknown, result: GameResult): void;
}

export function createSessionOperators(options: SessionOperatorDeps) {
  const { store, challenges, live, clock } = options;

  function challengeOf(type: string) {
    const challenge = challenges.get(type);
    if (!challenge) throw new ArenaError(400, `Unknown challenge type: ${type}`);
    return challenge;
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

  /** Scoring shares the ending transaction; a scoring bug must not undo the game, so it gets its own savepoint. */
  function scoreInSavepoint(result: GameResult): void {
    try {
      store.transaction(() => recordGameScores(store, result));
    } catch (error) {
      options.onScoringError?.(error, result);
    }
  }

  return {
    challengeOf,
    operatorContext,

    publish(effects: Effects): void {
      for (const message of effects.messages) live.publishMessage(message);
      if (effects.ended) live.publishGameEnded(effects.ended.sessionId, effects.ended.state);
    },

    /**
     * Builds an operator for a stored session with messaging that appends inside the current transaction. The operator
     * takes the session's game and state objects over (no copy): the session must be one just read for this action.
     */
    operatorFor(session: StoredSession, effects: Effects): ChallengeOperator<object> {
      const challenge = challengeOf(session.challengeType);
      const ctx = operatorContext(session.id, effects);
      const operator = challenge.module.createOperator(ctx, session.options as { players: number }, session.gameState);
      operator.adopt({ gameState: session.gameState, state: session.state });
      return operator;
    },

    /**
     * Writes the operator's state back; on the ending action also fixes the category and scores the game. `seated`:
     * the invites this action gave a seat (a join).
     */
    persist(session: StoredSession, operator: ChallengeOperator<object>, seated: readonly string[]): StoredSession {
      const snapshot = operator.liveSnapshot();
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
        store.sessions.update(next, { lifecycle: true, seated });
        scoreInSavepoint(gameResultOf(next));
      } else {
        const lifecycle = next.status !== session.status || next.completedAt !== session.completedAt;
        store.sessions.update(next, { lifecycle, seated });
      }
      return next;
    },
  };
}
