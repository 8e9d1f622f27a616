// Rating intervals that hold at every true gap (issue 44). The posterior (Laplace) interval this replaces is centred
// on an estimate the prior pulls toward the mean, so at 400–800 Elo gaps it covered the truth in only 62–75% of
// tournaments. Here agent i's interval comes from its own score, which is all the data say about it directly:
//   1. its total score x_i over its n_i comparisons gets an exact Clopper–Pearson interval [pL, pU] for its mean
//      expected score against the opponents it met (exact-intervals.ts);
//   2. for a candidate rating θ (relative to the mean of its connected group) the other agents are placed where the
//      games make them most likely given θ (the profile likelihood: every game among them, a weak prior of virtual
//      draws among them only, and their games against i); p̄(θ) is i's expected score against them there;
//   3. the bounds are the θ where p̄(θ) reaches pL and pU; p̄ rises with θ, so bisection finds them.
// For two agents p̄ is the logistic curve itself, so the interval is exactly the Clopper–Pearson interval mapped to
// the rating difference, whose coverage is at least 95% at every gap and every number of games (proved by exact
// enumeration in the tests). With more agents the coverage is measured by simulation (coverage-simulation.ts). No
// prior touches i's own games, so the interval does not inherit the point estimate's shrinkage; a score of 0 or n_i
// leaves that side open, as does a group that never lost to the rest (unboundedSides in rating-intervals.ts).
import type { BtData } from './bradley-terry.js';
import { clopperPearson } from './exact-intervals.js';

const ALPHA = Math.LN10;

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/**
 * Groups larger than this keep the others at their point-fit spacing (shifted together) instead of refitting them
 * for every candidate θ, since a full profile costs O(m³) per step (about a second for a 32-agent standings read). The
 * shortcut is cheaper but less exact: at 20 agents 100 Elo apart its worst agent was covered 87–90%, the full
 * profile's 96% (docs/ratings.md).
 */
export const PROFILE_LIMIT = 32;

export interface ProfileOptions {
  /** The point fit's strengths of the members (log10), used as the others' spacing above PROFILE_LIMIT. */
  point?: readonly number[];
  /** Virtual draws on each met pair not involving the agent whose interval is computed (the point fit's prior). */
  priorPerPair: number;
  /** Weight of one virtual draw (the data's mean comparison weight). */
  priorWeight: number;
  confidence?: number;
}

/** Bounds in log10 strength units relative to the group's mean; ±Infinity where that side is open. */
export interface ProfileBounds {
  lower: number;
  upper: number;
}

/** Largest |θ| searched (log10 units, 4,000 Elo): beyond it a side is reported open. */
const REACH = 10;

interface Pairs {
  /** Member-index pairs with their real totals and prior-augmented totals. */
  u: number[];
  v: number[];
  n: number[];
  s: number[];
}

/** Scratch space of one profile: the augmented KKT matrix (m rows of m + 1) and the step. */
interface Workspace {
  a: Float64Array;
  x: Float64Array;
}

/**
 * The profile of the others for agent `focus` (member index) at relative rating θ: focus pinned at 0, the others'
 * strengths y with Σy = −m·θ (so focus − mean = θ), maximising the likelihood by Newton steps on the constrained
 * (KKT) system. `y` is the warm start and is updated in place.
 */
