// The adaptive format's part of report.md (issue 46): why the run stopped, each adjacent pair of the final ranking
// decided or not, and the budget used. report.json carries the same summary under ratings.format.

import { type AdaptiveBudget, type AdaptivePair, budgetUsedText } from '../../contract/adaptive-summary.js';

const STOP_TEXT: Record<string, string> = {
  ranking_decided: 'every adjacent pair of the ranking is decided',
  top_k_decided: 'the top k are ordered and separated from the rest',
  budget_games: 'the game budget is spent',
  budget_tokens: 'the token budget is spent',
  budget_usd: 'the USD budget is spent',
};

interface PairRow extends AdaptivePair {
  score_interval: [number, number];
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** Markdown lines for an adaptive run's summary; none for other formats. */
export function adaptiveMarkdown(summary: Record<string, unknown> | null): string[] {
  if (summary?.format !== 'adaptive') return [];
  const reason = (summary.stop_reason as string | null) ?? null;
  const confidence = summary.confidence as number;
  const budget = summary.budget as AdaptiveBudget;
  const pairs = summary.pairs as PairRow[];
  const topK = summary.top_k as number | null;
  const lines = ['## Adaptive schedule', ''];
  lines.push(`- Stop: ${reason === null ? 'still running' : `${reason} (${STOP_TEXT[reason] ?? reason})`}`);
  lines.push(
    `- Decided adjacent pairs: ${pairs.filter((p) => p.decided).length} of ${pairs.length}${topK === null ? '' : ` (focus: top ${topK})`}, at ${pct(confidence)} confidence each, valid however often the run looked`,
  );
  lines.push(`- Budget used: ${budgetUsedText(budget)}`, '');
  lines.push('| Place | Upper | Lower | Pairs played | Upper score | Interval | Decided |', '|---:|---|---|---:|---:|---|---|');
  for (const p of pairs) {
    const mean = p.mean_score === null ? '—' : pct(p.mean_score);
    const [lo, hi] = p.score_interval;
    const decided = p.decided ? 'yes' : p.in_focus ? 'no' : 'no (outside focus)';
    lines.push(`| ${p.place} | ${p.upper} | ${p.lower} | ${p.units} | ${mean} | ${pct(lo)}–${pct(hi)} | ${decided} |`);
  }
  lines.push('');
  return lines;
}
