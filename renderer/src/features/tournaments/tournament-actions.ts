// Which controls a tournament offers in its current state, and how its status reads.
import type { TournamentSummary } from '../../../../engine/contract/tournament.js';
import type { TournamentAction } from './tournaments-api.js';

/**
 * Running in the engine: pause or cancel. Stopped but resumable (paused, or marked running by an engine that went
 * away): resume — named Start before the first game — or cancel. Finished, cancelled and failed runs are final (the
 * engine refuses to resume a failed run: what failed it would fail it again).
 */
export function availableActions(t: Pick<TournamentSummary, 'status' | 'active' | 'games_done'>): TournamentAction[] {
  if (t.status === 'finished' || t.status === 'cancelled' || t.status === 'failed') return [];
  if (t.active) return ['pause', 'cancel'];
  return [t.games_done === 0 && t.status === 'paused' ? 'start' : 'resume', 'cancel'];
}

export const ACTION_LABELS: Record<TournamentAction, string> = { start: 'Start', pause: 'Pause', resume: 'Resume', cancel: 'Cancel' };

/** What the badge says: a run the engine lost track of reads "interrupted" rather than "running". */
export function statusLabel(t: Pick<TournamentSummary, 'status' | 'active'>): string {
  if (t.status === 'running' && !t.active) return 'Interrupted';
  return t.status.charAt(0).toUpperCase() + t.status.slice(1);
}

export function progressText(t: Pick<TournamentSummary, 'games_done' | 'planned_games' | 'planned_exact'>): string {
  return `${t.games_done} / ${t.planned_exact ? '' : '≥ '}${t.planned_games}`;
}

export function progressFraction(t: Pick<TournamentSummary, 'games_done' | 'planned_games'>): number {
  return t.planned_games > 0 ? Math.min(1, t.games_done / t.planned_games) : 0;
}
