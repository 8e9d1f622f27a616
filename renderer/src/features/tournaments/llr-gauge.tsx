// SPRT progress: the log-likelihood ratio between its two decision bounds, and the decision once it is reached.
import { gaugePosition } from './chart-scale.js';
import type { SprtState } from './tournaments-api.js';

const DECISIONS: Record<string, string> = {
  continue: 'No decision yet',
  accept_h0: 'H0 accepted (elo0)',
  accept_h1: 'H1 accepted (elo1)',
};

export function LlrGauge({ sprt }: { sprt: SprtState }) {
  const position = gaugePosition(sprt.llr, sprt.lower, sprt.upper);
  const zero = gaugePosition(0, sprt.lower, sprt.upper);
  const decision = DECISIONS[sprt.decision] ?? sprt.decision;
  return (
    <div className="t-llr" data-testid="llr-gauge" data-decision={sprt.decision}>
      {/* The native meter is what assistive technology reads; the drawn track beside it is decoration. */}
      <meter
        className="sr-only"
        aria-label="SPRT log-likelihood ratio"
        min={sprt.lower}
        max={sprt.upper}
        value={Math.min(sprt.upper, Math.max(sprt.lower, sprt.llr))}
        aria-valuetext={`LLR ${sprt.llr.toFixed(2)} between ${sprt.lower.toFixed(2)} and ${sprt.upper.toFixed(2)}: ${decision}`}
      />
      <div className="t-llr-track" aria-hidden="true">
        <span className="t-llr-zero" style={{ left: `${zero * 100}%` }} />
        <span className="t-llr-needle" style={{ left: `${position * 100}%` }} />
      </div>
      <div className="t-llr-scale small muted">
        <span>{sprt.lower.toFixed(2)} (H0)</span>
        <span className="strong t-llr-value">LLR {sprt.llr.toFixed(2)}</span>
        <span>{sprt.upper.toFixed(2)} (H1)</span>
      </div>
      <p className="small">
        Decision: <span className="strong">{decision}</span>
      </p>
    </div>
  );
}
