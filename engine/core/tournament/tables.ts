// Tables for challenges with more than two seats (§2.1 n-seat rule): every n-combination while there are at most
// `maxTables` of them, otherwise a seeded sample balanced on how often two agents share a table. Table lists are
// bounded by maxTables (not by games), so holding one cycle's tables is within the lazy-schedule memory rule.
import type { Rng } from '../rng.js';

/** C(n, k) as a float (exact up to 2^53). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const m = Math.min(k, n - k);
  let out = 1;
  for (let i = 1; i <= m; i++) out = (out * (n - m + i)) / i;
  return Math.round(out);
}

/** All k-combinations of `items` in lexicographic order of positions, generated one at a time. */
export function* combinations<T>(items: readonly T[], k: number): Generator<T[]> {
  const n = items.length;
  if (k > n || k < 0) return;
  const idx = Array.from({ length: k }, (_, i) => i);
  while (true) {
    yield idx.map((i) => items[i] as T);
    let i = k - 1;
    while (i >= 0 && idx[i] === n - k + i) i--;
    if (i < 0) return;
    idx[i] = (idx[i] as number) + 1;
    for (let j = i + 1; j < k; j++) idx[j] = (idx[j - 1] as number) + 1;
  }
}

/**
 * A table draws `take` members from each pool in turn, e.g. round-robin: one pool of all agents; gauntlet:
 * one challenger from the challengers, then seats − 1 from the field.
 */
export interface TablePool {
  members: readonly number[];
  take: number;
}

/** Every table the pools allow (cartesian product of per-pool combinations), lazily. */
export function* allTables(pools: readonly TablePool[]): Generator<number[]> {
  const [head, ...rest] = pools;
  if (head === undefined) {
    yield [];
    return;
  }
  for (const part of combinations(head.members, head.take)) {
    for (const tail of allTables(rest)) yield [...part, ...tail];
  }
}

export function tableCount(pools: readonly TablePool[]): number {
  return pools.reduce((acc, pool) => acc * binomial(pool.members.length, pool.take), 1);
}

/**
 * `count` tables, balanced on two counts: how often each agent is seated and how often each two agents share a
 * table. A greedy pass seats, slot by slot, the candidate that shared a table least with those already seated
 * (then the least seated; remaining ties by the RNG); a local search then re-seats single seats and exchanges agents between tables
 * (within their pool) while that lowers Σ shared² + 10·seats·Σ seated², which evens both counts out.
 */
export function sampleBalancedTables(agentCount: number, pools: readonly TablePool[], count: number, rng: Rng): number[][] {
  const together = new Float64Array(agentCount * agentCount);
  const seated = new Float64Array(agentCount);
  const bump = (a: number, b: number, by: number): void => {
    together[a * agentCount + b] = (together[a * agentCount + b] as number) + by;
    together[b * agentCount + a] = (together[b * agentCount + a] as number) + by;
  };
  const out: number[][] = [];
  for (let t = 0; t < count; t++) {
    const table: number[] = [];
    for (const pool of pools) {
      for (let s = 0; s < pool.take; s++) {
        let best: number[] = [];
        let bestKey: [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
        for (const candidate of pool.members) {
          if (table.includes(candidate)) continue;
          let shared = 0;
          for (const m of table) shared += together[candidate * agentCount + m] as number;
          const key: [number, number] = [shared, seated[candidate] as number];
          const cmp = key[0] - bestKey[0] || key[1] - bestKey[1];
          if (cmp < 0) {
            best = [candidate];
            bestKey = key;
          } else if (cmp === 0) best.push(candidate);
        }
        table.push(rng.pick(best));
      }
    }
    for (let i = 0; i < table.length; i++) {
      const a = table[i] as number;
      seated[a] = (seated[a] as number) + 1;
      for (let j = i + 1; j < table.length; j++) bump(a, table[j] as number, 1);
    }
    out.push(table);
  }
  const seatWeight = 10 * pools.reduce((acc, p) => acc + p.take, 0);
  // Pool of each table slot, so a move keeps e.g. exactly one challenger per gauntlet table.
  const slotPool = pools.flatMap((pool) => new Array<readonly number[]>(pool.take).fill(pool.members));
  // Moves report the change of Σ shared² (+ seat term); a move that does not lower it is undone.
  // A fixed work budget bounds the search for large samples; it is deterministic, so the result still is.
  let budget = 4_000_000;
  const seatMember = (table: number[], slot: number, agent: number, sign: 1 | -1): number => {
    budget -= table.length;
    let delta = 0;
    for (let j = 0; j < table.length; j++) {
      if (j === slot) continue;
      const m = table[j] as number;
      const c = together[agent * agentCount + m] as number;
      delta += 2 * c * sign + 1;
      bump(agent, m, sign);
    }
    const s = seated[agent] as number;
    delta += seatWeight * (2 * s * sign + 1);
    seated[agent] = s + sign;
    return delta;
  };
  const replace = (table: number[], slot: number, agent: number): number => {
    const old = table[slot] as number;
    let delta = seatMember(table, slot, old, -1);
    table[slot] = agent;
    delta += seatMember(table, slot, agent, 1);
    return delta;
  };
  for (let sweep = 0; sweep < 50 && budget > 0; sweep++) {
    let improved = false;
    for (let t = 0; t < out.length && budget > 0; t++) {
      const table = out[t] as number[];
      for (let slot = 0; slot < table.length; slot++) {
        const x = table[slot] as number;
        // Move 1: seat an agent from outside the table instead of x (changes who plays how often).
        for (const y of slotPool[slot] ?? []) {
          if (table.includes(y)) continue;
          if (replace(table, slot, y) < 0) {
            improved = true;
            break;
          }
          replace(table, slot, x);
        }
        // Move 2: exchange x with an agent of another table (keeps every agent's table count).
        const x2 = table[slot] as number;
        for (let u = t + 1; u < out.length; u++) {
          const other = out[u] as number[];
          if (other.includes(x2)) continue;
          let done = false;
          for (let slot2 = 0; slot2 < other.length && !done; slot2++) {
            const y = other[slot2] as number;
            if (slotPool[slot2] !== slotPool[slot] || table.includes(y)) continue;
            const delta = replace(table, slot, y) + replace(other, slot2, x2);
            if (delta < 0) {
              improved = true;
              done = true;
            } else {
              replace(other, slot2, y);
              replace(table, slot, x2);
            }
          }
          if (done) break;
        }
      }
    }
    if (!improved) break;
  }
  return out;
}

/** Packs tables into rounds in which no agent sits twice: each table goes to the first round that has room for it. */
export function packIntoRounds(tables: readonly number[][]): number[][][] {
  const rounds: number[][][] = [];
  const busy: Set<number>[] = [];
  for (const table of tables) {
    let r = busy.findIndex((set) => table.every((a) => !set.has(a)));
    if (r < 0) {
      r = rounds.length;
      rounds.push([]);
      busy.push(new Set());
    }
    rounds[r]?.push(table);
    for (const a of table) busy[r]?.add(a);
  }
  return rounds;
}
