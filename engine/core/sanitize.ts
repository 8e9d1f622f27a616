// What a session looks like on the wire before and after it ends (decision 11(a)).
import type { Challenge, ChallengeOperatorState } from '../contract/specarena.js';

export interface SessionView {
  id: string;
  name: string;
  createdAt: number;
  challengeType: string;
  invites: string[];
  state: ChallengeOperatorState;
  gameState: Record<string, unknown>;
  gameCategory: Challenge['gameCategory'];
  /** Seat-key sessions (runner-launched games) keep their invites and seats off public lists until they end. */
  seatKeysRequired?: boolean;
}

/**
 * Full session for ended games; private data (gameState, identities, scores, attributions) removed otherwise, and for
 * seat-key sessions also the invites and seats (decision 11(j)).
 */
export function publicSession(session: SessionView): Challenge {
  const base = {
    id: session.id,
    name: session.name,
    createdAt: session.createdAt,
    challengeType: session.challengeType,
    invites: [...session.invites],
  };
  if (session.state.status === 'ended') {
    return { ...base, state: session.state, gameState: session.gameState, gameCategory: session.gameCategory };
  }
  const { attributions: _hidden, ...rest } = session.state;
  const state = { ...rest, scores: [], playerIdentities: {} };
  if (session.seatKeysRequired === true)
    return { ...base, invites: [], state: { ...state, players: [] }, gameCategory: session.gameCategory };
  return { ...base, state, gameCategory: session.gameCategory };
}

/** Full session regardless of status: only for routes that return ended sessions and for the admin API. */
export function fullSession(session: SessionView): Challenge {
  return {
    id: session.id,
    name: session.name,
    createdAt: session.createdAt,
    challengeType: session.challengeType,
    invites: [...session.invites],
    state: session.state,
    gameState: session.gameState,
    gameCategory: session.gameCategory,
  };
}
