// Round-robin rounds (§2.1). Two seats: the circle (Berger) method, one meeting per agent per round, a sit-out
// each round when the agent count is odd. More seats: tables from tables.ts packed into rounds.
import { derivedRng, shuffleInPlace } from './seeds.js';
import { allTables, packIntoRounds, sampleBalancedTables, type TablePool, tableCount } from './tables.js';

export const DEFAULT_MAX_TABLES = 200;

/**
 * Meetings of circle-method round `r` (from 0) for `agentCount` agents, each in first-game seat order.
 * Agent m − 1 stays fixed while the others turn; with an odd count a phantom agent fills the circle and
 * whoever meets it sits out. The fixed agent's seat alternates with the round so it is not always first.
 */
export function bergerRound(agentCount: number, r: number): Array<[number, number]> {
  const m = agentCount % 2 === 0 ? agentCount : agentCount + 1;
  const ring = m - 1;
  const at = (i: number): number => (i + r) % ring;
  const fixed = m - 1;
  const out: Array<[number, number]> = [];
  out.push(r % 2 === 0 ? [at(0), fixed] : [fixed, at(0)]);
  for (let i = 1; i < m / 2; i++) out.push([at(i), at(ring - i)]);
  return out.filter(([a, b]) => a < agentCount && b < agentCount);
}

export function roundRobinRoundCount(agentCount: number): number {
  return agentCount % 2 === 0 ? agentCount - 1 : agentCount;
}

/** Meetings per cycle: C(N, 2) for two seats, else the number of tables (all combinations or the sample size). */
export function roundRobinMeetingsPerCycle(agentCount: number, seats: number, maxTables = DEFAULT_MAX_TABLES): number {
  if (seats === 2) return (agentCount * (agentCount - 1)) / 2;
  return Math.min(tableCount([{ members: range(agentCount), take: seats }]), maxTables);
}

export interface RoundsOptions {
  agentCount: number;
  seats: number;
  cycles: number;
  maxTables: number;
  seed: string;
  challenge: string;
}

/** Yields each round's tables (agents in first-game seat order), rounds in order, across all cycles. */
export function* roundRobinRounds(opts: RoundsOptions): Generator<number[][]> {
  const { agentCount, seats } = opts;
  if (seats < 2) throw new RangeError(`round-robin needs at least 2 seats per game, got ${seats}`);
  if (agentCount < seats) throw new RangeError(`round-robin on a ${seats}-seat challenge needs at least ${seats} agents`);
  let round = 0;
  for (let cycle = 0; cycle < opts.cycles; cycle++) {
    const rounds =
      seats === 2 ? circleRounds(agentCount, cycle % 2 === 1) : tableRounds([{ members: range(agentCount), take: seats }], opts, cycle);
    for (const tables of rounds) {
      round++;
      // Meeting order inside a round is fixed by the seed (§2.1).
      yield shuffleInPlace(tables, derivedRng(opts.seed, `round-order:${opts.challenge}:${round}`));
    }
  }
}

function* circleRounds(agentCount: number, flip: boolean): Generator<number[][]> {
  for (let r = 0; r < roundRobinRoundCount(agentCount); r++) {
    // A repeated cycle swaps every first seat, which matters when meetings are not played as pairs.
    yield bergerRound(agentCount, r).map(([a, b]) => (flip ? [b, a] : [a, b]));
  }
}

/** One cycle of n-seat tables: all combinations or a balanced sample, shuffled by the seed, packed into rounds. */
export function tableRounds(
  pools: readonly TablePool[],
  opts: Pick<RoundsOptions, 'agentCount' | 'maxTables' | 'seed' | 'challenge'>,
  cycle: number,
): number[][][] {
  const rng = derivedRng(opts.seed, `tables:${opts.challenge}:${cycle}`);
  const tables =
    tableCount(pools) <= opts.maxTables ? [...allTables(pools)] : sampleBalancedTables(opts.agentCount, pools, opts.maxTables, rng);
  shuffleInPlace(tables, rng);
  return packIntoRounds(tables);
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
