import { useEffect, useState } from 'react';
import type { SessionStatus } from '../../../../engine/contract/specarena.js';
import { useArena } from '../../app-context.js';
import { type Route, routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { FilterSelect } from '../../ui/filter-select.js';
import { formatClock } from '../../ui/format.js';
import { Loading } from '../../ui/loading.js';
import { navigate } from '../../ui/navigation.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { CreateSessionPanel } from './create-session-panel.js';
import { SessionsTable } from './sessions-table.js';

export const PAGE_SIZE = 25;
export const REFRESH_MS = 3000;

type SessionsRoute = Extract<Route, { name: 'sessions' }>;

const STATUS_FILTERS: { value: SessionStatus | undefined; label: string }[] = [
  { value: undefined, label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'active', label: 'Active' },
  { value: 'ended', label: 'Ended' },
];

export function SessionsPage({ route }: { route: SessionsRoute }) {
  const { refreshOverview } = useArena();
  const [created, setCreated] = useState(0);
  // Tournament games make their own sessions (hundreds in a long study); hidden unless asked for.
  const [showTournament, setShowTournament] = useState(false);
  const setFilters = (next: Partial<SessionsRoute>) => navigate(routeHref({ ...route, create: undefined, ...next }), { replace: true });
  return (
    <>
      <PageHeader title="Sessions" subtitle="Games in this arena. Create one, hand its invites to two agents, and watch it live." />
      <CreateSessionPanel
        initialType={route.create}
        onCreated={() => {
          setCreated((n) => n + 1);
          refreshOverview();
        }}
      />
      <section className="card">
        <div className="toolbar">
          <h2>All sessions</h2>
          <SessionFilters route={route} onChange={setFilters} />
          <label className="small sessions-toggle">
            <input type="checkbox" checked={showTournament} onChange={(event) => setShowTournament(event.target.checked)} />
            Show sessions of tournament games
          </label>
        </div>
        {/* Keyed by the filters, so paging restarts at the first page whenever they change. */}
        <SessionList
          key={`${route.status ?? ''}|${route.type ?? ''}|${showTournament}`}
          status={route.status}
          type={route.type}
          tournamentSessions={showTournament}
          createdCount={created}
        />
      </section>
    </>
  );
}

function SessionFilters({ route, onChange }: { route: SessionsRoute; onChange: (next: Partial<SessionsRoute>) => void }) {
  const { overview } = useArena();
  return (
    <div className="filters">
      <fieldset className="segmented">
        <legend className="sr-only">Status filter</legend>
        {STATUS_FILTERS.map((filter) => (
          <button
            key={filter.label}
            type="button"
            aria-pressed={route.status === filter.value}
            className={route.status === filter.value ? 'segment segment-active' : 'segment'}
            onClick={() => onChange({ status: filter.value })}
          >
            {filter.label}
          </button>
        ))}
      </fieldset>
      <FilterSelect
        label="Challenge"
        anyLabel="All challenges"
        value={route.type ?? ''}
        onChange={(type) => onChange({ type: type || undefined })}
        options={Object.entries(overview.challenges).map(([type, metadata]) => ({ value: type, label: metadata.name }))}
        testId="type-filter"
      />
    </div>
  );
}

function SessionList({
  status,
  type,
  tournamentSessions,
  createdCount,
}: {
  status: SessionStatus | undefined;
  type: string | undefined;
  tournamentSessions: boolean;
  createdCount: number;
}) {
  const { client } = useArena();
  const [offset, setOffset] = useState(0);
  const [loadedAt, setLoadedAt] = useState(0);
  const list = useResource(
    async (signal) => {
      const page = await client.listSessions({ status, type, tournamentSessions, limit: PAGE_SIZE, offset }, signal);
      setLoadedAt(Date.now());
      return page;
    },
    [status, type, tournamentSessions, offset],
    { refreshMs: REFRESH_MS },
  );
  // A session created on this page shows up at once rather than at the next refresh.
  const { reload } = list;
  useEffect(() => {
    if (createdCount > 0) reload();
  }, [createdCount, reload]);

  if (list.loading && !list.data) return <Loading label="Loading sessions…" />;
  if (!list.data) return <ErrorNotice error={list.error} onRetry={list.reload} />;

  const { sessions, total } = list.data;
  const filtered = status !== undefined || type !== undefined;
  return (
    <>
      {list.error ? <ErrorNotice error={list.error} compact /> : null}
      {sessions.length === 0 ? (
        <p className="empty">{filtered ? 'No sessions match these filters.' : 'No sessions yet. Create one above to get started.'}</p>
      ) : (
        <SessionsTable sessions={sessions} now={loadedAt || Date.now()} tournaments={list.data.tournaments} />
      )}
      <div className="table-footer">
        <span className="muted small">
          {total === 0 ? 'No sessions' : `Showing ${offset + 1}–${offset + sessions.length} of ${total}`} · refreshes every{' '}
          {REFRESH_MS / 1000} s{loadedAt ? ` · updated ${formatClock(loadedAt)}` : ''}
        </span>
        <div className="row-gap">
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            Previous
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={offset + sessions.length >= total}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            Next
          </button>
        </div>
      </div>
    </>
  );
}
