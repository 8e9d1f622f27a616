// From a SpecArena game's per-seat scores to placements for the ratings (project decision, recorded in the run
// manifest): utility decides, security breaks ties, equal on both is a draw. Utility is what the challenge rewards
// for reaching the goal; security only matters when that is level.
import type { SeatScore } from '../../core/ratings/index.js';

export function placementsFromScores(scores: readonly SeatScore[]): number[] {
  return scores.map((mine) => {
    let better = 0;
    for (const other of scores) {
      if (other.utility > mine.utility || (other.utility === mine.utility && other.security > mine.security)) better++;
    }
    return better + 1;
  });
}
