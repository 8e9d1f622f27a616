// Comparing two runs (issue 15): for every agent present in both (by id), the change of its rating with an interval,
// and, where the runs share openings (same challenge, same seed, same agents in the same seats), a paired analysis of
// that agent's game scores: same seed, same seat → one paired difference. Works on report.json, so shared reports can
// be compared without the database they came from.

import type { PairedResult, RatingDelta, TournamentComparison } from '../../contract/tournament.js';
import { studentTQuantile, Z95 } from '../../core/ratings/index.js';
import { canonicalJson } from '../../runtime/canonical-json.js';
import { buildsDiffer, type ModelBuild } from '../../runtime/model-build.js';

/** The parts of a report.json a comparison reads. */
export interface ComparableReport {
  id: string;
  name: string;
  manifest_hash: string;
  manifest: {
    agents: Array<{ id: string; name?: string; manifest_sha256: string; entry_sha256: string | null; model?: unknown }>;
  };
  standings: { combined: ComparableStanding[] };
  ratings: { combined?: { agents?: Array<{ agent: number; rating: { sd: number | null } }> } };
  games: ComparableGame[];
}

export interface ComparableStanding {
  agent: string;
  games: number;
  rating: number | null;
  rating_lower: number | null;
  rating_upper: number | null;
  score_pct: number | null;
}

export interface ComparableGame {
  game_index: number;
  challenge: string;
  seed: string;
  seats: string[];
  termination: string;
  counts: boolean;
  /** Counted placements (a forfeit: faulted seats last). */
  placements?: number[] | null;
  result: { placements: number[] | null; faulted_seats: number[] };
}

export type Comparison = TournamentComparison;
export type { PairedResult, RatingDelta };

export const COMPARE_METHOD =
  'Rating delta = B − A of each run’s posterior mode; the runs are independent, so its 95% interval is ±1.96·√(sd_A² + sd_B²). Each run centres its field on 1000, so the delta is relative to the field. Paired: each game of B whose challenge, seed and seat agents equal a game of A pairs the agent’s two scores in its seat; the interval is a t-interval of the mean difference and the p-value an exact two-sided sign test.';

/** Score per seat of a counted game: the pairwise placement percentile (1 / ½ / 0 with two seats). */
function seatScore(placements: readonly number[], seat: number): number {
  const mine = placements[seat] as number;
  let sum = 0;
  let count = 0;
  placements.forEach((p, other) => {
    if (other === seat) return;
    sum += p < mine ? 0 : p === mine ? 0.5 : 1;
    count++;
  });
  return count === 0 ? 0.5 : sum / count;
}

