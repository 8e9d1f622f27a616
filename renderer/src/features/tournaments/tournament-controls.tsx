// Status badge and the Start/Pause/Resume/Cancel buttons a tournament offers in its current state.
import { useEffect, useState } from 'react';
import type { TournamentSummary } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { ACTION_LABELS, availableActions, statusLabel, statusTitle } from './tournament-actions.js';
import { type TournamentAction, tournamentsApi } from './tournaments-api.js';

export function TournamentStatusBadge({ summary }: { summary: Pick<TournamentSummary, 'status' | 'active' | 'played_by_pid'> }) {
  const interrupted = summary.status === 'running' && !summary.active && typeof summary.played_by_pid !== 'number';
  return (
    <span
      className={`badge t-badge-${interrupted ? 'interrupted' : summary.status}`}
      data-status={summary.status}
      title={statusTitle(summary)}
    >
      {statusLabel(summary)}
    </span>
  );
}

/** Cancel is final, so it takes a second click within a few seconds. */
const CONFIRM_MS = 4000;

export function TournamentControls({
  summary,
  onChange,
  small = false,
}: {
  summary: TournamentSummary;
  onChange: (summary: TournamentSummary) => void;
  small?: boolean;
}) {
  const { client } = useArena();
  const [busy, setBusy] = useState<TournamentAction | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Pause lets the games in flight finish: until the status moves, the request stands and is shown as such.
  const [pauseRequested, setPauseRequested] = useState(false);
  const pausing = pauseRequested && summary.status === 'running' && summary.active;
  useEffect(() => {
    if (summary.status !== 'running') setPauseRequested(false);
  }, [summary.status]);
  useEffect(() => {
    if (!confirming) return;
    const timer = setTimeout(() => setConfirming(false), CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [confirming]);

  const act = (action: TournamentAction) => {
    if (action === 'cancel' && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setBusy(action);
    setError(null);
    tournamentsApi(client)
      .act(summary.id, action)
      .then((next) => {
        setPauseRequested(action === 'pause');
        onChange(next);
      }, setError)
      .finally(() => setBusy(null));
  };

  const actions = availableActions(summary);
  if (actions.length === 0) return null;
  return (
    <span className="t-controls">
      {actions.map((action) => {
        const label =
          action === 'cancel' && confirming ? 'Confirm cancel' : action === 'pause' && pausing ? 'Pausing…' : ACTION_LABELS[action];
        return (
          <button
            key={action}
            type="button"
            className={`button ${small ? 'button-small ' : ''}${action === 'cancel' ? 'button-ghost t-danger' : 'button-secondary'}`}
            aria-label={small ? `${label} ${summary.name}` : label}
            disabled={busy !== null || (action === 'pause' && pausing)}
            onClick={() => act(action)}
          >
            {busy === action ? `${label}…` : label}
          </button>
        );
      })}
      {error ? <ErrorNotice error={error} compact /> : null}
    </span>
  );
}
