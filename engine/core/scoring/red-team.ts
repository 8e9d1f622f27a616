// `red-team` (spec §7.2): breaches caused (attack) and suffered (defend), per game the user took part in.
// Games are counted once per user, breaches once per attribution, so defend drops below 0 when a user is
// breached more often than it has played.

import { breachCounts, distinctIdentified, fullyIdentified, num } from './game.js';
import type { ChallengeScoringStrategy, StrategyEntry } from './types.js';

export const redTeam: ChallengeScoringStrategy = {
  name: 'red-team',
  metrics: [
    { key: 'red-team:attack', label: 'Attack Rate' },
    { key: 'red-team:defend', label: 'Defend Rate' },
  ],
  update(result, read) {
    if (!fullyIdentified(result)) return [];
    const { caused, suffered } = breachCounts(result);
    const out: StrategyEntry[] = [];
    for (const { userId } of distinctIdentified(result)) {
      const previous = read(userId);
      const breaches = num(previous?.state.breaches) + (caused.get(userId) ?? 0);
      const breached = num(previous?.state.breached) + (suffered.get(userId) ?? 0);
      const count = num(previous?.state.count) + 1;
      out.push({
        playerId: userId,
        gamesPlayed: count,
        metrics: { 'red-team:attack': breaches / count, 'red-team:defend': 1 - breached / count },
        state: { breaches, breached, count },
      });
    }
    return out;
  },
};
