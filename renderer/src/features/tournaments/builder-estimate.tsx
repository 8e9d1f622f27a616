// How long the definition will take before Start (issues 16 and 43), from the engine's measured game times, saying
// whose games they were (these agents', other agents' of the challenge, or none: only the game limit bounds it).
import type { RunEstimate } from '../../../../engine/contract/tournament.js';
import { durationText, gameTimeText } from '../../../../engine/core/tournament/run-estimate.js';

type ChallengeEstimate = RunEstimate['per_challenge'][number];

/** "psi: median 40 ms over 12 past games of these agents". */
function basis(p: ChallengeEstimate): string {
  if (p.median_ms === null) return `${p.challenge}: no measured games yet`;
  const whose = p.source === 'agents' ? 'of these agents' : 'of other agents (none of these agents yet)';
  return `${p.challenge}: median game ${gameTimeText(p.median_ms)} over ${p.samples} past games ${whose}`;
}

export function EstimateNote({ estimate, concurrency }: { estimate: RunEstimate; concurrency: number }) {
  return (
    <div className="t-estimate" data-testid="duration-estimate">
      <p className="small">
        {estimate.seconds === null ? (
          <>
            Duration: at most <strong>{durationText(estimate.worst_case_seconds)}</strong>, if every game used its whole game limit (nothing
            measured to go on yet; usually far less).
          </>
        ) : (
          <>
            About <strong>{durationText(estimate.seconds)}</strong> at concurrency {concurrency}, at most{' '}
            {durationText(estimate.worst_case_seconds)} if every game used its whole game limit.
          </>
        )}
      </p>
      <ul className="muted small t-estimate-basis" data-testid="estimate-basis">
        {estimate.per_challenge.map((p) => (
          <li key={p.challenge} data-source={p.source}>
            {basis(p)}
          </li>
        ))}
      </ul>
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
