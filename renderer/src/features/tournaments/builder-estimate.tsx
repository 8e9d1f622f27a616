// How long the definition will take before Start (issue 16), from the engine's measured game times, with its
// warnings (a very long run, 100,000 games per pairing, nothing measured yet).
import type { RunEstimate } from '../../../../engine/contract/tournament.js';

/** "40 s", "12 min", "3.5 h", "4.2 days". */
export function durationText(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} days`;
}

export function EstimateNote({ estimate, concurrency }: { estimate: RunEstimate; concurrency: number }) {
  const measured = estimate.per_challenge.filter((p) => p.median_ms !== null);
  return (
    <div className="t-estimate" data-testid="duration-estimate">
      <p className="small">
        {estimate.seconds === null ? (
          <>Duration: up to {durationText(estimate.worst_case_seconds)} if every game used its whole game limit.</>
        ) : (
          <>
            About <strong>{durationText(estimate.seconds)}</strong> at concurrency {concurrency}
            <span className="muted">
              {' '}
              (median game{' '}
              {measured.map((p) => `${p.challenge} ${((p.median_ms as number) / 1000).toFixed(1)} s over ${p.samples}`).join(', ')})
            </span>
          </>
        )}
      </p>
      {estimate.warnings.length > 0 ? (
        <ul className="t-estimate-warnings small" data-testid="estimate-warnings">
          {estimate.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
