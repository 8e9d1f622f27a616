// From a rated game to scores and pairwise comparisons (§1 scores, §7.2 multiplayer reduction, §8 forfeits).
import type { GameRecord } from './game-record.js';
import { isForfeit, isRated } from './termination.js';

/**
 * Placements that count: the reported ones for normal endings; for a forfeit every faulted seat places last
 * and every other seat shares first (two seats: the opponent wins; all seats faulted: a draw).
 */
export function effectivePlacements(game: GameRecord): number[] {
  if (!isRated(game.termination)) throw new RangeError(`game ${game.gameIndex} is void (${game.termination}) and has no result`);
  if (isForfeit(game.termination)) {
    const faulted = new Set(game.faultedSeats ?? []);
    if (faulted.size === 0) throw new RangeError(`game ${game.gameIndex}: ${game.termination} needs faultedSeats`);
    return game.seats.map((_, seat) => (faulted.has(seat) ? 2 : 1));
  }
  const placements = game.placements;
  if (placements === undefined || placements.length !== game.seats.length) {
    throw new RangeError(`game ${game.gameIndex}: placements must give one number per seat`);
  }
  return [...placements];
}

/** Whether seats i and j are compared: different agents, and not team-mates. */
function opposed(game: GameRecord, i: number, j: number): boolean {
  if (game.seats[i] === game.seats[j]) return false;
  return game.teams === undefined || game.teams[i] !== game.teams[j];
}

/** 1 if placement a is better (lower) than b, ½ if equal, 0 otherwise. */
function compare(a: number, b: number): number {
  return a < b ? 1 : a === b ? 0.5 : 0;
}

/**
 * Score per seat: the pairwise placement percentile against the opposing seats (1 win, ½ draw, 0 loss for two
 * seats). A seat with no opponent (self-play) scores ½.
 */
export function seatScores(game: GameRecord): number[] {
  const placements = effectivePlacements(game);
  return game.seats.map((_, i) => {
    let sum = 0;
    let count = 0;
    for (let j = 0; j < game.seats.length; j++) {
      if (j === i || !opposed(game, i, j)) continue;
      sum += compare(placements[i] as number, placements[j] as number);
      count++;
    }
    return count === 0 ? 0.5 : sum / count;
  });
}

export interface Comparison {
  /** Agent indices. */
  a: number;
  b: number;
  /** 1 = a placed above b, ½ tie, 0 below. */
  y: number;
  /** 1/(n − 1) for an n-seat game, before any per-challenge weight. */
  weight: number;
}

/** One comparison per opposed seat pair (§7.2), weighted 1/(n − 1) so a player's comparisons in a game weigh 1. */
export function pairwiseComparisons(game: GameRecord): Comparison[] {
  const placements = effectivePlacements(game);
  const n = game.seats.length;
  const out: Comparison[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (!opposed(game, i, j)) continue;
      out.push({
        a: game.seats[i] as number,
        b: game.seats[j] as number,
        y: compare(placements[i] as number, placements[j] as number),
        weight: 1 / (n - 1),
      });
    }
  }
  return out;
}

/** Placements from a per-seat value where higher is better (e.g. a challenge's utility); ties share a place. */
export function placementsFromValues(values: readonly number[]): number[] {
  return values.map((v) => 1 + values.filter((w) => w > v).length);
}
