// Which controls a tournament offers in its current state, and how its status reads.
import type { TournamentSummary } from '../../../../engine/contract/tournament.js';
import type { TournamentAction } from './tournaments-api.js';

type ActionState = Pick<TournamentSummary, 'status' | 'active' | 'games_done' | 'played_by_pid'>;

/** Played by another engine process on the same data directory (`arena run` in a terminal): only it controls the run. */
const playedElsewhere = (t: Pick<TournamentSummary, 'status' | 'active' | 'played_by_pid'>) =>
  t.status === 'running' && !t.active && typeof t.played_by_pid === 'number';

/**
 * Running in the engine: pause or cancel. Stopped but resumable (paused, or marked running by an engine that went
 * away): resume — named Start before the first game — or cancel. Finished, cancelled and failed runs are final (the
 * engine refuses to resume a failed run: what failed it would fail it again), and so, from here, is a run another
 * engine process plays.
 */
export function availableActions(t: ActionState): TournamentAction[] {
  if (t.status === 'finished' || t.status === 'cancelled' || t.status === 'failed') return [];
  if (t.active) return ['pause', 'cancel'];
  if (playedElsewhere(t)) return [];
  return [t.games_done === 0 && t.status === 'paused' ? 'start' : 'resume', 'cancel'];
}

export const ACTION_LABELS: Record<TournamentAction, string> = { start: 'Start', pause: 'Pause', resume: 'Resume', cancel: 'Cancel' };

/**
 * What the badge says: a run another engine process plays reads "running elsewhere", one whose engine went away
 * "interrupted", rather than "running".
 */
export function statusLabel(t: Pick<TournamentSummary, 'status' | 'active' | 'played_by_pid'>): string {
  if (playedElsewhere(t)) return 'Running elsewhere';
  if (t.status === 'running' && !t.active) return 'Interrupted';
  return t.status.charAt(0).toUpperCase() + t.status.slice(1);
}

/** The badge's tooltip for a run another engine process plays, naming it. */
export function statusTitle(t: Pick<TournamentSummary, 'status' | 'active' | 'played_by_pid'>): string | undefined {
  return playedElsewhere(t)
    ? `Played by another Local Arena process (pid ${t.played_by_pid}) on this data folder; pause or cancel it there`
    : undefined;
}

export function progressText(t: Pick<TournamentSummary, 'games_done' | 'planned_games' | 'planned_exact'>): string {
  return `${t.games_done} / ${t.planned_exact ? '' : '≥ '}${t.planned_games}`;
}

export function progressFraction(t: Pick<TournamentSummary, 'games_done' | 'planned_games'>): number {
  return t.planned_games > 0 ? Math.min(1, t.games_done / t.planned_games) : 0;
}

/** "warm, 2 processes, 1 restart" — or why its remaining games are forfeits. */
export function lifecycleText(a: NonNullable<TournamentSummary['agent_lifecycles']>[number]): string {
  if (a.lifecycle === 'per-game') return 'a fresh process per game';
  const restarts = `${a.restarts} restart${a.restarts === 1 ? '' : 's'}`;
  const base = `warm, ${a.processes} process${a.processes === 1 ? '' : 'es'}, ${restarts}`;
  return a.retired ? `${base}; retired: remaining games are forfeits` : base;
}
