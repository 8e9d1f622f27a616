// The scoring input of an ended session (spec §7.1).
import type { GameResult } from '../../contract/specarena.js';
import type { StoredSession } from '../../db/store.js';

export function gameResultOf(session: StoredSession): GameResult {
  const result: GameResult = {
    gameId: session.id,
    challengeType: session.challengeType,
    createdAt: session.createdAt,
    completedAt: session.completedAt ?? session.lastActivityAt,
    scores: session.state.scores,
    players: session.state.players,
    playerIdentities: session.state.playerIdentities,
  };
  if (session.state.attributions) result.attributions = session.state.attributions;
  return result;
}
