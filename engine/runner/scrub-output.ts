// An agent's captured output without the secret values the engine knows of, before any caller reads it: verdicts
// cut the stderr tail, usage lines become events, governance markers become audit events.

import { secretScrubber } from '../runtime/known-secrets.js';
import type { LaunchResult } from './launch.js';

/** A head may end and a tail may begin inside a secret: those edges lose the fragment too. */
export function scrubLaunchResult(result: LaunchResult): LaunchResult {
  const scrub = secretScrubber();
  const tail = (text: string, bytes: number) => scrub(text, { start: Buffer.byteLength(text) < bytes });
  return {
    ...result,
    detail: result.detail === null ? null : scrub(result.detail),
    stdout: scrub(result.stdout, { end: result.stdoutTruncated }),
    stderr: scrub(result.stderr, { end: result.stderrTruncated }),
    stdoutTail: tail(result.stdoutTail, result.stdoutBytes),
    stderrTail: tail(result.stderrTail, result.stderrBytes),
  };
}
