// Time limits end up in Node timers, which fire at once for any delay above 2^31−1 ms (every game would time out on
// its first move). Every limit a file or request can set is checked against this ceiling as a field error.
import { z } from 'zod';

export const MAX_TIMER_MS = 2 ** 31 - 1;
/** Whole seconds below the ceiling, with room for the runner's grace periods added on top of a game's limit. */
export const MAX_LIMIT_SECONDS = 2_147_000;

const ceiling = `(Node timers cannot exceed 2^31−1 ms)`;

/** A positive duration in seconds, at most MAX_LIMIT_SECONDS. */
export const limitSeconds = (label?: string) => {
  const subject = label === undefined ? '' : `${label} `;
  return z
    .number()
    .positive(label === undefined ? undefined : `${label} must be > 0`)
    .max(MAX_LIMIT_SECONDS, `${subject}must be at most ${MAX_LIMIT_SECONDS} s ${ceiling}`);
};

/** A whole number of milliseconds from 0 to 2^31−1. */
export const limitMs = () => z.int().min(0).max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms ${ceiling}`);
