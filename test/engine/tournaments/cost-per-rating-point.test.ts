// Cost per rating point in standings: spend per game over the Elo points above the weakest-rated agent, null whenever
// it is undefined (no spend recorded, no rating, the weakest agent itself), from real rating fits of synthetic games.
import { describe, expect, it } from 'vitest';
import { type GameRecord, ratingsReport } from '../../../engine/core/ratings/index.js';
import type { AgentUsage } from '../../../engine/tournaments/results/model-usage.js';
import { costPerRatingPoint, standingRows } from '../../../engine/tournaments/results/stats.js';

/** `wins` games of a over b, `losses` of b over a, unpaired. */
function results(a: number, b: number, wins: number, losses: number, start: number): GameRecord[] {
  return Array.from({ length: wins + losses }, (_, i) => ({
    gameIndex: start + i,
    challenge: 'psi',
    seats: [a, b],
    termination: 'completed' as const,
    placements: i < wins ? [1, 2] : [2, 1],
  }));
}

const usage = (cost: number, games: number, tokens = 1000): AgentUsage => ({
  games,
  calls: games * 3,
  prompt_tokens: tokens - 100,
  completion_tokens: 100,
  latency_ms: 900,
  cost_usd: cost,
  cost_per_game_usd: cost / games,
  fallbacks: {},
});

describe('cost per rating point', () => {
  it('is null whenever undefined and spend per game over the points above the floor otherwise', () => {
    expect(costPerRatingPoint(null, 100, 0)).toBeNull();
    expect(costPerRatingPoint(0.5, null, 0)).toBeNull();
    expect(costPerRatingPoint(0.5, 100, null)).toBeNull();
    expect(costPerRatingPoint(0.5, 0, 0)).toBeNull();
    expect(costPerRatingPoint(0.5, -10, 0)).toBeNull();
    expect(costPerRatingPoint(0.5, 50, -50)).toBe(0.005);
    // A local model that beats the floor costs nothing per point.
    expect(costPerRatingPoint(0, 50, -50)).toBe(0);
  });

  it('fills tokens, spend and cost per point in standing rows from a real rating fit', () => {
    // Three agents: model (0) > mid (1) > baseline (2), with some upsets so every rating is finite.
    const games = [...results(0, 1, 6, 4, 0), ...results(1, 2, 6, 4, 100), ...results(0, 2, 7, 3, 200)];
    const report = ratingsReport(games, { agentCount: 3 });
    const ids = ['model', 'mid-model', 'baseline'];
    const rows = standingRows(report.combined, ids, [usage(2, 20), usage(1, 20, 500), null]);
    const by = Object.fromEntries(rows.map((r) => [r.agent, r]));
    const floor = Math.min(...rows.map((r) => r.rating as number));
    expect(by.baseline?.rating).toBe(floor);
    expect(by.model).toMatchObject({ tokens: 1000, cost_usd: 2, cost_per_game_usd: 0.1 });
    expect(by.model?.cost_per_rating_point).toBeCloseTo(0.1 / ((by.model?.rating as number) - floor), 12);
    expect(by['mid-model']?.cost_per_rating_point).toBeCloseTo(0.05 / ((by['mid-model']?.rating as number) - floor), 12);
    expect(by.model?.cost_per_rating_point).toBeGreaterThan(0);
    // The scripted baseline has no spend; it is also the floor.
    expect(by.baseline).toMatchObject({ tokens: null, cost_usd: null, cost_per_game_usd: null, cost_per_rating_point: null });

    // The weakest agent with spend: defined spend, undefined cost per point.
    const flipped = standingRows(report.combined, ids, [null, null, usage(3, 20)]);
    expect(flipped.find((r) => r.agent === 'baseline')).toMatchObject({ cost_usd: 3, cost_per_rating_point: null });
    // Without usage at all, every cost column is null.
    expect(standingRows(report.combined, ids).every((r) => r.cost_per_rating_point === null && r.tokens === null)).toBe(true);
  });

  it('is null for an agent without a rating, which also does not set the floor', () => {
    // Agent 2 never played a rated game: no rating, so no cost per point even though it spent.
    const report = ratingsReport(results(0, 1, 4, 1, 0), { agentCount: 3 });
    const rows = standingRows(report.combined, ['model', 'baseline', 'idle-model'], [usage(1, 5), null, usage(0.5, 1)]);
    const by = Object.fromEntries(rows.map((r) => [r.agent, r]));
    expect(by['idle-model']).toMatchObject({ rating: null, cost_usd: 0.5, cost_per_rating_point: null });
    const above = (by.model?.rating as number) - (by.baseline?.rating as number);
    expect(above).toBeGreaterThan(0);
    expect(by.model?.cost_per_rating_point).toBeCloseTo(0.2 / above, 12);
  });
});
