// Swiss system (§2.3, project decision): standings with Buchholz, Sonneborn–Berger and direct-encounter
// tie-breaks, and a pairing search that never repeats a meeting while that is avoidable and otherwise keeps
// floats (meetings across score groups) to a minimum.
import type { Rng } from '../rng.js';
import { meetingGames } from './meeting-games.js';
import type { MeetingGamesOptions, ScheduledGame } from './types.js';

export type SwissHistoryEntry =
  | { round: number; agents: [number, number]; points: [number, number] }
  | { round: number; bye: number; points: number };

export interface SwissStanding {
  agent: number;
  /** 1 = top of the table. */
  place: number;
  points: number;
  /** Sum of the opponents' points (byes have no opponent and add nothing). */
  buchholz: number;
  /** Sum over meetings of own meeting points × opponent's points. */
  sonnebornBerger: number;
  /** Points scored against agents tied on points, Buchholz and Sonneborn–Berger (0 when not tied). */
  directEncounter: number;
  byes: number;
  /** Meetings in which this agent had more points than its opponent before the round. */
  downFloats: number;
  opponents: number[];
}

export interface SwissRoundPairing {
  round: number;
  /** Meetings in board order (best-placed first); agents[0] takes seat 0 in the meeting's first game. */
  meetings: Array<[number, number]>;
  bye: number | null;
  /** Meetings between agents with different points. */
  floats: number;
  /** Repeated meetings (0 unless no pairing without one exists). */
  rematches: number;
}

/** Default rounds: ceil(log2 N) + 1, at most N − 1. */
export function defaultSwissRounds(agentCount: number): number {
  return Math.max(1, Math.min(Math.ceil(Math.log2(agentCount)) + 1, agentCount - 1));
}

function isBye(entry: SwissHistoryEntry): entry is { round: number; bye: number; points: number } {
  return 'bye' in entry;
}

export function swissStandings(agentCount: number, history: readonly SwissHistoryEntry[]): SwissStanding[] {
  const rows: SwissStanding[] = Array.from({ length: agentCount }, (_, agent) => ({
    agent,
    place: 0,
    points: 0,
    buchholz: 0,
    sonnebornBerger: 0,
    directEncounter: 0,
    byes: 0,
    downFloats: 0,
    opponents: [],
  }));
  const row = (agent: number): SwissStanding => {
    const r = rows[agent];
    if (r === undefined) throw new RangeError(`agent ${agent} is outside 0..${agentCount - 1}`);
    return r;
  };
  // Replay round by round: a float is judged on the points held before that round.
  const rounds = [...new Set(history.map((e) => e.round))].sort((a, b) => a - b);
  for (const round of rounds) {
    const before = rows.map((r) => r.points);
    for (const entry of history) {
      if (entry.round !== round) continue;
      if (isBye(entry)) {
        row(entry.bye).points += entry.points;
        row(entry.bye).byes++;
        continue;
      }
      const [a, b] = entry.agents;
      row(a).points += entry.points[0];
      row(b).points += entry.points[1];
      row(a).opponents.push(b);
      row(b).opponents.push(a);
      const pa = before[a] as number;
      const pb = before[b] as number;
      if (pa > pb) row(a).downFloats++;
      if (pb > pa) row(b).downFloats++;
    }
  }
  for (const entry of history) {
    if (isBye(entry)) continue;
    const [a, b] = entry.agents;
    row(a).buchholz += row(b).points;
    row(b).buchholz += row(a).points;
    row(a).sonnebornBerger += entry.points[0] * row(b).points;
    row(b).sonnebornBerger += entry.points[1] * row(a).points;
  }
  const primary = (x: SwissStanding, y: SwissStanding): number =>
    y.points - x.points || y.buchholz - x.buchholz || y.sonnebornBerger - x.sonnebornBerger;
  const sorted = [...rows].sort((x, y) => primary(x, y) || x.agent - y.agent);
  // Direct encounter only separates agents still tied after the first three criteria.
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && primary(sorted[i] as SwissStanding, sorted[j] as SwissStanding) === 0) j++;
    if (j - i > 1) {
      const group = new Set(sorted.slice(i, j).map((r) => r.agent));
      for (const entry of history) {
        if (isBye(entry)) continue;
        const [a, b] = entry.agents;
        if (group.has(a) && group.has(b)) {
          row(a).directEncounter += entry.points[0];
          row(b).directEncounter += entry.points[1];
        }
      }
      const part = sorted.slice(i, j).sort((x, y) => y.directEncounter - x.directEncounter || x.agent - y.agent);
      sorted.splice(i, j - i, ...part);
    }
    i = j;
  }
  sorted.forEach((r, i) => {
    r.place = i + 1;
  });
  return sorted;
}

