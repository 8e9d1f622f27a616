// The rank column against its legend (RANK_LEGEND, the README's "Ratings and their intervals"): one test per case the
// legend states, through the same path the standings take (tally → report → standing rows → rank text).
import { describe, expect, it } from 'vitest';
import {
  addRatedGame,
  emptyRatingsTally,
  type GameRecord,
  RANK_LEGEND,
  rankText,
  ratingIntervals,
  reportFromTally,
  type WeightedComparison,
} from '../../../engine/core/ratings/index.js';
import { standingRows } from '../../../engine/tournaments/results/stats.js';

const win = (a: number, b: number, times = 1): WeightedComparison[] => Array.from({ length: times }, () => ({ a, b, y: 1, weight: 1 }));
const draw = (a: number, b: number, times = 1): WeightedComparison[] => Array.from({ length: times }, () => ({ a, b, y: 0.5, weight: 1 }));
const texts = (comparisons: WeightedComparison[], agents = 3) =>
  ratingIntervals(agents, [{ comparisons }]).agents.map((a) => rankText(a.rank, a.rankRange));

/** A seat-swapped round-robin between A, B, C (agents 0, 1, 2): A and B draw, both beat C, `pairs` pairs per meeting. */
function loserStandings(pairs: number) {
  const t = emptyRatingsTally(3);
  let index = 0;
  const meet = (x: number, y: number, placements: (seats: number[]) => number[]) => {
    for (let p = 0; p < pairs; p++) {
      const first = index;
      for (const seats of [
        [x, y],
        [y, x],
      ]) {
        const game: GameRecord = {
          gameIndex: index++,
          challenge: 'psi',
          seats,
          setSize: 2,
          termination: 'completed',
          placements: placements(seats),
        };
        if (seats[0] === y) game.swapOf = first;
        addRatedGame(t, game);
      }
    }
  };
  meet(0, 1, () => [1, 1]);
  meet(0, 2, (seats) => seats.map((a) => (a === 2 ? 2 : 1)));
  meet(1, 2, (seats) => seats.map((a) => (a === 2 ? 2 : 1)));
  const rows = standingRows(reportFromTally(t, { agentCount: 3 }).combined, ['A', 'B', 'C']);
  return rows.map((r) => ({ agent: r.agent, rank: rankText(r.rank, r.rank_range), rating: r.rating as number, losses: r.losses }));
}

describe('the rank legend, case by case', () => {
  it('prints the legend the README quotes', () => {
    expect(RANK_LEGEND).toMatch(/^Rank "3 \(2–3\)": 3 is the agent's place by rating/);
  });

  it('the README case: lost all four games to two others (who never met) reads 3 (2–3), after them', () => {
    expect(texts([...win(0, 2, 2), ...win(1, 2, 2)])).toEqual(['1 (1–3)', '1 (1–3)', '3 (2–3)']);
  });

  it('the issue case: lost every game to two others who drew each other is never printed first', () => {
    // One pair per meeting: four losses, and the two others tied to each other leave first within C's range, but C
    // is placed third, below both, in the order of the ratings beside it.
    const one = loserStandings(1);
    expect(one.map((r) => [r.agent, r.rank])).toEqual([
      ['A', '1 (1–3)'],
      ['B', '1 (1–3)'],
      ['C', '3 (1–3)'],
    ]);
    expect(one[2]?.losses).toBe(4);
    // Two pairs per meeting: eight losses rule first out jointly.
    expect(loserStandings(2).map((r) => r.rank)).toEqual(['1 (1–2)', '1 (1–2)', '3 (2–3)']);
    // The printed place always follows the ratings: a higher rating is never placed below a lower one.
    for (const rows of [one, loserStandings(2), loserStandings(4)])
      for (const x of rows)
        for (const y of rows) if (x.rating > y.rating + 0.5) expect(Number.parseInt(x.rank, 10)).toBeLessThan(Number.parseInt(y.rank, 10));
  });

  it('equal ratings share a place; different ones do not, even when the games cannot yet separate them', () => {
    expect(texts([...draw(0, 1, 2)], 2)).toEqual(['1 (1–2)', '1 (1–2)']);
    expect(texts([...win(0, 1), ...win(1, 0, 2)], 2)).toEqual(['2 (1–2)', '1 (1–2)']);
  });

  it('a place the games have settled is printed alone, and an agent without a rated game is "–"', () => {
    const settled = texts([...win(0, 1, 30), ...win(1, 0, 1), ...win(1, 2, 30), ...win(2, 1, 1), ...win(0, 2, 30)], 4);
    expect(settled).toEqual(['1', '2', '3', '–']);
  });
});
