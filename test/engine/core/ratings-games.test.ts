// From game records to rated results: termination taxonomy, void games, forfeits, multiplayer reduction,
// score means and the assembled report. Expected values are worked out in the comments.
import { describe, expect, it } from 'vitest';
import {
  agentScoreMeans,
  agentWdl,
  combineMeans,
  countsForRatings,
  effectivePlacements,
  type GameRecord,
  isRated,
  meanInterval,
  pairwiseComparisons,
  partitionForRatings,
  placementsFromValues,
  ratingsReport,
  ratingUnits,
  seatScores,
  TERMINATIONS,
  terminationFault,
  wilsonInterval,
} from '../../../engine/core/ratings/index.js';

const game = (over: Partial<GameRecord> & Pick<GameRecord, 'gameIndex'>): GameRecord => ({
  challenge: 'psi',
  seats: [0, 1],
  termination: 'completed',
  placements: [1, 2],
  ...over,
});

describe('termination taxonomy', () => {
  it('rates normal endings and agent faults only', () => {
    const rated = TERMINATIONS.filter(isRated);
    expect(rated).toEqual([
      'completed',
      'adjudicated',
      'agent_timeout',
      'agent_crash',
      'agent_illegal_action',
      'agent_protocol_violation',
      'agent_resource_limit',
    ]);
    expect(terminationFault('harness_error')).toBe('harness');
    expect(terminationFault('provider_error')).toBe('external');
    expect(terminationFault('interrupted')).toBe('operator');
    expect(terminationFault('agent_crash')).toBe('agent');
  });

  it('scores a forfeit as a loss for the faulted seat, never for a harness fault', () => {
    // Seat 1 timed out → seat 0 wins whatever placements say.
    expect(seatScores(game({ gameIndex: 0, termination: 'agent_timeout', faultedSeats: [1], placements: [2, 1] }))).toEqual([1, 0]);
    // Both seats faulted → both last → a draw.
    expect(seatScores(game({ gameIndex: 1, termination: 'agent_crash', faultedSeats: [0, 1] }))).toEqual([0.5, 0.5]);
    expect(() => effectivePlacements(game({ gameIndex: 2, termination: 'harness_error' }))).toThrow(/void/);
    expect(() => effectivePlacements(game({ gameIndex: 3, termination: 'agent_crash' }))).toThrow(/faultedSeats/);
  });
});

describe('countsForRatings', () => {
  it('drops void games and the rest of their pair until a replay completes it', () => {
    const games: GameRecord[] = [
      // Pair 0/1 complete.
      game({ gameIndex: 0, setSize: 2 }),
      game({ gameIndex: 1, setSize: 2, swapOf: 0, seats: [1, 0] }),
      // Pair 2/3: game 3 hit a harness error and was never replayed → the whole pair is held back.
      game({ gameIndex: 2, setSize: 2 }),
      game({ gameIndex: 3, setSize: 2, swapOf: 2, seats: [1, 0], termination: 'harness_error' }),
      // Pair 4/5: game 5 was lost to a provider outage, then replayed (same unit and seats) as game 6.
      game({ gameIndex: 4, setSize: 2 }),
      game({ gameIndex: 5, setSize: 2, swapOf: 4, seats: [1, 0], termination: 'provider_error' }),
      game({ gameIndex: 6, setSize: 2, swapOf: 4, seats: [1, 0] }),
      // Unpaired forfeit: rated.
      game({ gameIndex: 7, termination: 'agent_illegal_action', faultedSeats: [0] }),
      // Unpaired, interrupted: void.
      game({ gameIndex: 8, termination: 'interrupted' }),
    ];
    const partition = partitionForRatings(games);
    expect(partition.rated.map((g) => g.gameIndex)).toEqual([0, 1, 4, 6, 7]);
    expect(partition.voided.map((g) => g.gameIndex)).toEqual([3, 5, 8]);
    expect(partition.incompleteUnits).toEqual(['psi#2']);
    expect(countsForRatings(games)).toEqual(partition.rated);
    // A harness fault never becomes an agent loss: W/D/L of agent 0 over rated games:
    // g0 win, g1 (seats [1,0], placements [1,2]) loss, g4 win, g6 loss, g7 forfeit by 0 → loss.
    expect(agentWdl(countsForRatings(games), 2)[0]).toEqual({ wins: 2, draws: 0, losses: 3 });
  });
});

