// The adaptive format's live panel (issue 46): why it stopped (or that it goes on), each adjacent pair of the current
// ranking decided or not, and the budget used, as GET /tournaments/:id reports them.

interface AdaptivePair {
  place: number;
  upper: string;
  lower: string;
  in_focus: boolean;
  decided: boolean;
  units: number;
  mean_score: number | null;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function AdaptivePanel({ adaptive }: { adaptive: Record<string, unknown> }) {
  const pairs = (adaptive.pairs as AdaptivePair[] | undefined) ?? [];
  const budget = (adaptive.budget as Record<string, number | undefined> | undefined) ?? {};
  const reason = adaptive.stop_reason as string | null | undefined;
  const decided = pairs.filter((p) => p.decided).length;
  const spent = [`${budget.games_done ?? 0} of ${budget.games ?? '?'} games`];
  if (budget.tokens !== undefined) spent.push(`${budget.tokens_used ?? 0} of ${budget.tokens} tokens`);
  if (budget.usd !== undefined) spent.push(`$${(budget.usd_used ?? 0).toFixed(4)} of $${budget.usd}`);
  return (
    <section className="card" aria-labelledby="t-adaptive-title" data-testid="adaptive-panel">
      <h2 id="t-adaptive-title">Adaptive schedule</h2>
      <dl className="facts t-facts">
        <dt>Stop</dt>
        <dd data-testid="adaptive-stop">{reason ?? 'not yet: undecided pairs get the next games'}</dd>
        <dt>Decided pairs</dt>
        <dd>
          {decided} of {pairs.length} at {pct(Number(adaptive.confidence ?? 0.95))} confidence
        </dd>
        <dt>Budget used</dt>
        <dd data-testid="adaptive-budget">{spent.join('; ')}</dd>
      </dl>
      <table className="table">
        <thead>
          <tr>
            <th>Place</th>
            <th>Upper</th>
            <th>Lower</th>
            <th>Pairs played</th>
            <th>Upper score</th>
            <th>Decided</th>
          </tr>
        </thead>
        <tbody>
          {pairs.map((p) => (
            <tr key={p.place}>
              <td>{p.place}</td>
              <td>{p.upper}</td>
              <td>{p.lower}</td>
              <td>{p.units}</td>
              <td>{p.mean_score === null ? '—' : pct(p.mean_score)}</td>
              <td>{p.decided ? 'yes' : p.in_focus ? 'no' : 'no (outside focus)'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
