// Honest statistics under adaptive sampling (issue 46): on simulated fields the adaptive schedule decides wrongly no
// more often than its nominal level even where pairs are nearly level and it looks after every unit, the rating
// intervals reported after an adaptive run keep their coverage, and it needs far fewer games than round-robin.
import { describe, expect, it } from 'vitest';
import { compareSchedules, runAdaptive } from '../../../engine/core/tournament/adaptive-simulation.js';

describe('adaptive format on simulated fields', () => {
  it('near-level pairs at 80% confidence: decided pairs are wrong at most 20% of the time', () => {
    // Gaps of 30 Elo and a cap of 3000 games: many pairs get decided late, after hundreds of looks.
    let decided = 0;
    let wrong = 0;
    for (let rep = 0; rep < 60; rep++) {
      const run = runAdaptive(
        { elo: [60, 0, 30] },
        { seed: `near-${rep}`, confidence: 0.8, topK: null, gamesPerMeeting: 2, batchMeetings: 1, budgetGames: 3000 },
        `near-${rep}`,
      );
      decided += run.decidedPairs;
      wrong += run.wrongPairs;
    }
    expect(decided).toBeGreaterThan(20);
    expect(wrong / decided).toBeLessThanOrEqual(0.2);
  }, 120_000);

  it('resolves 6-agent fields in under half the round-robin games, with intervals that keep their coverage', () => {
    const row = compareSchedules({ agents: 6, fields: 6, seed: 'sim-test' });
    expect(row.resolved).toBe(6);
    expect(row.adaptiveGames / row.roundRobinGames).toBeLessThanOrEqual(0.5);
    expect(row.wrongPairs / row.decidedPairs).toBeLessThanOrEqual(0.05);
    expect(row.intervals.covered / row.intervals.checked).toBeGreaterThanOrEqual(0.85);
    expect(row.sequences.covered / row.sequences.checked).toBeGreaterThanOrEqual(0.95);
  }, 120_000);
});
