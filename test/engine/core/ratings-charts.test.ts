// Chart maths: the standings' Bradley–Terry ratings over settled games and the pairwise score matrix.
import { describe, expect, it } from 'vitest';
import { type GameRecord, pairwiseMatrix, ratingHistory, ratingsReport } from '../../../engine/core/ratings/index.js';

const game = (over: Partial<GameRecord> & Pick<GameRecord, 'gameIndex'>): GameRecord => ({
  challenge: 'psi',
  seats: [0, 1],
  termination: 'completed',
  placements: [1, 2],
  ...over,
});

describe('ratingHistory', () => {
  it("traces the standings' own Bradley–Terry ratings: the last point is the combined board", () => {
    const games = [
      game({ gameIndex: 0 }),
      game({ gameIndex: 1, termination: 'harness_error' }),
      game({ gameIndex: 2, placements: [2, 1] }),
      game({ gameIndex: 3, seats: [0, 2], challenge: 'ultimatum' }),
    ];
    const points = ratingHistory(games, 3);
    // Void games are skipped: 3 rated games, 4 points (0..3).
    expect(points.map((p) => p.games)).toEqual([0, 1, 2, 3]);
    expect(points[0]?.ratings).toEqual([null, null, null]);
    // After one game agent 2 has not played: unrated.
    expect(points[1]?.ratings[2]).toBeNull();
    const board = ratingsReport(games, { agentCount: 3 }).combined.agents.map((a) => Math.round(a.rating.rating * 10) / 10);
    expect(points[3]?.ratings).toEqual(board);
  });

  it('a 2–0 record reads the two-agent posterior mode (2 virtual draws: 1095.4 / 904.6)', () => {
    const [, , two] = ratingHistory([game({ gameIndex: 0 }), game({ gameIndex: 1 })], 2);
    expect(two?.ratings[0]).toBeCloseTo(1095.4, 1);
    expect(two?.ratings[1]).toBeCloseTo(904.6, 1);
  });

  it('samples a long run to at most 120 refits, evenly spaced, keeping the first and the last', () => {
    const games = Array.from({ length: 1000 }, (_, i) => game({ gameIndex: i, placements: i % 3 === 0 ? [2, 1] : [1, 2] }));
    const points = ratingHistory(games, 2);
    expect(points.length).toBeLessThanOrEqual(120);
    expect(points[0]?.games).toBe(0);
    expect(points[points.length - 1]?.games).toBe(1000);
    // The stride doubled until the samples fit (1000 games → every 16th), plus the latest point.
    const steps = new Set(points.slice(1, -1).map((p, i) => p.games - (points[i]?.games ?? 0)));
    expect(steps).toEqual(new Set([16]));
    const board = ratingsReport(games, { agentCount: 2 }).combined.agents.map((a) => Math.round(a.rating.rating * 10) / 10);
    expect(points[points.length - 1]?.ratings).toEqual(board);
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
