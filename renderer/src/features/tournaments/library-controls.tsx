// The tournaments list's search and filters, and each row's Archive/Restore and Delete (delete asks first: it removes
// the run, its games and its reports for good).
import { useState } from 'react';
import { TOURNAMENT_STATUSES, type TournamentSummary } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { type TournamentListFilter, tournamentsApi } from './tournaments-api.js';

export function LibraryFilters({ filter, onChange }: { filter: TournamentListFilter; onChange: (f: TournamentListFilter) => void }) {
  return (
    <search className="t-library-filters row-gap" aria-label="Find tournaments">
      <label className="field-inline">
        <span>Search</span>
        <input
          type="search"
          value={filter.q ?? ''}
          placeholder="Name or id"
          onChange={(e) => onChange({ ...filter, q: e.target.value })}
          data-testid="tournament-search"
        />
      </label>
      <label className="field-inline">
        <span>Status</span>
        <select value={filter.status ?? ''} onChange={(e) => onChange({ ...filter, status: e.target.value })}>
          <option value="">Any</option>
          {TOURNAMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="field-inline">
        <span>Show</span>
        <select
          value={filter.archived ?? 'exclude'}
          onChange={(e) => onChange({ ...filter, archived: e.target.value as TournamentListFilter['archived'] })}
        >
          <option value="exclude">Current</option>
          <option value="only">Archived</option>
          <option value="include">All</option>
        </select>
      </label>
    </search>
  );
}

export function LibraryActions({
  summary,
  onChanged,
  onDeleted,
}: {
  summary: TournamentSummary;
  onChanged: (s: TournamentSummary) => void;
  onDeleted: (id: string) => void;
}) {
  const { client } = useArena();
  const api = tournamentsApi(client);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // A running run is paused or cancelled first (the engine refuses too).
  if (summary.active || summary.status === 'running') return null;
  const archived = summary.archived_at !== null && summary.archived_at !== undefined;
  const run = (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    work()
      .catch(setError)
      .finally(() => setBusy(false));
  };
  if (confirming)
    return (
      <fieldset className="t-controls t-confirm">
        <legend className="small">Delete this run, its games and its reports?</legend>
        <button
          type="button"
          className="button button-small button-ghost t-danger"
          disabled={busy}
          aria-label={`Delete ${summary.name} for good`}
          onClick={() =>
            run(async () => {
              await api.remove(summary.id);
              onDeleted(summary.id);
            })
          }
        >
          {busy ? 'Deleting…' : 'Delete for good'}
        </button>
        <button type="button" className="button button-small button-secondary" onClick={() => setConfirming(false)}>
          Keep
        </button>
        {error ? <ErrorNotice error={error} compact /> : null}
      </fieldset>
    );
  return (
    <span className="t-controls">
      <button
        type="button"
        className="button button-small button-secondary"
        disabled={busy}
        aria-label={`${archived ? 'Restore' : 'Archive'} ${summary.name}`}
        onClick={() => run(async () => onChanged(await api.archive(summary.id, !archived)))}
      >
        {archived ? 'Restore' : 'Archive'}
      </button>
      <button
        type="button"
        className="button button-small button-ghost t-danger"
        aria-label={`Delete ${summary.name}`}
        onClick={() => setConfirming(true)}
      >
        Delete
      </button>
      {error ? <ErrorNotice error={error} compact /> : null}
    </span>
  );
}
