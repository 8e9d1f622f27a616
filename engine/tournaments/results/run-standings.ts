// The live leader the executor announces with each finished game: points and rated games per agent, read from the
// run tally, so it counts the games the standings rate (a half-played pair or set waits, as in the standings) and a
// resumed run's leader matches an uninterrupted one's.

import type { RatingsTally } from '../../core/ratings/index.js';

export interface Leader {
  agent: string;
  points: number;
  games: number;
}

/** The agent with the most points over the rated games (the first of equals); null before any rated game. */
export function leaderOf(tally: RatingsTally, agentIds: readonly string[]): Leader | null {
  const points = agentIds.map(() => 0);
  const played = agentIds.map(() => 0);
  for (const c of tally.challenges)
    agentIds.forEach((_, agent) => {
      points[agent] = (points[agent] as number) + (c.points[agent] ?? 0);
      played[agent] = (played[agent] as number) + (c.played[agent] ?? 0);
    });
  let best = -1;
  points.forEach((p, i) => {
    if (best < 0 || p > (points[best] as number)) best = i;
  });
  if (best < 0 || played[best] === 0) return null;
  return { agent: agentIds[best] ?? String(best), points: points[best] as number, games: played[best] as number };
}