const REMATCH = 1_000_000;
const REPEAT_FLOAT = 1_000;

interface SearchResult {
  pairs: Array<[number, number]>;
  cost: number;
}

/**
 * Deterministic branch-and-bound over the standings order: the first unpaired agent is matched with candidates
 * in preference order (its bottom-half partner in its score group, the rest of the group, then lower groups).
 * Cost = rematches ≫ repeated down-floats ≫ floats; among equal costs the first found (seed/standings order) wins.
 */
function searchPairing(order: readonly SwissStanding[], met: ReadonlySet<string>, maxNodes: number): SearchResult {
  const n = order.length;
  const candidates: number[][] = order.map((s, p) => {
    let gs = p;
    while (gs > 0 && (order[gs - 1] as SwissStanding).points === s.points) gs--;
    let ge = p + 1;
    while (ge < n && (order[ge] as SwissStanding).points === s.points) ge++;
    const k = ge - gs;
    const i = p - gs;
    const h = Math.floor(k / 2);
    const same: number[] = [];
    if (i < h) {
      for (let q = i + h; q < k; q++) same.push(gs + q);
      for (let q = i + h - 1; q > i; q--) same.push(gs + q);
    } else {
      for (let q = i + 1; q < k; q++) same.push(gs + q);
    }
    const lower: number[] = [];
    for (let q = ge; q < n; q++) lower.push(q);
    return [...same, ...lower];
  });
  const pairCost = (p: number, q: number): number => {
    const a = order[p] as SwissStanding;
    const b = order[q] as SwissStanding;
    let cost = met.has(meetingKey(a.agent, b.agent)) ? REMATCH : 0;
    if (a.points !== b.points) cost += 1 + (a.downFloats > 0 ? REPEAT_FLOAT : 0);
    return cost;
  };
  // At least ceil(#odd score groups / 2) floats remain among the unpaired agents.
  const floatBound = (paired: boolean[]): number => {
    let odd = 0;
    for (let p = 0; p < n; ) {
      let q = p;
      let count = 0;
      const pts = (order[p] as SwissStanding).points;
      while (q < n && (order[q] as SwissStanding).points === pts) {
        if (!paired[q]) count++;
        q++;
      }
      if (count % 2 === 1) odd++;
      p = q;
    }
    return Math.ceil(odd / 2);
  };
  const paired = new Array<boolean>(n).fill(false);
  const current: Array<[number, number]> = [];
  let best: SearchResult = { pairs: [], cost: Number.POSITIVE_INFINITY };
  let nodes = 0;
  const dfs = (cost: number): void => {
    nodes++;
    if (cost + floatBound(paired) >= best.cost) return;
    const p = paired.indexOf(false);
    if (p < 0) {
      best = { pairs: current.map(([x, y]) => [x, y]), cost };
      return;
    }
    paired[p] = true;
    for (const q of candidates[p] as number[]) {
      if (paired[q]) continue;
      if (nodes > maxNodes && best.cost < Number.POSITIVE_INFINITY) break;
      paired[q] = true;
      current.push([p, q]);
      dfs(cost + pairCost(p, q));
      current.pop();
      paired[q] = false;
      if (best.cost === 0) break;
    }
    paired[p] = false;
  };
  dfs(0);
  return {
    pairs: best.pairs.map(([p, q]) => [(order[p] as SwissStanding).agent, (order[q] as SwissStanding).agent]),
    cost: best.cost,
  };
}

export function meetingKey(a: number, b: number): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

