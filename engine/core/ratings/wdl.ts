// Win/draw/loss and pentanomial counts (§3.1, §4). Multiplayer games contribute through their pairwise
// comparisons (§7.2): beating one opponent and losing to another is one win and one loss.
import { type GameRecord, unitKey } from './game-record.js';
import { pairwiseComparisons, seatScores } from './outcomes.js';

export interface Wdl {
  wins: number;
  draws: number;
  losses: number;
}

/** Pair bins [LL, LD, DD+WL, WD, WW] (pair scores 0, ¼, ½, ¾, 1), as fastchess prints `Ptnml(0-2)`. */
export type Pentanomial = [number, number, number, number, number];

export function emptyWdl(): Wdl {
  return { wins: 0, draws: 0, losses: 0 };
}

function tally(wdl: Wdl, y: number): void {
  if (y === 1) wdl.wins++;
  else if (y === 0) wdl.losses++;
  else wdl.draws++;
}

/** W/D/L per agent over all its comparisons in `games` (which should already be filtered by countsForRatings). */
export function agentWdl(games: readonly GameRecord[], agentCount: number): Wdl[] {
  const out = Array.from({ length: agentCount }, emptyWdl);
  for (const game of games) {
    for (const c of pairwiseComparisons(game)) {
      tally(out[c.a] as Wdl, c.y);
      tally(out[c.b] as Wdl, 1 - c.y);
    }
  }
  return out;
}

/** W/D/L of agent `a` against agent `b`. */
export function headToHeadWdl(games: readonly GameRecord[], a: number, b: number): Wdl {
  const out = emptyWdl();
  for (const game of games) {
    for (const c of pairwiseComparisons(game)) {
      if (c.a === a && c.b === b) tally(out, c.y);
      else if (c.a === b && c.b === a) tally(out, 1 - c.y);
    }
  }
  return out;
}

/** Bins pairs given as a's two game scores (each 0, ½ or 1). */
export function pentanomialFromPairs(pairs: ReadonlyArray<readonly [number, number]>): Pentanomial {
  const out: Pentanomial = [0, 0, 0, 0, 0];
  for (const [g1, g2] of pairs) {
    const bin = Math.round((g1 + g2) * 2);
    if (bin < 0 || bin > 4) throw new RangeError(`pair scores must be in [0, 1] each, got ${g1}, ${g2}`);
    out[bin as 0 | 1 | 2 | 3 | 4]++;
  }
  return out;
}

/**
 * Complete two-seat pairs between a and b (setSize 2, both seat orders present), from a's side. Games that are not
 * part of such a pair (unpaired games, other opponents, multiplayer tables) are skipped.
 */
export function pentanomialCounts(games: readonly GameRecord[], a: number, b: number): Pentanomial {
  const units = new Map<string, number[]>();
  for (const game of games) {
    if (game.seats.length !== 2 || (game.setSize ?? 1) !== 2) continue;
    const [s0, s1] = game.seats as [number, number];
    if (!((s0 === a && s1 === b) || (s0 === b && s1 === a))) continue;
    const seatOfA = s0 === a ? 0 : 1;
    const score = seatScores(game)[seatOfA] as number;
    const key = unitKey(game);
    units.set(key, [...(units.get(key) ?? []), score]);
  }
  const pairs: Array<[number, number]> = [];
  for (const scores of units.values()) if (scores.length === 2) pairs.push([scores[0] as number, scores[1] as number]);
  return pentanomialFromPairs(pairs);
}

/** fastchess's PairsRatio: (WW + WD) / (LL + LD). */
export function pairsRatio(p: Pentanomial): number {
  return (p[4] + p[3]) / (p[0] + p[1]);
}
