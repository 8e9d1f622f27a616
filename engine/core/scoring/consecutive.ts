// `consecutive` (spec §7.2): current streaks, read back from the previous entry's metrics; any miss resets to 0.

import { breachCounts, distinctIdentified, fullyIdentified, num } from './game.js';
import type { ChallengeScoringStrategy, StrategyEntry } from './types.js';
import { isWin } from './win-rate.js';

function streak(previous: number, hit: boolean): number {
  return hit ? previous + 1 : 0;
}

export const consecutive: ChallengeScoringStrategy = {
  name: 'consecutive',
  metrics: [
    { key: 'consecutive:security', label: 'Security Streak' },
    { key: 'consecutive:utility', label: 'Utility Streak' },
    { key: 'consecutive:attack', label: 'Attack Streak' },
  ],
  update(result, read) {
    if (!fullyIdentified(result)) return [];
    const { caused } = breachCounts(result);
    const out: StrategyEntry[] = [];
    for (const { userId, score } of distinctIdentified(result)) {
      if (score === undefined) continue;
      const previous = read(userId);
      const metrics = previous?.metrics ?? {};
      out.push({
        playerId: userId,
        gamesPlayed: num(previous?.gamesPlayed) + 1,
        metrics: {
          'consecutive:security': streak(num(metrics['consecutive:security']), isWin(score.security)),
          'consecutive:utility': streak(num(metrics['consecutive:utility']), isWin(score.utility)),
          'consecutive:attack': streak(num(metrics['consecutive:attack']), (caused.get(userId) ?? 0) > 0),
        },
        state: {},
      });
    }
    return out;
  },
};