function profileFit(pairs: Pairs, m: number, focus: number, theta: number, y: number[], w: Workspace): void {
  // Shift the warm start onto the constraint.
  const target = -m * theta;
  let sum = 0;
  for (let j = 0; j < m; j++) if (j !== focus) sum += y[j] as number;
  const shift = (target - sum) / (m - 1);
  for (let j = 0; j < m; j++) y[j] = j === focus ? 0 : (y[j] as number) + shift;
  // Rows and columns are members; the focus's slot carries the multiplier. Column m is the right-hand side.
  const cols = m + 1;
  const a = w.a;
  for (let iter = 0; iter < 60; iter++) {
    a.fill(0);
    for (let e = 0; e < pairs.u.length; e++) {
      const u = pairs.u[e] as number;
      const v = pairs.v[e] as number;
      const p = sigmoid(ALPHA * ((y[u] as number) - (y[v] as number)));
      const grad = ALPHA * ((pairs.s[e] as number) - (pairs.n[e] as number) * p);
      const info = ALPHA * ALPHA * (pairs.n[e] as number) * p * (1 - p);
      if (u !== focus) {
        a[u * cols + m] = (a[u * cols + m] as number) + grad;
        a[u * cols + u] = (a[u * cols + u] as number) + info;
      }
      if (v !== focus) {
        a[v * cols + m] = (a[v * cols + m] as number) - grad;
        a[v * cols + v] = (a[v * cols + v] as number) + info;
      }
      if (u !== focus && v !== focus) {
        a[u * cols + v] = (a[u * cols + v] as number) - info;
        a[v * cols + u] = (a[v * cols + u] as number) - info;
      }
    }
    // KKT: [H 1; 1ᵀ 0]·[d; λ] = [g; 0] (the step keeps Σy fixed). A tiny ridge keeps an agent with a perfect record
    // against the focus (no information left) solvable.
    for (let j = 0; j < m; j++) {
      if (j === focus) continue;
      a[j * cols + j] = (a[j * cols + j] as number) + 1e-9;
      a[j * cols + focus] = 1;
      a[focus * cols + j] = 1;
    }
    if (!solveAugmented(a, m, w.x)) return;
    let moved = 0;
    for (let j = 0; j < m; j++) {
      if (j === focus) continue;
      // Damped: a strength never moves more than 1 (400 Elo) per step, so a runaway agent cannot overshoot.
      const d = Math.max(-1, Math.min(1, w.x[j] as number));
      y[j] = (y[j] as number) + d;
      moved = Math.max(moved, Math.abs(d));
    }
    // Re-project onto the constraint after damping.
    let total = 0;
    for (let j = 0; j < m; j++) if (j !== focus) total += y[j] as number;
    const fix = (target - total) / (m - 1);
    for (let j = 0; j < m; j++) if (j !== focus) y[j] = (y[j] as number) + fix;
    if (moved < 1e-9) return;
  }
}

/** Solves the augmented m × (m + 1) system in place (Gaussian elimination, partial pivoting); false when singular. */
function solveAugmented(a: Float64Array, m: number, x: Float64Array): boolean {
  const cols = m + 1;
  for (let col = 0; col < m; col++) {
    let piv = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(a[r * cols + col] as number) > Math.abs(a[piv * cols + col] as number)) piv = r;
    if (Math.abs(a[piv * cols + col] as number) < 1e-300) return false;
    if (piv !== col) {
      for (let c = 0; c < cols; c++) {
        const t = a[col * cols + c] as number;
        a[col * cols + c] = a[piv * cols + c] as number;
        a[piv * cols + c] = t;
      }
    }
    const pivot = a[col * cols + col] as number;
    for (let r = col + 1; r < m; r++) {
      const f = (a[r * cols + col] as number) / pivot;
      if (f === 0) continue;
      for (let c = col; c < cols; c++) a[r * cols + c] = (a[r * cols + c] as number) - f * (a[col * cols + c] as number);
    }
  }
  for (let r = m - 1; r >= 0; r--) {
    let acc = a[r * cols + m] as number;
    for (let c = r + 1; c < m; c++) acc -= (a[r * cols + c] as number) * (x[c] as number);
    x[r] = acc / (a[r * cols + r] as number);
  }
  return true;
}

/** Mean expected score of the focus (at 0) against its opponents at strengths y, weighted by games played. */
function expectedScore(real: Pairs, focus: number, y: readonly number[]): number {
  let score = 0;
  let games = 0;
  for (let e = 0; e < real.u.length; e++) {
    const a = real.u[e] as number;
    const b = real.v[e] as number;
    if (a !== focus && b !== focus) continue;
    const other = a === focus ? b : a;
    const n = real.n[e] as number;
    score += n * sigmoid(ALPHA * (0 - (y[other] as number)));
    games += n;
  }
  return games === 0 ? 0.5 : score / games;
}

/**
 * Exact-calibrated bounds for every member of one connected group (`members`, agent indices into `data`), in log10
 * strength relative to the group's mean. Sides the agent's own score leaves open (0 or all of its games) are ±Infinity.
 */
