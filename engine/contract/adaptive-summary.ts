// What the adaptive format reports about itself (GET /tournaments/:id `adaptive`, report.json `ratings.format`), and
// the budget line the live panel and report.md both show, so the two read the same.

/** One adjacent pair of the current ranking. */
export interface AdaptivePair {
  place: number;
  upper: string;
  lower: string;
  in_focus: boolean;
  decided: boolean;
  units: number;
  mean_score: number | null;
}

export type AdaptiveBudget = Partial<Record<'games' | 'games_done' | 'tokens' | 'tokens_used' | 'usd' | 'usd_used', number>>;

/** "12 of 60 games; 900 of 1000 tokens; $0.0100 of $1": the budget and what the run used of it. */
export function budgetUsedText(budget: AdaptiveBudget): string {
  const spent = [`${budget.games_done ?? 0} of ${budget.games ?? '?'} games`];
  if (budget.tokens !== undefined) spent.push(`${budget.tokens_used ?? 0} of ${budget.tokens} tokens`);
  if (budget.usd !== undefined) spent.push(`$${(budget.usd_used ?? 0).toFixed(4)} of $${budget.usd}`);
  return spent.join('; ');
}
