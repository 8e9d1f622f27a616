// `average` (spec §7.2): running sums of security and utility per user; the metric is the plain mean.

import { num } from './game.js';
import { updatePerScoredSlot } from './per-player.js';
import type { ChallengeScoringStrategy } from './types.js';

export const average: ChallengeScoringStrategy = {
  name: 'average',
  metrics: [
    { key: 'average:security', label: 'Average Security' },
    { key: 'average:utility', label: 'Average Utility' },
  ],
  update(result, read) {
    return updatePerScoredSlot(result, read, (previous, userId, score) => {
      const securitySum = num(previous?.state.securitySum) + score.security;
      const utilitySum = num(previous?.state.utilitySum) + score.utility;
      const count = num(previous?.state.count) + 1;
      return {
        playerId: userId,
        gamesPlayed: count,
        metrics: { 'average:security': securitySum / count, 'average:utility': utilitySum / count },
        state: { securitySum, utilitySum, count },
      };
    });
  },
};