/** P(X ≤ k) doubled for X ~ Binomial(n, ½), capped at 1: the exact two-sided sign test. */
export function signTestP(successes: number, n: number): number {
  if (n === 0) return 1;
  const k = Math.min(successes, n - successes);
  let logC = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

function sdOf(report: ComparableReport, agent: string): number | null {
  const index = report.manifest.agents.findIndex((a) => a.id === agent);
  const sd = report.ratings.combined?.agents?.find((a) => a.agent === index)?.rating.sd;
  return typeof sd === 'number' && Number.isFinite(sd) ? sd : null;
}

function openingKey(g: ComparableGame): string {
  return JSON.stringify([g.challenge, g.seed, g.seats]);
}

const buildOf = (model: unknown): ModelBuild | null =>
  typeof model === 'object' && model !== null ? ((model as { build?: ModelBuild }).build ?? null) : null;

function withoutBuild(model: unknown): unknown {
  if (typeof model !== 'object' || model === null) return model ?? null;
  const { build, ...rest } = model as Record<string, unknown>;
  return rest;
}

export function compareRuns(a: ComparableReport, b: ComparableReport): Comparison {
  const idsA = a.manifest.agents.map((x) => x.id);
  const idsB = b.manifest.agents.map((x) => x.id);
  const both = idsA.filter((id) => idsB.includes(id));
  const agents = both.map((agent): RatingDelta => {
    const sa = a.standings.combined.find((r) => r.agent === agent);
    const sb = b.standings.combined.find((r) => r.agent === agent);
    const ma = a.manifest.agents.find((x) => x.id === agent);
    const mb = b.manifest.agents.find((x) => x.id === agent);
    // A model agent's model, server or sampler settings (model.yaml, recorded in the run manifest) count as a change,
    // and so do different weights behind the same name (a moved tag); a build one run could not learn does not.
    const changed =
      ma?.manifest_sha256 !== mb?.manifest_sha256 ||
      ma?.entry_sha256 !== mb?.entry_sha256 ||
      canonicalJson(withoutBuild(ma?.model)) !== canonicalJson(withoutBuild(mb?.model)) ||
      buildsDiffer(buildOf(ma?.model), buildOf(mb?.model));
    const ra = sa?.rating ?? null;
    const rb = sb?.rating ?? null;
    const delta = ra === null || rb === null ? null : rb - ra;
    const sdA = sdOf(a, agent);
    const sdB = sdOf(b, agent);
    const half = sdA === null || sdB === null ? null : Z95 * Math.sqrt(sdA * sdA + sdB * sdB);
    // B's open upper side (or A's open lower side) leaves the delta unbounded above; and the reverse below.
    const openAbove = sb?.rating_upper === null || sa?.rating_lower === null;
    const openBelow = sb?.rating_lower === null || sa?.rating_upper === null;
    return {
      agent,
      changed,
      rating_a: ra,
      rating_b: rb,
      delta,
      delta_lower: delta === null || half === null || openBelow ? null : delta - half,
      delta_upper: delta === null || half === null || openAbove ? null : delta + half,
      games_a: sa?.games ?? 0,
      games_b: sb?.games ?? 0,
    };
  });

  const counted = (r: ComparableReport) => r.games.filter((g) => g.counts && countedPlacements(g) !== null);
  const byOpening = new Map<string, ComparableGame>();
  for (const g of counted(a)) byOpening.set(openingKey(g), g);
  const diffs = new Map<string, number[]>(both.map((id) => [id, []]));
  for (const gb of counted(b)) {
    const ga = byOpening.get(openingKey(gb));
    if (!ga) continue;
    const pa = countedPlacements(ga) as number[];
    const pb = countedPlacements(gb) as number[];
    gb.seats.forEach((agent, seat) => {
      diffs.get(agent)?.push(seatScore(pb, seat) - seatScore(pa, seat));
    });
  }
  const paired = both.map((agent): PairedResult => {
    const d = diffs.get(agent) ?? [];
    const n = d.length;
    const better = d.filter((x) => x > 0).length;
    const worse = d.filter((x) => x < 0).length;
    const mean = n === 0 ? null : d.reduce((s, x) => s + x, 0) / n;
    let lower: number | null = null;
    let upper: number | null = null;
    if (mean !== null && n >= 2) {
      const variance = d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
      const half = studentTQuantile(0.975, n - 1) * Math.sqrt(variance / n);
      lower = Math.max(-1, mean - half);
      upper = Math.min(1, mean + half);
    }
    return {
      agent,
      pairs: n,
      better,
      same: n - better - worse,
      worse,
      mean_difference: mean,
      lower,
      upper,
      sign_test_p: better + worse === 0 ? null : signTestP(better, better + worse),
    };
  });
  return {
    a: { id: a.id, name: a.name, manifest_hash: a.manifest_hash },
    b: { id: b.id, name: b.name, manifest_hash: b.manifest_hash },
    agents,
    paired,
    only_in_a: idsA.filter((id) => !idsB.includes(id)),
    only_in_b: idsB.filter((id) => !idsA.includes(id)),
    method: COMPARE_METHOD,
  };
}

/** The placements a game counts with: as the report lists them, or rebuilt from a forfeit's faulted seats. */
function countedPlacements(g: ComparableGame): number[] | null {
  if (Array.isArray(g.placements)) return g.placements;
  if (g.result.placements) return g.result.placements;
  if (g.result.faulted_seats.length > 0) return g.seats.map((_, seat) => (g.result.faulted_seats.includes(seat) ? 2 : 1));
  return null;
}

const num = (x: number | null, digits = 0): string => (x === null ? '' : x.toFixed(digits));
const signed = (x: number | null, digits = 0): string =>
  x === null ? '—' : `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(digits)}`;

/** "+42 [−10, +95]", "+42 [> −10]", "+42 [< +95]" or "+42 [open]". */
export function deltaText(d: Pick<RatingDelta, 'delta' | 'delta_lower' | 'delta_upper'>): string {
  if (d.delta === null) return '—';
  if (d.delta_lower === null && d.delta_upper === null) return `${signed(d.delta)} [open]`;
  if (d.delta_upper === null) return `${signed(d.delta)} [> ${signed(d.delta_lower)}]`;
  if (d.delta_lower === null) return `${signed(d.delta)} [< ${signed(d.delta_upper)}]`;
  return `${signed(d.delta)} [${signed(d.delta_lower)}, ${signed(d.delta_upper)}]`;
}

export function comparisonMarkdown(c: Comparison): string {
  const lines = [`# Comparison: ${c.a.name} → ${c.b.name}`, ''];
  lines.push(
    `- A: \`${c.a.id}\` (run manifest \`${c.a.manifest_hash}\`)`,
    `- B: \`${c.b.id}\` (run manifest \`${c.b.manifest_hash}\`)`,
    '',
  );
  lines.push('## Ratings (agents in both runs)', '', '| Agent | Changed | Rating A | Rating B | Δ (95% CI) | Games A | Games B |');
  lines.push('|---|---|---:|---:|---|---:|---:|');
  for (const d of c.agents)
    lines.push(
      `| ${d.agent} | ${d.changed ? 'yes' : 'no'} | ${num(d.rating_a) || '—'} | ${num(d.rating_b) || '—'} | ${deltaText(d)} | ${d.games_a} | ${d.games_b} |`,
    );
  lines.push('', '## Paired games (same challenge, seed and seats)', '');
  lines.push('| Agent | Pairs | Better | Same | Worse | Mean Δ score (95% CI) | Sign test p |', '|---|---:|---:|---:|---:|---|---:|');
  for (const p of c.paired) {
    const ci = p.lower === null || p.upper === null ? '' : ` [${signed(p.lower, 3)}, ${signed(p.upper, 3)}]`;
    lines.push(
      `| ${p.agent} | ${p.pairs} | ${p.better} | ${p.same} | ${p.worse} | ${signed(p.mean_difference, 3)}${ci} | ${p.sign_test_p === null ? '—' : p.sign_test_p.toPrecision(3)} |`,
    );
  }
  if (c.only_in_a.length > 0) lines.push('', `Only in A: ${c.only_in_a.join(', ')}`);
  if (c.only_in_b.length > 0) lines.push('', `Only in B: ${c.only_in_b.join(', ')}`);
  lines.push('', `Method: ${c.method}`, '');
  return lines.join('\n');
}

const cell = (v: unknown): string => {
  const text = v === null || v === undefined ? '' : typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One row per agent in both runs: the rating delta and the paired result side by side; header row first. */
export function comparisonCsv(c: Comparison): string {
  const header = [
    'agent',
    'changed',
    'rating_a',
    'rating_b',
    'delta',
    'delta_lower',
    'delta_upper',
    'games_a',
    'games_b',
    'paired_games',
    'better',
    'same',
    'worse',
    'mean_score_difference',
    'mean_lower',
    'mean_upper',
    'sign_test_p',
  ];
  const rows = c.agents.map((d) => {
    const p = c.paired.find((x) => x.agent === d.agent);
    return [
      d.agent,
      d.changed,
      d.rating_a,
      d.rating_b,
      d.delta,
      d.delta_lower,
      d.delta_upper,
      d.games_a,
      d.games_b,
      p?.pairs ?? 0,
      p?.better ?? 0,
      p?.same ?? 0,
      p?.worse ?? 0,
      p?.mean_difference ?? null,
      p?.lower ?? null,
      p?.upper ?? null,
      p?.sign_test_p ?? null,
    ]
      .map(cell)
      .join(',');
  });
  return `${[header.join(','), ...rows].join('\n')}\n`;
}
