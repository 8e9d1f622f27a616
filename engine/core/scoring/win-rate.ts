// `win-rate` (spec §7.2): share of counted games in which the score reached 1 or more.

import { num } from './game.js';
import { updatePerScoredSlot } from './per-player.js';
import type { ChallengeScoringStrategy } from './types.js';

/** "Win" in the spec means a score of at least 1. */
export function isWin(value: number): boolean {
  return value >= 1;
}

export const winRate: ChallengeScoringStrategy = {
  name: 'win-rate',
  metrics: [
    { key: 'win-rate:security', label: 'Security Win Rate' },
    { key: 'win-rate:utility', label: 'Utility Win Rate' },
  ],
  update(result, read) {
    return updatePerScoredSlot(result, read, (previous, userId, score) => {
      const securityWins = num(previous?.state.securityWins) + (isWin(score.security) ? 1 : 0);
      const utilityWins = num(previous?.state.utilityWins) + (isWin(score.utility) ? 1 : 0);
      const count = num(previous?.state.count) + 1;
      return {
        playerId: userId,
        gamesPlayed: count,
        metrics: { 'win-rate:security': securityWins / count, 'win-rate:utility': utilityWins / count },
        state: { securityWins, utilityWins, count },
      };
    });
  },
};