describe('multiplayer reduction', () => {
  it('compares every opposed seat pair with weight 1/(n − 1)', () => {
    // 3 seats, placements [1, 2, 2]: (0,1) y=1, (0,2) y=1, (1,2) tie y=½, each weight ½.
    const g = game({ gameIndex: 0, challenge: 'dc', seats: [4, 5, 6], placements: [1, 2, 2] });
    expect(pairwiseComparisons(g)).toEqual([
      { a: 4, b: 5, y: 1, weight: 0.5 },
      { a: 4, b: 6, y: 1, weight: 0.5 },
      { a: 5, b: 6, y: 0.5, weight: 0.5 },
    ]);
    // Placement percentile: seat 0 beats both → 1; seats 1, 2: (0 + ½)/2 = ¼.
    expect(seatScores(g)).toEqual([1, 0.25, 0.25]);
  });

  it('never compares team-mates or an agent with itself', () => {
    // Teams [0, 0, 1, 1], team 0 placed first: 4 cross-team comparisons, weight 1/3 each.
    const g = game({ gameIndex: 0, seats: [0, 1, 2, 3], teams: [0, 0, 1, 1], placements: [1, 1, 2, 2] });
    const c = pairwiseComparisons(g);
    expect(c.map((x) => [x.a, x.b, x.y])).toEqual([
      [0, 2, 1],
      [0, 3, 1],
      [1, 2, 1],
      [1, 3, 1],
    ]);
    expect(c.every((x) => x.weight === 1 / 3)).toBe(true);
    // Self-play seats are not compared.
    expect(pairwiseComparisons(game({ gameIndex: 1, seats: [2, 2] }))).toEqual([]);
  });

  it('derives placements from a per-seat value', () => {
    // Utilities [.5, 1, .5] → seat 1 first, seats 0 and 2 share second.
    expect(placementsFromValues([0.5, 1, 0.5])).toEqual([2, 1, 2]);
  });
});

