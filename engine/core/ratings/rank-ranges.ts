// Rank ranges from the joint posterior of the ratings (issue 16). The whole-interval rule of §6.4 compares two
// marginal intervals, so an agent that lost all of its six games against two opponents still "could be first" when
// each opponent's interval is wide; jointly, being first would need it to beat both, which the games rule out. Here
// the ranks are read from draws of the Laplace posterior N(mode, Σ): an agent's range is the 2.5%–97.5% span of its
// rank over the draws. The rank printed before the range is the agent's place by rating (placesByRating), so the
// column reads in the order of the ratings beside it: the best end of the range alone put an agent that lost every
// game "1 (1–3)" while the ratings said it was last.
import { createRng } from '../rng.js';

/** Posterior draws: enough that a 2.5% tail is stable to about ±0.4% (binomial sd at 4,000 draws). */
export const RANK_DRAWS = 4000;
const TAIL = 0.025;

/** Lower-triangular L with L·Lᵀ = a for a positive semi-definite a (a zero pivot zeroes its column). */
function choleskySemi(a: readonly (readonly number[])[]): number[][] {
  const n = a.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const scale = Math.max(1e-300, ...a.map((row, i) => Math.abs(row[i] as number)));
  for (let j = 0; j < n; j++) {
    const lj = l[j] as number[];
    let d = (a[j] as number[])[j] as number;
    for (let k = 0; k < j; k++) d -= (lj[k] as number) ** 2;
    if (d <= 1e-12 * scale) continue;
    const root = Math.sqrt(d);
    lj[j] = root;
    for (let i = j + 1; i < n; i++) {
      const li = l[i] as number[];
      let s = (a[i] as number[])[j] as number;
      for (let k = 0; k < j; k++) s -= (li[k] as number) * (lj[k] as number);
      li[j] = s / root;
    }
  }
  return l;
}

/** A standard normal draw (Box–Muller; one of the pair is enough here). */
function gaussian(next: () => number): number {
  const u = 1 - next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
}

/**
 * Rank and rank range of every agent within its component of the comparison graph. `ratings` are posterior modes,
 * `cov` their posterior covariance (any consistent scale); agents with a non-finite rating or `component < 0` get
 * rank 0 (unranked). Null when the covariance of a component is not usable (the caller falls back to §6.4's rule).
 * Deterministic: the draws come from a fixed seed.
 */
export function posteriorRankRanges(
  ratings: readonly number[],
  cov: readonly (readonly number[])[],
  component: readonly number[],
  maxDraws = RANK_DRAWS,
): Array<{ rank: number; rankRange: [number, number] }> | null {
  const out = ratings.map(() => ({ rank: 0, rankRange: [0, 0] as [number, number] }));
  const components = [...new Set(component.filter((c, i) => c >= 0 && Number.isFinite(ratings[i])))];
  for (const c of components) {
    const members = component.flatMap((cc, i) => (cc === c && Number.isFinite(ratings[i]) ? [i] : []));
    const m = members.length;
    if (m === 1) {
      out[members[0] as number] = { rank: 1, rankRange: [1, 1] };
      continue;
    }
    const sub = members.map((i) => members.map((j) => (cov[i] as number[])[j] as number));
    if (sub.some((row) => row.some((x) => !Number.isFinite(x)))) return null;
    const l = choleskySemi(sub);
    // A draw costs m² steps; large fields take fewer draws (never under 1,000) so a standings read stays quick.
    const draws = Math.max(1000, Math.min(maxDraws, Math.floor(2e7 / (m * m))));
    const rng = createRng(`rank-ranges:${m}`);
    const next = () => rng.next();
    // counts[a][r]: draws in which member a had rank r + 1.
    const counts = members.map(() => new Array<number>(m).fill(0));
    const z = new Array<number>(m).fill(0);
    const r = new Array<number>(m).fill(0);
    for (let d = 0; d < draws; d++) {
      for (let k = 0; k < m; k++) z[k] = gaussian(next);
      for (let a = 0; a < m; a++) {
        const la = l[a] as number[];
        let v = ratings[members[a] as number] as number;
        for (let k = 0; k <= a; k++) v += (la[k] as number) * (z[k] as number);
        r[a] = v;
      }
      for (let a = 0; a < m; a++) {
        let above = 0;
        for (let b = 0; b < m; b++) if ((r[b] as number) > (r[a] as number)) above++;
        (counts[a] as number[])[above] = ((counts[a] as number[])[above] as number) + 1;
      }
    }
    members.forEach((agent, a) => {
      const row = counts[a] as number[];
      let best = 0;
      for (let seen = 0; best < m - 1 && seen + (row[best] as number) <= TAIL * draws; best++) seen += row[best] as number;
      let worst = m - 1;
      for (let seen = 0; worst > 0 && seen + (row[worst] as number) <= TAIL * draws; worst--) seen += row[worst] as number;
      out[agent] = { rank: best + 1, rankRange: [best + 1, Math.max(best, worst) + 1] };
    });
  }
  return out;
}

/** Ratings closer than this (Elo) share a place: the standings print whole points. */
export const RATING_TIE = 0.5;

/**
 * Each agent's place by rating within its component (1 + the agents rated higher; equal ratings share a place), with
 * its rank range widened to hold that place. `ranges` come from posteriorRankRanges or the §6.4 fallback; an agent
 * without a rating keeps rank 0.
 */
export function placesByRating(
  ratings: readonly number[],
  component: readonly number[],
  ranges: ReadonlyArray<{ rank: number; rankRange: readonly [number, number] }>,
): Array<{ rank: number; rankRange: [number, number] }> {
  return ranges.map((r, i) => {
    const own = ratings[i] as number;
    if (r.rank === 0 || !Number.isFinite(own)) return { rank: 0, rankRange: [0, 0] };
    let above = 0;
    ratings.forEach((other, j) => {
      if (j !== i && component[j] === component[i] && Number.isFinite(other) && other > own + RATING_TIE) above++;
    });
    const rank = above + 1;
    return { rank, rankRange: [Math.min(r.rankRange[0], rank), Math.max(r.rankRange[1], rank)] };
  });
}

/** The rank column explained, word for word the same in report.md and under the app's standings. */
export const RANK_LEGEND =
  'Rank "3 (2–3)": 3 is the agent\'s place by rating (equal ratings share a place) and 2–3 every place the games allow at 95%, read from the joint posterior of the ratings. An agent that lost every game to two others is placed below both; its range still reaches first while so few games leave that possible, and leaves it out once they rule it out jointly. "–" means no rated game yet.';

/** "1", "1 (1–2)", or "–" for an unranked agent (rank 0). */
export function rankText(rank: number, range: readonly [number, number]): string {
  if (rank === 0) return '–';
  return range[0] === range[1] ? String(rank) : `${rank} (${range[0]}–${range[1]})`;
}
