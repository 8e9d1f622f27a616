// Chart maths: incremental fixed-K Elo over settled games and the pairwise score matrix.
import { describe, expect, it } from 'vitest';
import { type GameRecord, pairwiseMatrix, ratingHistory } from '../../../engine/core/ratings/index.js';

const game = (over: Partial<GameRecord> & Pick<GameRecord, 'gameIndex'>): GameRecord => ({
  challenge: 'psi',
  seats: [0, 1],
  termination: 'completed',
  placements: [1, 2],
  ...over,
});

describe('ratingHistory', () => {
  it('starts everyone at 1000 and moves the winner up by K·(1 − E)', () => {
    const points = ratingHistory([game({ gameIndex: 0 })], 2);
    expect(points).toEqual([
      { games: 0, ratings: [1000, 1000] },
      // Equal ratings: E = ½, so ±16·½ = ±8.
      { games: 1, ratings: [1008, 992] },
    ]);
  });

  it('uses the pre-game ratings for the second game and skips void games', () => {
    const points = ratingHistory(
      [game({ gameIndex: 0 }), game({ gameIndex: 1, termination: 'harness_error' }), game({ gameIndex: 2, placements: [2, 1] })],
      2,
    );
    expect(points).toHaveLength(3);
    // Second rated game: agent 1 (992) beats agent 0 (1008): E1 = 1/(1+10^(16/400)) ≈ 0.4770, gain 16·0.523 ≈ 8.37.
    expect(points[2]?.ratings[1]).toBeCloseTo(992 + 8.37, 1);
    expect(points[2]?.ratings[0]).toBeCloseTo(1008 - 8.37, 1);
  });

  it('spreads a three-seat game over its pairs with weight 1/(n − 1) and conserves the rating sum', () => {
    const [, after] = ratingHistory([game({ gameIndex: 0, seats: [0, 1, 2], placements: [1, 2, 3] })], 3);
    // Agent 0 beats both at E = ½: 2 · 16 · ½ · ½ = 8; agent 1: +4 − 4 = 0; agent 2: −8.
    expect(after?.ratings).toEqual([1008, 1000, 992]);
  });

  it('samples a long run to at most 400 points, keeping the first and the last', () => {
    const games = Array.from({ length: 1000 }, (_, i) => game({ gameIndex: i, placements: i % 3 === 0 ? [2, 1] : [1, 2] }));
    const points = ratingHistory(games, 2);
    expect(points.length).toBeLessThanOrEqual(400);
    expect(points[0]?.games).toBe(0);
    expect(points[points.length - 1]?.games).toBe(1000);
    // Evenly spaced: the stride doubled until the samples fit (1000 games → every 4th).
    expect(new Set(points.slice(1).map((p, i) => p.games - (points[i]?.games ?? 0)))).toEqual(new Set([4]));
  });
});

describe('pairwiseMatrix', () => {
  it('scores wins plus half draws from each side; null where agents never met', () => {
    const cells = pairwiseMatrix(
      [
        game({ gameIndex: 0 }),
        game({ gameIndex: 1, placements: [1, 1] }),
        game({ gameIndex: 2, seats: [1, 0], placements: [1, 2] }),
        game({ gameIndex: 3, termination: 'harness_error' }),
      ],
      3,
    );
    // Agent 0 vs 1: win, draw, loss = 1.5 / 3 = 50%.
    expect(cells[0]?.[1]).toEqual({ games: 3, score_pct: 50 });
    expect(cells[1]?.[0]).toEqual({ games: 3, score_pct: 50 });
    expect(cells[0]?.[2]).toBeNull();
    expect(cells[0]?.[0]).toBeNull();
  });

  it('counts every opposed pair of a multi-seat game by placement', () => {
    const cells = pairwiseMatrix([game({ gameIndex: 0, seats: [0, 1, 2], placements: [2, 1, 3] })], 3);
    expect(cells[1]?.[0]).toEqual({ games: 1, score_pct: 100 });
    expect(cells[0]?.[2]).toEqual({ games: 1, score_pct: 100 });
    expect(cells[2]?.[1]).toEqual({ games: 1, score_pct: 0 });
  });

  it('gives the opponent the win when one seat forfeits', () => {
    const cells = pairwiseMatrix([game({ gameIndex: 0, termination: 'agent_crash', faultedSeats: [0], placements: undefined })], 2);
    expect(cells[0]?.[1]).toEqual({ games: 1, score_pct: 0 });
  });
});
