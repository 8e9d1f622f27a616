// The adaptive format's live panel (issue 46): why it stopped (or that it goes on), each adjacent pair of the current
// ranking decided or not, and the budget used, as GET /tournaments/:id reports them.

import { type AdaptiveBudget, type AdaptivePair, budgetUsedText } from '../../../../engine/contract/adaptive-summary.js';

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function AdaptivePanel({ adaptive }: { adaptive: Record<string, unknown> }) {
  const pairs = (adaptive.pairs as AdaptivePair[] | undefined) ?? [];
  const budget = (adaptive.budget as AdaptiveBudget | undefined) ?? {};
  const reason = adaptive.stop_reason as string | null | undefined;
  const decided = pairs.filter((p) => p.decided).length;
  return (
    <section className="card" aria-labelledby="t-adaptive-title" data-testid="adaptive-panel">
      <h2 id="t-adaptive-title">Adaptive schedule</h2>
      <dl className="facts t-facts">
        <dt>Stop</dt>
        <dd data-testid="adaptive-stop">{reason ?? 'not yet: undecided pairs get the next games'}</dd>
        <dt>Decided pairs</dt>
        <dd data-testid="adaptive-decided" data-decided={decided} data-pairs={pairs.length}>
          {decided} of {pairs.length} at {pct(Number(adaptive.confidence ?? 0.95))} confidence
        </dd>
        <dt>Budget used</dt>
        <dd data-testid="adaptive-budget">{budgetUsedText(budget)}</dd>
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
            <tr key={p.place} data-testid="adaptive-pair" data-units={p.units} data-decided={p.decided}>
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
