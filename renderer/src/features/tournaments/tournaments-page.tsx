// Tournaments: every run in this data folder with its progress and controls, and the way into the builder.
import { useEffect, useState } from 'react';
import type { TournamentSummary } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { formatDateTime, relativeTime } from '../../ui/format.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { LibraryActions, LibraryFilters } from './library-controls.js';
import { ProgressBar } from './progress-bar.js';
import { progressText } from './tournament-actions.js';
import { TournamentControls, TournamentStatusBadge } from './tournament-controls.js';
import { type TournamentListFilter, tournamentsApi } from './tournaments-api.js';
import './tournaments.css';

/** Progress of running tournaments moves; the list follows without a feed per row. */
const REFRESH_MS = 3000;

export function TournamentsPage() {
  const { client } = useArena();
  const [filter, setFilter] = useState<TournamentListFilter>({});
  // Typing waits a moment before it asks the engine.
  const [query, setQuery] = useState<TournamentListFilter>({});
  useEffect(() => {
    const timer = setTimeout(() => setQuery(filter), 250);
    return () => clearTimeout(timer);
  }, [filter]);
  const list = useResource((signal) => tournamentsApi(client).list(query, signal), [query], { refreshMs: REFRESH_MS });
  // A control's answer shows at once, before the next refresh.
  const [updated, setUpdated] = useState<Record<string, TournamentSummary>>({});
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const wanted = (t: TournamentSummary) => {
    const archived = t.archived_at !== null && t.archived_at !== undefined;
    return query.archived === 'include' || (query.archived === 'only' ? archived : !archived);
  };
  const rows = list.data?.tournaments
    .filter((t) => !deleted.has(t.id))
    .map((t) => {
      const fresh = updated[t.id];
      return fresh && fresh.updated_at >= t.updated_at ? fresh : t;
    })
    .filter(wanted);
  const filtered = Boolean(query.q?.trim() || query.status || (query.archived && query.archived !== 'exclude'));

  return (
    <>
      <PageHeader
        title="Tournaments"
        subtitle="Round-robins, gauntlets, Swiss and knockout runs between local agents, with live standings and ratings."
        actions={
          <>
            <a className="button button-secondary" href={routeHref({ name: 'tournament-compare' })}>
              Compare runs
            </a>
            <a className="button button-primary" href={routeHref({ name: 'tournament-new' })}>
              New tournament
            </a>
          </>
        }
      />
      <section className="card" aria-label="Tournaments">
        <LibraryFilters filter={filter} onChange={setFilter} />
        {list.loading && !list.data ? (
          <Loading label="Loading tournaments…" />
        ) : !rows ? (
          <ErrorNotice error={list.error} onRetry={list.reload} />
        ) : (
          <>
            {list.error ? <ErrorNotice error={list.error} compact /> : null}
            {rows.length === 0 && filtered ? (
              <p className="empty">No tournament matches these filters.</p>
            ) : rows.length === 0 ? (
              <p className="empty">
                No tournaments yet. <a href={routeHref({ name: 'tournament-new' })}>Build one</a> from the agents in your agent folders.
              </p>
            ) : (
              <TournamentsTable
                rows={rows}
                onChange={(s) => setUpdated((u) => ({ ...u, [s.id]: s }))}
                onDeleted={(id) => setDeleted((d) => new Set([...d, id]))}
              />
            )}
          </>
        )}
      </section>
    </>
  );
}

function TournamentsTable({
  rows,
  onChange,
  onDeleted,
}: {
  rows: TournamentSummary[];
  onChange: (summary: TournamentSummary) => void;
  onDeleted: (id: string) => void;
}) {
  const now = Date.now();
  return (
    <div className="table-wrap">
      <table className="table" data-testid="tournaments-table">
        <thead>
          <tr>
            <th>Tournament</th>
            <th>Status</th>
            <th>Progress</th>
            <th>Created</th>
            <th>Stop reason</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id} data-tournament-id={t.id} data-status={t.status}>
              <td>
                <a href={routeHref({ name: 'tournament', id: t.id })} className="strong-link">
                  {t.name}
                </a>
                <div className="muted small mono">
                  {t.id}
                  {t.archived_at ? <span className="tag t-archived-tag">archived</span> : null}
                </div>
              </td>
              <td>
                <TournamentStatusBadge summary={t} />
              </td>
              <td className="t-progress-cell">
                <ProgressBar summary={t} label={`Progress of ${t.name}`} />
                <span className="small nowrap">{progressText(t)} games</span>
              </td>
              <td title={formatDateTime(t.created_at)} className="nowrap">
                {relativeTime(t.created_at, now)}
              </td>
              <td>{t.stop_reason ?? <span className="muted">–</span>}</td>
              <td className="t-actions-cell">
                <TournamentControls summary={t} onChange={onChange} small />
                <LibraryActions summary={t} onChanged={onChange} onDeleted={onDeleted} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
