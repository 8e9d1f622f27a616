// Compare two runs: pick run A (before) and run B (after); for the agents in both, the rating change with its interval
// and, where the runs share seeds and seats, the paired games. The numbers are the engine's (`arena compare`).
import type { TournamentComparison } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Loading } from '../../ui/loading.js';
import { navigate } from '../../ui/navigation.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { ExportButtons } from '../reports/export-buttons.js';
import { tournamentsApi } from './tournaments-api.js';
import './tournaments.css';

const signed = (x: number | null, digits = 0): string =>
  x === null ? '—' : `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(digits)}`;

/** "+42 [−10, +95]"; an open side reads "> −10" or "< +95", as in the reports. */
export function deltaLabel(d: TournamentComparison['agents'][number]): string {
  if (d.delta === null) return '—';
  if (d.delta_lower === null && d.delta_upper === null) return `${signed(d.delta)} [open]`;
  if (d.delta_upper === null) return `${signed(d.delta)} [> ${signed(d.delta_lower)}]`;
  if (d.delta_lower === null) return `${signed(d.delta)} [< ${signed(d.delta_upper)}]`;
  return `${signed(d.delta)} [${signed(d.delta_lower)}, ${signed(d.delta_upper)}]`;
}

export function ComparePage({ a, b }: { a: string | undefined; b: string | undefined }) {
  const { client } = useArena();
  const api = tournamentsApi(client);
  const list = useResource((signal) => api.list({ archived: 'include' }, signal), []);
  const comparison = useResource((signal) => (a && b ? api.compare(a, b, signal) : Promise.resolve(null)), [a, b]);
  const runs = list.data?.tournaments ?? [];
  const pick = (side: 'a' | 'b', id: string) =>
    navigate(routeHref({ name: 'tournament-compare', a: side === 'a' ? id || undefined : a, b: side === 'b' ? id || undefined : b }));
  const c = comparison.data ?? null;
  const slug = a && b ? `compare-${a}-${b}` : 'compare';
  return (
    <div className="stack" data-testid="compare-page">
      <PageHeader
        title="Compare runs"
        subtitle="Is B better than A? Rating changes for the agents in both runs, and paired games where both runs played the same seed and seats."
      />
      <section className="card t-compare-pick" aria-label="Runs to compare">
        {list.error ? <ErrorNotice error={list.error} compact /> : null}
        {(['a', 'b'] as const).map((side) => (
          <label key={side} className="field">
            <span className="field-label">{side === 'a' ? 'Run A (before)' : 'Run B (after)'}</span>
            <select value={(side === 'a' ? a : b) ?? ''} onChange={(e) => pick(side, e.target.value)} data-testid={`compare-${side}`}>
              <option value="">Choose a tournament…</option>
              {runs.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} · {t.id} · {t.status}
                </option>
              ))}
            </select>
          </label>
        ))}
      </section>
      {!a || !b ? (
        <p className="muted">Choose two tournaments, for example two runs of the same agents on the same seed with one agent changed.</p>
      ) : comparison.error ? (
        <ErrorNotice error={comparison.error} onRetry={comparison.reload} />
      ) : !c ? (
        <Loading label="Comparing…" />
      ) : (
        <>
          <RatingChanges comparison={c} />
          <PairedGames comparison={c} />
          <ExportButtons
            testId="compare-exports"
            choices={[
              {
                label: 'Export JSON',
                fileName: `${slug}.json`,
                filter: { name: 'JSON', extensions: ['json'] },
                load: () => api.compareText(a, b, 'json'),
              },
              {
                label: 'Export Markdown',
                fileName: `${slug}.md`,
                filter: { name: 'Markdown', extensions: ['md'] },
                load: () => api.compareText(a, b, 'md'),
              },
              {
                label: 'Export CSV',
                fileName: `${slug}.csv`,
                filter: { name: 'CSV', extensions: ['csv'] },
                load: () => api.compareText(a, b, 'csv'),
              },
            ]}
          />
        </>
      )}
    </div>
  );
}

/** For the agents in both runs: each rating, and the change with its interval. */
function RatingChanges({ comparison: c }: { comparison: TournamentComparison }) {
  return (
    <section className="card" aria-labelledby="compare-ratings">
      <h2 id="compare-ratings">Ratings</h2>
      <div className="table-wrap">
        <table className="table" data-testid="compare-ratings">
          <thead>
            <tr>
              <th>Agent</th>
              <th>Changed</th>
              <th className="num">Rating A</th>
              <th className="num">Rating B</th>
              <th className="num">Δ (95% interval)</th>
              <th className="num">Games A / B</th>
            </tr>
          </thead>
          <tbody>
            {c.agents.map((d) => (
              <tr key={d.agent} data-agent={d.agent}>
                <td className="strong">{d.agent}</td>
                <td>{d.changed ? <span className="tag">changed</span> : 'same files'}</td>
                <td className="num">{d.rating_a === null ? '—' : d.rating_a.toFixed(0)}</td>
                <td className="num">{d.rating_b === null ? '—' : d.rating_b.toFixed(0)}</td>
                <td className="num nowrap" data-testid="compare-delta">
                  {deltaLabel(d)}
                </td>
                <td className="num">
                  {d.games_a} / {d.games_b}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {c.only_in_a.length + c.only_in_b.length > 0 ? (
        <p className="muted small">
          {c.only_in_a.length > 0 ? `Only in A: ${c.only_in_a.join(', ')}. ` : ''}
          {c.only_in_b.length > 0 ? `Only in B: ${c.only_in_b.join(', ')}.` : ''}
        </p>
      ) : null}
    </section>
  );
}

/** Where both runs played the same seed and seats: how each agent did in B against A, game by game. */
function PairedGames({ comparison: c }: { comparison: TournamentComparison }) {
  return (
    <section className="card" aria-labelledby="compare-paired">
      <h2 id="compare-paired">Paired games (same seed, same seats)</h2>
      <div className="table-wrap">
        <table className="table" data-testid="compare-paired">
          <thead>
            <tr>
              <th>Agent</th>
              <th className="num">Pairs</th>
              <th className="num">Better / same / worse in B</th>
              <th className="num">Mean score change (95% interval)</th>
              <th className="num">Sign test p</th>
            </tr>
          </thead>
          <tbody>
            {c.paired.map((p) => (
              <tr key={p.agent} data-agent={p.agent} data-pairs={p.pairs}>
                <td className="strong">{p.agent}</td>
                <td className="num">{p.pairs}</td>
                <td className="num">
                  {p.better} / {p.same} / {p.worse}
                </td>
                <td className="num nowrap">
                  {signed(p.mean_difference, 3)}
                  {p.lower !== null && p.upper !== null ? (
                    <span className="muted small">
                      {' '}
                      [{signed(p.lower, 3)}, {signed(p.upper, 3)}]
                    </span>
                  ) : null}
                </td>
                <td className="num">{p.sign_test_p === null ? '—' : p.sign_test_p.toPrecision(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">{c.method}</p>
    </section>
  );
}
