// Bradley–Terry fit (§6.1): P(a beats b) = σ(ln10·(r_a − r_b)), ties as half wins, comparison weights, a prior
// of virtual draws between agents that met, and one fit per connected component of the "met" graph. Solved by
// Newton's method with a backtracking line search on the (concave) log-likelihood; the same information matrix
// gives the posterior covariance behind the rating intervals.

/** Weighted totals between every two agents, stored for i < j at i·K + j. */
export interface BtData {
  agentCount: number;
  /** Total weight of comparisons between i and j. */
  n: Float64Array;
  /** Weighted score of i against j (y = 1 win, ½ tie, 0 loss). */
  s: Float64Array;
}

export interface WeightedComparison {
  a: number;
  b: number;
  y: number;
  weight: number;
}

export function emptyBtData(agentCount: number): BtData {
  return { agentCount, n: new Float64Array(agentCount * agentCount), s: new Float64Array(agentCount * agentCount) };
}

export function addComparison(data: BtData, c: WeightedComparison, times = 1): void {
  if (c.a === c.b) return;
  const k = data.agentCount;
  const [i, j, y] = c.a < c.b ? [c.a, c.b, c.y] : [c.b, c.a, 1 - c.y];
  data.n[i * k + j] = (data.n[i * k + j] as number) + c.weight * times;
  data.s[i * k + j] = (data.s[i * k + j] as number) + c.weight * y * times;
}

export function btDataFromComparisons(agentCount: number, comparisons: readonly WeightedComparison[]): BtData {
  const data = emptyBtData(agentCount);
  for (const c of comparisons) addComparison(data, c);
  return data;
}

/**
 * Connected components of the graph "met at least once" (n > 0); agents without comparisons get −1.
 * Components are numbered from 0 in order of their lowest agent index.
 */
export function btComponents(data: BtData): number[] {
  const k = data.agentCount;
  const comp = new Array<number>(k).fill(-1);
  let next = 0;
  for (let start = 0; start < k; start++) {
    if (comp[start] !== -1) continue;
    let hasEdge = false;
    for (let j = 0; j < k; j++) if (j !== start && weightBetween(data, start, j) > 0) hasEdge = true;
    if (!hasEdge) continue;
    const stack = [start];
    comp[start] = next;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      for (let j = 0; j < k; j++) {
        if (comp[j] === -1 && j !== i && weightBetween(data, i, j) > 0) {
          comp[j] = next;
          stack.push(j);
        }
      }
    }
    next++;
  }
  return comp;
}

function weightBetween(data: BtData, i: number, j: number): number {
  const k = data.agentCount;
  return i < j ? (data.n[i * k + j] as number) : (data.n[j * k + i] as number);
}

export interface BtFitOptions {
  /** Virtual draws added between every two agents that met (§6.1); default 2. */
  priorDraws?: number;
  /** Weight of one virtual draw; default 1 (one real two-seat comparison). */
  priorWeight?: number;
  /** Divide priorDraws by (size of the pair's component − 1), so the prior depends only on that component. */
  perComponent?: boolean;
  /** Pairs that receive the prior and the component structure; default: those that met in `data`. */
  structure?: BtData;
  maxIterations?: number;
  /** Newton stops once no rating moves by more than this (log10 units; 1e-10 ≈ 4e-8 Elo). */
  tolerance?: number;
}

export interface BtFit {
  /** log10 strengths, mean 0 within each component; NaN for agents without comparisons or when not identifiable. */
  strengths: number[];
  /** Component per agent (−1: no comparisons). Ratings of different components are not comparable. */
  component: number[];
  converged: boolean;
  iterations: number;
}

const ALPHA = Math.LN10;

/** log σ(x) without overflow. */
function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** Solves A·x = b in place (Gaussian elimination, partial pivoting); null when A is singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const m = b.length;
  for (let col = 0; col < m; col++) {
    let piv = col;
    for (let r = col + 1; r < m; r++)
      if (Math.abs((a[r] as number[])[col] as number) > Math.abs((a[piv] as number[])[col] as number)) piv = r;
    const pivotRow = a[piv] as number[];
    if (Math.abs(pivotRow[col] as number) < 1e-12) return null;
    [a[col], a[piv]] = [pivotRow, a[col] as number[]];
    [b[col], b[piv]] = [b[piv] as number, b[col] as number];
    const row = a[col] as number[];
    for (let r = col + 1; r < m; r++) {
      const other = a[r] as number[];
      const f = (other[col] as number) / (row[col] as number);
      if (f === 0) continue;
      for (let c = col; c < m; c++) other[c] = (other[c] as number) - f * (row[c] as number);
      b[r] = (b[r] as number) - f * (b[col] as number);
    }
  }
  const x = new Array<number>(m).fill(0);
  for (let r = m - 1; r >= 0; r--) {
    const row = a[r] as number[];
    let acc = b[r] as number;
    for (let c = r + 1; c < m; c++) acc -= (row[c] as number) * (x[c] as number);
    x[r] = acc / (row[r] as number);
  }
  return x;
}

