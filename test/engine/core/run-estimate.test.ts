// The duration estimate before Start (issue 43): bounded by what it knows (never more than every game using its whole
// limit, never less than one game), says whose games it measured, and never prints a real median as "0.0 s".
import { describe, expect, it } from 'vitest';
import { durationText, estimateDuration, gameTimeText, MIN_SAMPLES } from '../../../engine/core/tournament/run-estimate.js';

const base = { planned: 12, concurrency: 2, gamesPerPairing: 4, gameSeconds: 300 };
const psi = (agentGames: number[], allGames: number[]) => ({ challenge: 'psi', agentGames, allGames });

describe('estimateDuration', () => {
  it("prefers these agents' past games over other agents' games of the challenge", () => {
    const est = estimateDuration({ ...base, times: [psi([40, 50, 60], [40, 50, 60, 9000, 9000, 9000, 9000])] });
    expect(est.per_challenge).toEqual([{ challenge: 'psi', samples: 3, median_ms: 50, source: 'agents' }]);
    // 12 games, 2 at a time: 6 waves of a 50 ms game.
    expect(est.seconds).toBeCloseTo(0.3, 9);
    expect(est.worst_case_seconds).toBe(6 * 300);
    expect(est.warnings).toEqual([]);
  });

  it("falls back to any agents' games of the challenge, and says so", () => {
    const est = estimateDuration({ ...base, times: [psi([40], [2000, 3000, 4000])] });
    expect(est.per_challenge[0]).toMatchObject({ source: 'challenge', samples: 3, median_ms: 3000 });
    expect(est.seconds).toBeCloseTo(18, 9);
  });

  it('with nothing measured gives only the bound from the game limit, and warns that it is one', () => {
    const est = estimateDuration({ ...base, times: [psi([], Array(MIN_SAMPLES - 1).fill(10))] });
    expect(est.per_challenge[0]).toMatchObject({ source: 'limits', median_ms: null });
    expect(est.seconds).toBeNull();
    expect(est.worst_case_seconds).toBe(1800);
    expect(est.warnings.join(' ')).toMatch(/No measured games of psi .* at most 30 min \(every game using its whole 300 s game limit\)/);
  });

  it('is never less than one game: fewer games than the concurrency still take a game each', () => {
    const est = estimateDuration({ ...base, planned: 3, concurrency: 8, times: [psi([2000, 2000, 2000], [])] });
    expect(est.seconds).toBeCloseTo(2, 9);
    expect(est.worst_case_seconds).toBe(300);
  });

  it('is never more than the worst case, even when old games ran under a longer limit', () => {
    const est = estimateDuration({ ...base, gameSeconds: 5, times: [psi([60_000, 60_000, 60_000], [])] });
    expect(est.seconds).toBe(est.worst_case_seconds);
    expect(est.worst_case_seconds).toBe(30);
  });

  it('averages the challenges of a multi-challenge run; one unmeasured challenge leaves only the bound', () => {
    const two = [psi([1000, 1000, 1000], []), { challenge: 'millionaire', agentGames: [3000, 3000, 3000], allGames: [] }];
    expect(estimateDuration({ ...base, times: two }).seconds).toBeCloseTo(6 * 2, 9);
    const oneUnmeasured = [two[0] as ReturnType<typeof psi>, { challenge: 'ultimatum', agentGames: [], allGames: [] }];
    const est = estimateDuration({ ...base, times: oneUnmeasured });
    expect(est.seconds).toBeNull();
    expect(est.warnings.join(' ')).toMatch(/No measured games of ultimatum/);
  });

  it('warns about a very long run and about very many games', () => {
    const long = estimateDuration({
      ...base,
      planned: 200_000,
      gamesPerPairing: 100_000,
      concurrency: 1,
      times: [psi([1000, 1000, 1000], [])],
    });
    expect(long.warnings.join(' ')).toMatch(/about 2\.3 days at concurrency 1/);
    expect(long.warnings.join(' ')).toMatch(/200,000 games planned \(100,000 per pairing\)/);
  });
});

describe('duration wording', () => {
  it('prints a fast game in milliseconds, never "0.0 s"', () => {
    expect(gameTimeText(40)).toBe('40 ms');
    expect(gameTimeText(0.4)).toBe('under 1 ms');
    expect(gameTimeText(999.6)).toBe('1000 ms');
    expect(gameTimeText(2345)).toBe('2.3 s');
    expect(gameTimeText(45_000)).toBe('45 s');
    expect(gameTimeText(240_000)).toBe('4 min');
    for (const ms of [0.001, 1, 49, 50, 51, 99]) expect(gameTimeText(ms)).not.toMatch(/^0(\.0)? s$/);
  });

  it('prints a run as under 1 s, seconds, minutes, hours or days', () => {
    expect(durationText(0.3)).toBe('under 1 s');
    expect(durationText(40)).toBe('40 s');
    expect(durationText(720)).toBe('12 min');
    expect(durationText(3.5 * 3600)).toBe('3.5 h');
    expect(durationText(4.2 * 86400)).toBe('4.2 days');
  });
});