export function profileBounds(data: BtData, members: readonly number[], options: ProfileOptions): ProfileBounds[] {
  const m = members.length;
  if (m < 2) return members.map(() => ({ lower: 0, upper: 0 }));
  const k = data.agentCount;
  const real: Pairs = { u: [], v: [], n: [], s: [] };
  for (let u = 0; u < m; u++) {
    for (let v = u + 1; v < m; v++) {
      const [i, j] = [members[u] as number, members[v] as number];
      const idx = i < j ? i * k + j : j * k + i;
      const n = data.n[idx] as number;
      if (!(n > 0)) continue;
      const s = i < j ? (data.s[idx] as number) : n - (data.s[idx] as number);
      real.u.push(u);
      real.v.push(v);
      real.n.push(n);
      real.s.push(s);
    }
  }
  const extra = options.priorPerPair * options.priorWeight;
  return members.map((_, focus) => {
    // The focus's games carry no prior; every other met pair carries the point fit's virtual draws.
    const pairs: Pairs = { u: [], v: [], n: [], s: [] };
    let x = 0;
    let n = 0;
    for (let e = 0; e < real.u.length; e++) {
      const [a, b, ne, se] = [real.u[e] as number, real.v[e] as number, real.n[e] as number, real.s[e] as number];
      const touches = a === focus || b === focus;
      pairs.u.push(a);
      pairs.v.push(b);
      pairs.n.push(ne + (touches ? 0 : extra));
      pairs.s.push(se + (touches ? 0 : extra / 2));
      if (touches) {
        n += ne;
        x += a === focus ? se : ne - se;
      }
    }
    const [pL, pU] = clopperPearson(x, n, options.confidence ?? 0.95);
    const y = new Array<number>(m).fill(0);
    const point = options.point;
    const fixed = m > PROFILE_LIMIT && point !== undefined;
    const workspace: Workspace = { a: new Float64Array(fixed ? 0 : m * (m + 1)), x: new Float64Array(m) };
    const scoreAt = (theta: number): number => {
      if (fixed) {
        // Others at their fitted spacing relative to the focus, shifted so that focus − mean = θ.
        let sum = 0;
        for (let j = 0; j < m; j++) if (j !== focus) sum += (point[j] as number) - (point[focus] as number);
        const shift = (-m * theta - sum) / (m - 1);
        for (let j = 0; j < m; j++) y[j] = j === focus ? 0 : (point[j] as number) - (point[focus] as number) + shift;
      } else profileFit(pairs, m, focus, theta, y, workspace);
      return expectedScore(real, focus, y);
    };
    return {
      lower: pL <= 0 ? Number.NEGATIVE_INFINITY : solveFor(scoreAt, pL),
      upper: pU >= 1 ? Number.POSITIVE_INFINITY : solveFor(scoreAt, pU),
    };
  });
}

/**
 * θ in [−REACH, REACH] with scoreAt(θ) = p (scoreAt rises with θ); ±Infinity when p lies beyond the reach. Regula
 * falsi with the Illinois halving: about ten profile fits per bound instead of bisection's sixty.
 */
function solveFor(scoreAt: (theta: number) => number, p: number): number {
  let lo = -REACH;
  let hi = REACH;
  let fLo = scoreAt(lo) - p;
  if (fLo >= 0) return Number.NEGATIVE_INFINITY;
  let fHi = scoreAt(hi) - p;
  if (fHi <= 0) return Number.POSITIVE_INFINITY;
  let side = 0;
  for (let i = 0; i < 100; i++) {
    const mid = (lo * fHi - hi * fLo) / (fHi - fLo);
    const f = scoreAt(mid) - p;
    if (Math.abs(f) < 1e-12 || hi - lo < 1e-9) return mid;
    if (f < 0) {
      lo = mid;
      fLo = f;
      if (side === -1) fHi /= 2;
      side = -1;
    } else {
      hi = mid;
      fHi = f;
      if (side === 1) fLo /= 2;
      side = 1;
    }
  }
  return (lo + hi) / 2;
}
