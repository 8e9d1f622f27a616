// The ClawArena error shape {status:"error", code, message, field?, invalid_value?, allowed_values?} (spec §8.4).
// Game-logic rejections are invalid or conflict (400/409), never unauthorized/forbidden: clients treat those as a
// dead credential.
import { DomainError, type ErrorKind } from '../../contract/errors.js';

/** The kind of each documented code; codes not listed (a game's own, such as `invalid_bid`) are `invalid`. */
export const CLAW_ERROR_KIND: Record<string, ErrorKind> = {
  unauthorized: 'unauthorized',
  not_found: 'not_found',
  manual_reflection_only: 'gone',
  invalid_payload: 'invalid',
  unknown_action: 'invalid',
  invalid_params: 'invalid',
  invalid_bid: 'invalid',
  bid_not_higher: 'invalid',
  nothing_to_challenge: 'invalid',
  idempotency_key_reused: 'conflict',
  action_already_queued: 'conflict',
  phase_submission_sealed: 'conflict',
  stale_phase: 'conflict',
  not_your_turn: 'conflict',
  stale_action_window: 'conflict',
  no_active_match: 'conflict',
  name_taken: 'conflict',
};

export type ClawErrorExtra = { field?: string; invalid_value?: unknown; allowed_values?: unknown[] };

export class ClawError extends DomainError {
  override name = 'ClawError';
  constructor(
    kind: ErrorKind,
    code: string,
    message: string,
    readonly extra: ClawErrorExtra = {},
  ) {
    super(kind, message, { code });
  }

  /** Builds the error with the kind its code is documented with. */
  static of(code: string, message: string, extra: ClawErrorExtra = {}): ClawError {
    return new ClawError(CLAW_ERROR_KIND[code] ?? 'invalid', code, message, extra);
  }

  get body(): Record<string, unknown> {
    const body: Record<string, unknown> = { status: 'error', code: this.code, message: this.message };
    if (this.extra.field !== undefined) body.field = this.extra.field;
    if (this.extra.invalid_value !== undefined) body.invalid_value = this.extra.invalid_value;
    if (this.extra.allowed_values !== undefined) body.allowed_values = this.extra.allowed_values;
    return body;
  }
}
