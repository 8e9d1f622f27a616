// What would stop a valid definition from starting on this machine (the validate call's preflight: a model server that
// does not answer, a program that is not installed), each naming the agent and the fix; Start stays off while any.
import type { PreflightProblem } from '../../../../engine/contract/preflight.js';

export function PreflightNotice({ problems }: { problems: readonly PreflightProblem[] | undefined }) {
  if (!problems || problems.length === 0) return null;
  return (
    <div className="notice notice-error small" role="alert" data-testid="preflight-problems">
      <p className="strong">Cannot start on this machine:</p>
      <ul>
        {problems.map((p) => (
          <li key={`${p.agent ?? ''}/${p.check}/${p.message}`} data-check={p.check}>
            {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
