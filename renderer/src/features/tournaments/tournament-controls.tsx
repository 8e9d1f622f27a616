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

/**
 * The run controls. Every state they show is the engine's: a pause or cancel the engine accepted reads "Pausing…" /
 * "Cancelling…" from the summary's `stopping` until the status moves; a start or resume the engine accepted but has
 * not begun yet (the last run's agents are still shutting down) stays pending until the summary says it runs; a
 * refused action shows the engine's reason. Nothing changes on the click alone.
 */
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
  // A start or resume the engine answered but has not begun: pending until the summary reports the run as playing.
  const [starting, setStarting] = useState<TournamentAction | null>(null);
  useEffect(() => {
    if (summary.active || summary.status !== 'paused') setStarting(null);
  }, [summary.active, summary.status]);
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
        if ((action === 'start' || action === 'resume') && !next.active && next.status === 'paused') setStarting(action);
        onChange(next);
      }, setError)
      .finally(() => setBusy(null));
  };

  const actions = availableActions(summary);
  if (actions.length === 0) return null;
  const pending = summary.stopping ?? starting;
  return (
    <span className="t-controls" data-testid="tournament-controls" data-pending={pending ?? undefined}>
      {actions.map((action) => {
        const stoppingAs = STOPPING_OF[action];
        const waiting = busy === action || (stoppingAs !== undefined && summary.stopping === stoppingAs) || starting === action;
        const label = action === 'cancel' && confirming ? 'Confirm cancel' : waiting ? `${PENDING_LABELS[action]}…` : ACTION_LABELS[action];
        return (
          <button
            key={action}
            type="button"
            className={`button ${small ? 'button-small ' : ''}${action === 'cancel' ? 'button-ghost t-danger' : 'button-secondary'}`}
            aria-label={small ? `${label} ${summary.name}` : label}
            aria-busy={waiting || undefined}
            // A pause under way can still be overtaken by a cancel.
            disabled={busy !== null || (pending !== null && !(action === 'cancel' && pending === 'pausing'))}
            onClick={() => act(action)}
          >
            {label}
          </button>
        );
      })}
      {error ? <ErrorNotice error={error} compact /> : null}
    </span>
  );
}

const PENDING_LABELS: Record<TournamentAction, string> = { start: 'Starting', pause: 'Pausing', resume: 'Resuming', cancel: 'Cancelling' };
const STOPPING_OF: Partial<Record<TournamentAction, TournamentSummary['stopping']>> = { pause: 'pausing', cancel: 'cancelling' };
