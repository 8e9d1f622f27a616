import type { TournamentSummary } from '../../../../engine/contract/tournament.js';
import { progressFraction, progressText } from './tournament-actions.js';

/** Games done out of planned, as a native progress element (screen readers announce the value). */
export function ProgressBar({ summary, label }: { summary: TournamentSummary; label: string }) {
  return (
    <progress
      className="t-progress"
      max={1}
      value={progressFraction(summary)}
      aria-label={label}
      aria-valuetext={`${progressText(summary)} games`}
    />
  );
}