export interface SwissRoundOptions {
  /** Search budget per bye candidate; the best pairing found so far is used when it runs out. Default 50 000. */
  maxNodes?: number;
}

/**
 * Pairs the next round from the current standings (swissStandings order) and the history. The RNG only decides
 * who sits first in each meeting; with paired games that choice has no effect on fairness.
 */
export function nextSwissRound(
  standings: readonly SwissStanding[],
  history: readonly SwissHistoryEntry[],
  rng: Rng,
  options: SwissRoundOptions = {},
): SwissRoundPairing {
  const maxNodes = options.maxNodes ?? 50_000;
  const round = history.reduce((m, e) => Math.max(m, e.round), 0) + 1;
  const met = new Set<string>();
  for (const e of history) if (!isBye(e)) met.add(meetingKey(e.agents[0], e.agents[1]));
  const order = [...standings].sort((a, b) => a.place - b.place);
  let bye: number | null = null;
  let result: SearchResult;
  if (order.length % 2 === 0) {
    result = searchPairing(order, met, maxNodes);
  } else {
    // Bye: lowest-placed agent without one; a higher one only when that avoids a rematch.
    const reversed = [...order].reverse();
    const fresh = reversed.filter((s) => s.byes === 0);
    const byeCandidates = fresh.length > 0 ? fresh : reversed;
    let chosen: { agent: number; result: SearchResult } | null = null;
    for (const candidate of byeCandidates) {
      const r = searchPairing(
        order.filter((s) => s.agent !== candidate.agent),
        met,
        maxNodes,
      );
      if (chosen === null || r.cost < chosen.result.cost) chosen = { agent: candidate.agent, result: r };
      if (r.cost < REMATCH) break;
    }
    if (chosen === null) throw new RangeError('swiss pairing needs at least one agent');
    bye = chosen.agent;
    result = chosen.result;
  }
  const pointsOf = new Map(order.map((s) => [s.agent, s.points]));
  let floats = 0;
  let rematches = 0;
  const meetings = result.pairs.map(([a, b]): [number, number] => {
    if (pointsOf.get(a) !== pointsOf.get(b)) floats++;
    if (met.has(meetingKey(a, b))) rematches++;
    return rng.next() < 0.5 ? [a, b] : [b, a];
  });
  return { round, meetings, bye, floats, rematches };
}

/**
 * The games of a swiss round: every meeting plays gamesPerPairing games on each challenge. pairingIndex is
 * board × challenges + challenge position, so it stays unique within the round.
 */
export function swissRoundGames(pairing: SwissRoundPairing, options: MeetingGamesOptions, firstGameIndex: number): ScheduledGame[] {
  const out: ScheduledGame[] = [];
  let gameIndex = firstGameIndex;
  pairing.meetings.forEach((table, board) => {
    options.challenges.forEach((challenge, c) => {
      if (challenge.seats !== 2) throw new RangeError(`swiss needs two-seat challenges; ${challenge.id} has ${challenge.seats}`);
      const plan = {
        challenge: challenge.id,
        round: pairing.round,
        pairingIndex: board * options.challenges.length + c,
        table,
        gamesPerPairing: options.gamesPerPairing,
      };
      for (const game of meetingGames(plan, options.seed, gameIndex)) {
        out.push(game);
        gameIndex++;
      }
    });
  });
  return out;
}

/** Points a bye is worth by default (§2.3): every game of a meeting won. */
export function defaultByePoints(gamesPerPairing: number, challengeCount = 1): number {
  return gamesPerPairing * challengeCount;
}

/** Sums the per-seat scores of a meeting's games into meeting points for `agents`. */
export function meetingPoints(
  agents: readonly [number, number],
  games: ReadonlyArray<{ seats: readonly number[]; seatScores: readonly number[] }>,
): [number, number] {
  const points: [number, number] = [0, 0];
  for (const game of games) {
    game.seats.forEach((agent, seat) => {
      const score = game.seatScores[seat] ?? 0;
      if (agent === agents[0]) points[0] += score;
      else if (agent === agents[1]) points[1] += score;
    });
  }
  return points;
}