/**
 * Totals with the prior folded in: priorDraws·priorWeight extra weight and half of it as score on every met pair
 * (divided by the pair's component size − 1 with `perComponent`).
 */
function withPrior(data: BtData, structure: BtData, options: BtFitOptions): BtData {
  const priorDraws = options.priorDraws ?? 2;
  const out: BtData = { agentCount: data.agentCount, n: Float64Array.from(data.n), s: Float64Array.from(data.s) };
  if (priorDraws <= 0) return out;
  const k = data.agentCount;
  const component = options.perComponent ? btComponents(structure) : [];
  const sizes = new Map<number, number>();
  for (const c of component) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  for (let idx = 0; idx < out.n.length; idx++) {
    if ((structure.n[idx] as number) > 0) {
      const size = options.perComponent ? (sizes.get(component[Math.floor(idx / k)] as number) as number) : 2;
      const extra = (priorDraws * (options.priorWeight ?? 1)) / Math.max(1, size - 1);
      out.n[idx] = (out.n[idx] as number) + extra;
      out.s[idx] = (out.s[idx] as number) + extra / 2;
    }
  }
  return out;
}

/** Virtual draws per met pair in the component of `agent` as the fit applies them. */
export function priorDrawsPerPair(structure: BtData, agent: number, options: BtFitOptions): number {
  const priorDraws = options.priorDraws ?? 2;
  if (!options.perComponent) return priorDraws;
  const component = btComponents(structure);
  const size = component.filter((c) => c === component[agent]).length;
  return priorDraws / Math.max(1, size - 1);
}

export function fitBradleyTerry(data: BtData, options: BtFitOptions = {}): BtFit {
  const structure = options.structure ?? data;
  const component = btComponents(structure);
  const totals = withPrior(data, structure, options);
  const k = data.agentCount;
  const strengths = new Array<number>(k).fill(Number.NaN);
  let converged = true;
  let iterations = 0;
  const comps = Math.max(-1, ...component) + 1;
  for (let c = 0; c < comps; c++) {
    const members = component.flatMap((cc, i) => (cc === c ? [i] : []));
    const result = fitComponent(totals, members, options.maxIterations ?? 100, options.tolerance ?? 1e-10);
    iterations = Math.max(iterations, result.iterations);
    converged &&= result.converged;
    members.forEach((agent, m) => {
      strengths[agent] = result.r[m] as number;
    });
  }
  return { strengths, component, converged, iterations };
}

interface Edge {
  u: number;
  v: number;
  n: number;
  s: number;
}

/** Met pairs of one component, in member indices, with their prior-augmented totals. */
function componentEdges(t: BtData, members: readonly number[]): Edge[] {
  const k = t.agentCount;
  const edges: Edge[] = [];
  for (let u = 0; u < members.length; u++) {
    for (let v = u + 1; v < members.length; v++) {
      const idx = (members[u] as number) * k + (members[v] as number);
      if ((t.n[idx] as number) > 0) edges.push({ u, v, n: t.n[idx] as number, s: t.s[idx] as number });
    }
  }
  return edges;
}

/** Gradient and Fisher information (= the negative Hessian, exact for the logistic model) at r. */
function gradientAndInformation(edges: readonly Edge[], r: readonly number[]): { g: number[]; f: number[][] } {
  const m = r.length;
  const g = new Array<number>(m).fill(0);
  const f = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  for (const e of edges) {
    const p = sigmoid(ALPHA * ((r[e.u] as number) - (r[e.v] as number)));
    const grad = ALPHA * (e.s - e.n * p);
    const info = ALPHA * ALPHA * e.n * p * (1 - p);
    g[e.u] = (g[e.u] as number) + grad;
    g[e.v] = (g[e.v] as number) - grad;
    (f[e.u] as number[])[e.u] = ((f[e.u] as number[])[e.u] as number) + info;
    (f[e.v] as number[])[e.v] = ((f[e.v] as number[])[e.v] as number) + info;
    (f[e.u] as number[])[e.v] = ((f[e.u] as number[])[e.v] as number) - info;
    (f[e.v] as number[])[e.u] = ((f[e.v] as number[])[e.u] as number) - info;
  }
  return { g, f };
}