describe('security and utility means', () => {
  it('uses a Student-t interval over units', () => {
    // Values 1, −1, 1, 1: mean .5; s² = (3·.25 + 2.25)/3 = 1 → SE = 1/√4 = .5;
    // t(.975, 3) = 3.182446 → half-width 1.591223 → [−1.091223, 2.091223].
    const m = meanInterval([1, -1, 1, 1]);
    expect(m?.mean).toBe(0.5);
    expect(m?.se).toBe(0.5);
    expect(m?.lower).toBeCloseTo(-1.091223, 5);
    expect(m?.upper).toBeCloseTo(2.091223, 5);
    expect(meanInterval([])).toBeNull();
    expect(meanInterval([3])?.lower).toBeNaN();
  });

  it('averages an agent’s seats within a pair before taking the mean', () => {
    // Agent 0: pair 0/1 securities 1 and −1 → unit mean 0; pair 2/3: 1 and 1 → 1; unpaired game 4: 1.
    // Observations 0, 1, 1 → mean 2/3.
    const s = (security: number, other = 0) => [
      { security, utility: 0 },
      { security: other, utility: 1 },
    ];
    const games: GameRecord[] = [
      game({ gameIndex: 0, setSize: 2, scores: s(1) }),
      game({
        gameIndex: 1,
        setSize: 2,
        swapOf: 0,
        seats: [1, 0],
        scores: [
          { security: 0, utility: 1 },
          { security: -1, utility: 0 },
        ],
      }),
      game({ gameIndex: 2, setSize: 2, scores: s(1) }),
      game({
        gameIndex: 3,
        setSize: 2,
        swapOf: 2,
        seats: [1, 0],
        scores: [
          { security: 0, utility: 1 },
          { security: 1, utility: 0 },
        ],
      }),
      game({ gameIndex: 4, scores: s(1) }),
    ];
    const means = agentScoreMeans(games, 2);
    expect(means[0]?.security?.n).toBe(3);
    expect(means[0]?.security?.mean).toBeCloseTo(2 / 3, 12);
    expect(means[1]?.utility?.mean).toBe(1);
  });

  it('combines challenges with equal weight', () => {
    // Means .2 (SE .1) and .6 (SE .2) → .4; SE = √(.01 + .04)/2 = .111803 → ± 1.959964·.111803 = .219131.
    const c = combineMeans([{ mean: 0.2, se: 0.1, lower: 0, upper: 0, n: 10 }, { mean: 0.6, se: 0.2, lower: 0, upper: 0, n: 5 }, null]);
    expect(c?.mean).toBeCloseTo(0.4, 12);
    expect(c?.upper).toBeCloseTo(0.619131, 5);
    expect(c?.n).toBe(15);
  });

  it('gives Wilson intervals for rates', () => {
    // 8 of 10: centre (.8 + 1.920729/10)/(1 + 3.841459/10) = .716740; half 1.959964·√(.016 + .009604)/1.384146 = .226577.
    const w = wilsonInterval(8, 10);
    expect(w?.lower).toBeCloseTo(0.490163, 5);
    expect(w?.upper).toBeCloseTo(0.943317, 5);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('ratings report', () => {
  /** n seat-swapped pairs on `challenge` in which `winner` wins both games. */
  function sweep(challenge: string, winner: number, loser: number, pairs: number, start: number): GameRecord[] {
    const out: GameRecord[] = [];
    for (let i = 0; i < pairs; i++) {
      const head = start + 2 * i;
      out.push({ gameIndex: head, challenge, seats: [winner, loser], setSize: 2, termination: 'completed', placements: [1, 2] });
      out.push({
        gameIndex: head + 1,
        challenge,
        seats: [loser, winner],
        setSize: 2,
        swapOf: head,
        termination: 'completed',
        placements: [2, 1],
      });
    }
    return out;
  }

  it('weighs every challenge equally in the combined board', () => {
    // Challenge "big": agent 0 wins 20 pairs (40 games); challenge "small": agent 1 wins 2 pairs (4 games).
    // Weights 1/40 and 1/4 give each challenge total weight 1, so the combined fit is symmetric: 1000 each.
    const games = [...sweep('big', 0, 1, 20, 0), ...sweep('small', 1, 0, 2, 100)];
    const report = ratingsReport(games, { agentCount: 2 });
    expect(report.combined.agents[0]?.rating.rating).toBeCloseTo(1000, 6);
    expect(report.combined.agents[1]?.rating.rating).toBeCloseTo(1000, 6);
    // The weights are scaled to the effective sample size ((Σw)²/Σw² = 4/.275 = 14.545 games), not to a total of 2:
    // Clopper–Pearson on a score of 7.273 of 14.545 → [.235050, .764950] (scipy beta.ppf) → rating difference
    // ±400·log10(.76495/.23505) = ±204.99, i.e. 1000 ± 102.49 for agent 0: width 204.99.
    const combinedWidth = (report.combined.agents[0]?.rating.upper as number) - (report.combined.agents[0]?.rating.lower as number);
    expect(combinedWidth).toBeCloseTo(204.99, 1);
    // Per challenge, "big" is decisive: 40 wins + 2 virtual draws → s = 41/42 → 400·log10(41)/2 = 322.55 above 1000.
    expect(report.perChallenge['big']?.agents[0]?.rating.rating).toBeCloseTo(1000 + 200 * Math.log10(41), 6);
    expect(report.perChallenge['big']?.agents[0]?.wdl).toEqual({ wins: 40, draws: 0, losses: 0 });
    expect(report.combined.agents[0]?.wdl).toEqual({ wins: 40, draws: 0, losses: 4 });
    expect(report.combined.agents[0]?.points).toBe(40);
    expect(report.combined.games).toBe(44);
  });

  it('reports void games and builds one rating unit per pair', () => {
    const games = [...sweep('psi', 0, 1, 3, 0), game({ gameIndex: 50, termination: 'harness_stall' })];
    const report = ratingsReport(games, { agentCount: 2 });
    expect(report.voidedGames).toBe(1);
    expect(report.combined.games).toBe(6);
    const units = ratingUnits(countsForRatings(games));
    expect(units).toHaveLength(3);
    expect(units.every((u) => u.comparisons.length === 2)).toBe(true);
    // Two agents → head-to-head block: 6 wins of agent 0, three WW pairs.
    expect(report.headToHead?.combined.wdl).toEqual({ wins: 6, draws: 0, losses: 0 });
    expect(report.headToHead?.combined.pentanomial).toEqual([0, 0, 0, 0, 3]);
    // A perfect record: no point Elo and no upper bound, only a lower one.
    expect(report.headToHead?.perChallenge['psi']?.trinomial?.elo).toBeNull();
    expect(report.headToHead?.perChallenge['psi']?.trinomial?.eloUpper).toBeNull();
    expect(report.headToHead?.perChallenge['psi']?.trinomial?.eloLower).toBeGreaterThan(0);
  });
});
