// The running totals every leaderboard is computed from (§4–§7): per challenge, the Bradley–Terry comparison totals,
// W/D/L, points, unit means of security/utility and the head-to-head counts of agents 0 and 1. Rated games are added
// one at a time; a pair/set enters when its last seat order arrives (until then its games wait in `pending`, and it
// is what RatingsReport calls an incomplete unit). Plain JSON, so a run keeps it beside its games and its standings
// never need a pass over them; ratingsReport() is this tally filled from a list of games.
import { type BtData, emptyBtData } from './bradley-terry.js';
import { type GameRecord, unitKey } from './game-record.js';
import { pairwiseComparisons, seatScores } from './outcomes.js';
import { addMoment, emptyMoments, type Moments, unitScoreMeans } from './score-means.js';
import { isRated } from './termination.js';
import { emptyWdl, headToHeadWdl, type Pentanomial, pentanomialCounts, type Wdl } from './wdl.js';

export interface ChallengeTally {
  challenge: string;
  /** Ordinal (order of addition) of the first game of its first complete unit: challenges are listed in this order. */
  first: number;
  /** Rated games of complete units. */
  games: number;
  /** Bradley–Terry totals (BtData layout: i < j at i·K + j), comparisons weighted 1/(n − 1). */
  n: number[];
  s: number[];
  /** Sum and count of the comparison weights (the prior weighs like their mean). */
  weightSum: number;
  comparisons: number;
  wdl: Wdl[];
  played: number[];
  points: number[];
  security: Moments[];
  utility: Moments[];
  /** Agent 0 against agent 1. */
  h2h: { wdl: Wdl; pentanomial: Pentanomial };
}

interface PendingGame {
  ordinal: number;
  game: GameRecord;
}

export interface RatingsTally {
  agentCount: number;
  /** Rated games added so far (their ordinals). */
  added: number;
  /** Void games among the games the report covers (kept by the caller: the tally only holds rated ones). */
  voided: number;
  challenges: ChallengeTally[];
  /** Units still missing a seat order, in order of their first game: unit key → size and one game per order. */
  pending: Record<string, { size: number; games: PendingGame[] }>;
}

export function emptyRatingsTally(agentCount: number): RatingsTally {
  return { agentCount, added: 0, voided: 0, challenges: [], pending: {} };
}

function emptyChallenge(challenge: string, first: number, k: number): ChallengeTally {
  return {
    challenge,
    first,
    games: 0,
    n: new Array<number>(k * k).fill(0),
    s: new Array<number>(k * k).fill(0),
    weightSum: 0,
    comparisons: 0,
    wdl: Array.from({ length: k }, emptyWdl),
    played: new Array<number>(k).fill(0),
    points: new Array<number>(k).fill(0),
    security: Array.from({ length: k }, emptyMoments),
    utility: Array.from({ length: k }, emptyMoments),
    h2h: { wdl: emptyWdl(), pentanomial: [0, 0, 0, 0, 0] },
  };
}

function tally(wdl: Wdl, y: number): void {
  if (y === 1) wdl.wins++;
  else if (y === 0) wdl.losses++;
  else wdl.draws++;
}

const addWdl = (into: Wdl, w: Wdl): void => {
  into.wins += w.wins;
  into.draws += w.draws;
  into.losses += w.losses;
};

/** Folds one complete unit (its games in order of addition) into its challenge. */
function addUnit(t: RatingsTally, games: readonly PendingGame[]): void {
  const k = t.agentCount;
  const first = games[0] as PendingGame;
  const challenge = first.game.challenge;
  let c = t.challenges.find((x) => x.challenge === challenge);
  if (!c) {
    c = emptyChallenge(challenge, first.ordinal, k);
    t.challenges.push(c);
  }
  c.first = Math.min(c.first, first.ordinal);
  const records = games.map((g) => g.game);
  for (const game of records) {
    c.games++;
    for (const cmp of pairwiseComparisons(game)) {
      tally(c.wdl[cmp.a] as Wdl, cmp.y);
      tally(c.wdl[cmp.b] as Wdl, 1 - cmp.y);
      c.weightSum += cmp.weight;
      c.comparisons++;
      if (cmp.a === cmp.b) continue;
      const [i, j, y] = cmp.a < cmp.b ? [cmp.a, cmp.b, cmp.y] : [cmp.b, cmp.a, 1 - cmp.y];
      c.n[i * k + j] = (c.n[i * k + j] as number) + cmp.weight;
      c.s[i * k + j] = (c.s[i * k + j] as number) + cmp.weight * y;
    }
    const scores = seatScores(game);
    for (const agent of new Set(game.seats)) c.played[agent] = (c.played[agent] as number) + 1;
    game.seats.forEach((agent, seat) => {
      c.points[agent] = (c.points[agent] as number) + (scores[seat] as number);
    });
  }
  unitScoreMeans(records, k).forEach((m, agent) => {
    if (!m || !c) return;
    addMoment(c.security[agent] as Moments, m.security);
    addMoment(c.utility[agent] as Moments, m.utility);
  });
  if (k >= 2) {
    addWdl(c.h2h.wdl, headToHeadWdl(records, 0, 1));
    pentanomialCounts(records, 0, 1).forEach((v, bin) => {
      (c as ChallengeTally).h2h.pentanomial[bin] = ((c as ChallengeTally).h2h.pentanomial[bin] as number) + v;
    });
  }
}

/**
 * Adds one rated game. A pair/set counts once every seat order has a game (a second game of an order already
 * present is not counted, as partitionForRatings does); void games are not added (count them in `voided`).
 */
export function addRatedGame(t: RatingsTally, game: GameRecord): void {
  if (!isRated(game.termination)) throw new RangeError(`game ${game.gameIndex} is void (${game.termination})`);
  const ordinal = t.added++;
  const key = unitKey(game);
  const unit = t.pending[key] ?? { size: 1, games: [] };
  unit.size = Math.max(unit.size, game.setSize ?? 1);
  const order = game.seats.join(',');
  if (!unit.games.some((g) => g.game.seats.join(',') === order)) unit.games.push({ ordinal, game });
  if (unit.games.length >= unit.size) {
    delete t.pending[key];
    addUnit(t, unit.games);
  } else t.pending[key] = unit;
}

/** Challenges in the order their first counted game was added (the order ratingsReport lists them in). */
export function tallyChallenges(t: RatingsTally): ChallengeTally[] {
  return [...t.challenges].sort((a, b) => a.first - b.first);
}

export function btDataOf(k: number, n: readonly number[], s: readonly number[]): BtData {
  const data = emptyBtData(k);
  data.n.set(n);
  data.s.set(s);
  return data;
}