function fitComponent(
  t: BtData,
  members: readonly number[],
  maxIterations: number,
  tolerance: number,
): { r: number[]; converged: boolean; iterations: number } {
  const m = members.length;
  const r = new Array<number>(m).fill(0);
  if (m === 1) return { r, converged: true, iterations: 0 };
  const edges = componentEdges(t, members);
  const logLik = (x: readonly number[]): number => {
    let ll = 0;
    for (const e of edges) {
      const d = ALPHA * ((x[e.u] as number) - (x[e.v] as number));
      ll += e.s * logSigmoid(d) + (e.n - e.s) * logSigmoid(-d);
    }
    return ll;
  };
  let current = logLik(r);
  for (let iter = 1; iter <= maxIterations; iter++) {
    // The last member is pinned at 0 to remove the shift freedom.
    const { g, f } = gradientAndInformation(edges, r);
    const reduced = f.slice(0, m - 1).map((row) => row.slice(0, m - 1));
    const step = solve(reduced, g.slice(0, m - 1));
    if (step === null) return { r: new Array<number>(m).fill(Number.NaN), converged: false, iterations: iter };
    step.push(0);
    let scale = 1;
    let candidate = r.map((x, i) => x + (step[i] as number));
    let value = logLik(candidate);
    while (value < current - 1e-12 * Math.abs(current) && scale > 1e-6) {
      scale /= 2;
      candidate = r.map((x, i) => x + scale * (step[i] as number));
      value = logLik(candidate);
    }
    const moved = Math.max(...step.map((d) => Math.abs(scale * d)));
    for (let i = 0; i < m; i++) r[i] = candidate[i] as number;
    current = value;
    if (moved < tolerance) return { r: centred(r), converged: true, iterations: iter };
  }
  return { r: centred(r), converged: false, iterations: maxIterations };
}

/**
 * Covariance (log10² units) of the strengths as `fitBradleyTerry` reports them (centred per component): the
 * inverse of the information of the prior-augmented likelihood at the fit, i.e. the Laplace approximation of the
 * posterior under the virtual-draw prior. Entries between different components, and rows of agents without
 * comparisons, are NaN.
 */
export function btCovariance(data: BtData, fit: BtFit, options: BtFitOptions = {}): number[][] {
  const structure = options.structure ?? data;
  const totals = withPrior(data, structure, options);
  const k = data.agentCount;
  const cov = Array.from({ length: k }, () => new Array<number>(k).fill(Number.NaN));
  const comps = Math.max(-1, ...fit.component) + 1;
  for (let c = 0; c < comps; c++) {
    const members = fit.component.flatMap((cc, i) => (cc === c ? [i] : []));
    const m = members.length;
    if (m === 1) {
      (cov[members[0] as number] as number[])[members[0] as number] = 0;
      continue;
    }
    const r = members.map((i) => fit.strengths[i] as number);
    if (r.some((x) => !Number.isFinite(x))) continue;
    const { f } = gradientAndInformation(componentEdges(totals, members), r);
    // Σx = inverse of the information with the last member pinned at 0, column by column.
    const sigma: number[][] = [];
    for (let col = 0; col < m - 1; col++) {
      const unit = new Array<number>(m - 1).fill(0);
      unit[col] = 1;
      const x = solve(
        f.slice(0, m - 1).map((row) => row.slice(0, m - 1)),
        unit,
      );
      if (x === null) break;
      sigma.push(x);
    }
    if (sigma.length !== m - 1) continue;
    // Centring r = C·x with C = [I | 0] − 11ᵀ/m; Cov(r) = C Σx Cᵀ.
    const at = (i: number, j: number): number => (i < m - 1 && j < m - 1 ? ((sigma[j] as number[])[i] as number) : 0);
    const rowMean = new Array<number>(m).fill(0);
    let total = 0;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) rowMean[i] = (rowMean[i] as number) + at(i, j) / m;
      total += (rowMean[i] as number) / m;
    }
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        (cov[members[i] as number] as number[])[members[j] as number] = at(i, j) - (rowMean[i] as number) - (rowMean[j] as number) + total;
      }
    }
  }
  return cov;
}

function centred(r: number[]): number[] {
  const mean = r.reduce((a, b) => a + b, 0) / r.length;
  return r.map((x) => x - mean);
}

/** Reported scale R = 400·r + 1000 (§6.1): mean 1000 per component, or the anchor's component shifted to the anchor. */
export function btRatings(fit: BtFit, anchor?: { agent: number; rating: number }): number[] {
  const out = fit.strengths.map((r) => 400 * r + 1000);
  if (anchor !== undefined) {
    const comp = fit.component[anchor.agent];
    const at = out[anchor.agent];
    if (comp === undefined || comp < 0 || at === undefined || Number.isNaN(at))
      throw new RangeError(`anchor agent ${anchor.agent} has no rating`);
    const shift = anchor.rating - at;
    fit.component.forEach((c, i) => {
      if (c === comp) out[i] = (out[i] as number) + shift;
    });
  }
  return out;
}
