// When the order of two agents counts as decided in an adaptive run (issue 46). The adaptive format looks at every
// pair after every batch of games, so a fixed-sample test repeated at each look would decide wrongly far more often
// than its nominal level (optional stopping). The rule here is a time-uniform confidence sequence on the head-to-head
// mean score: Robbins' normal mixture over the sub-Gaussian (Hoeffding) martingale of the pair's units. By Ville's
// inequality the true mean leaves the sequence at ANY look with probability at most 1 − confidence, whatever the
// schedule and whenever the run stops, so a decided pair is ordered wrongly with at most that probability.
//
// A unit is one seat-swapped set (the same opening played in both seat orders) and scores the first agent's mean
// score over its games, in [0, 1]: units of a pair are conditionally independent given the past, with the same mean.

/** The head-to-head evidence about agents a and b: units played and a's summed unit scores. */
export interface PairEvidence {
  units: number;
  /** Sum over units of a's mean score in the unit, each in [0, 1]. */
  score: number;
}

export interface PairDecision {
  /** The order is decided at the requested confidence. */
  decided: boolean;
  /** Who leads on the head-to-head score: 'a', 'b', or null when level. */
  leader: 'a' | 'b' | null;
  /** |score − units/2| over the decision boundary: 0 = nothing known, ≥ 1 = decided. */
  progress: number;
  /** The confidence sequence for a's mean score against b, clipped to [0, 1]. */
  interval: [number, number];
}

/** Variance proxy of a unit score bounded in [0, 1] (Hoeffding). */
const UNIT_VARIANCE = 0.25;
/** Mixture width, in units: the boundary is tightest around this many units of a pair. */
const MIXTURE_UNITS = 16;

/** Half-width of the sum's boundary after `units` units: |Σ(x − μ)| stays below it at every look w.p. ≥ confidence. */
export function sequenceBoundary(units: number, confidence: number): number {
  const alpha = 1 - confidence;
  const v = units * UNIT_VARIANCE;
  const rho = MIXTURE_UNITS * UNIT_VARIANCE;
  return Math.sqrt(2 * (v + rho) * (Math.log(1 / alpha) + 0.5 * Math.log((v + rho) / rho)));
}

/** The decision rule adaptive runs use; swap this one function to change how pairs are decided. */
export function pairDecision(evidence: PairEvidence, confidence: number): PairDecision {
  const { units, score } = evidence;
  if (units <= 0) return { decided: false, leader: null, progress: 0, interval: [0, 1] };
  const excess = score - units / 2;
  const boundary = sequenceBoundary(units, confidence);
  const mean = score / units;
  const half = boundary / units;
  return {
    decided: Math.abs(excess) >= boundary,
    leader: excess > 0 ? 'a' : excess < 0 ? 'b' : null,
    progress: Math.abs(excess) / boundary,
    interval: [Math.max(0, mean - half), Math.min(1, mean + half)],
  };
}

/** Whether a's order against b is decided (either way) at `confidence`. */
export function decided(evidence: PairEvidence, confidence: number): boolean {
  return pairDecision(evidence, confidence).decided;
}
