// Gauntlet (§2.2): the first `challengers` agents each meet every other agent; the field never meets itself.

import { type RoundsOptions, range, tableRounds } from './round-robin.js';
import { derivedRng, shuffleInPlace } from './seeds.js';
import { type TablePool, tableCount } from './tables.js';

export interface GauntletOptions extends RoundsOptions {
  challengers: number;
}

function pools(agentCount: number, challengers: number, seats: number): TablePool[] {
  return [
    { members: range(challengers), take: 1 },
    { members: range(agentCount).slice(challengers), take: seats - 1 },
  ];
}

function check(agentCount: number, challengers: number, seats: number): void {
  if (!Number.isInteger(challengers) || challengers < 1 || challengers >= agentCount) {
    throw new RangeError(`gauntlet needs 1 ≤ challengers < agents (${agentCount}), got ${challengers}`);
  }
  if (seats < 2) throw new RangeError(`gauntlet needs at least 2 seats per game, got ${seats}`);
  if (agentCount - challengers < seats - 1)
    throw new RangeError(`gauntlet on a ${seats}-seat challenge needs at least ${seats - 1} field agents`);
}

export function gauntletMeetingsPerCycle(agentCount: number, challengers: number, seats: number, maxTables: number): number {
  check(agentCount, challengers, seats);
  if (seats === 2) return challengers * (agentCount - challengers);
  return Math.min(tableCount(pools(agentCount, challengers, seats)), maxTables);
}

/**
 * Two seats: with k challengers and M field agents, L = max(k, M) rounds; challenger c meets field agent f in
 * round (f − c) mod L, so each meeting happens once and nobody plays twice in a round.
 */
export function* gauntletRounds(opts: GauntletOptions): Generator<number[][]> {
  const { agentCount, challengers: k, seats } = opts;
  check(agentCount, k, seats);
  const m = agentCount - k;
  let round = 0;
  for (let cycle = 0; cycle < opts.cycles; cycle++) {
    const rounds = seats === 2 ? latinRounds(k, m, cycle % 2 === 1) : tableRounds(pools(agentCount, k, seats), opts, cycle);
    for (const tables of rounds) {
      round++;
      yield shuffleInPlace(tables, derivedRng(opts.seed, `round-order:${opts.challenge}:${round}`));
    }
  }
}

function* latinRounds(k: number, m: number, flip: boolean): Generator<number[][]> {
  const l = Math.max(k, m);
  for (let r = 0; r < l; r++) {
    const tables: number[][] = [];
    for (let c = 0; c < k; c++) {
      const f = (c + r) % l;
      if (f >= m) continue;
      // Alternate who sits first so unpaired meetings spread the first seat.
      const first = ((r + c) % 2 === 0) !== flip;
      tables.push(first ? [c, k + f] : [k + f, c]);
    }
    yield tables;
  }
}
