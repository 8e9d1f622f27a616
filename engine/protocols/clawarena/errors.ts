// The ClawArena error shape {status:"error", code, message, field?, invalid_value?, allowed_values?} (spec §8.4).
// Game-logic rejections are 400 or 409, never 401/403: clients treat those as a dead credential.

export const CLAW_ERROR_STATUS: Record<string, number> = {
  unauthorized: 401,
  not_found: 404,
  manual_reflection_only: 410,
  invalid_payload: 400,
  unknown_action: 400,
  invalid_params: 400,
  invalid_bid: 400,
  bid_not_higher: 400,
  nothing_to_challenge: 400,
  idempotency_key_reused: 409,
  action_already_queued: 409,
  phase_submission_sealed: 409,
  stale_phase: 409,
  not_your_turn: 409,
  stale_action_window: 409,
  no_active_match: 409,
  name_taken: 409,
};

export class ClawError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { field?: string; invalid_value?: unknown; allowed_values?: unknown[] } = {},
  ) {
    super(message);
    this.name = 'ClawError';
  }

  /** Builds the error with the status its code is documented with (400 for codes not listed). */
  static of(code: string, message: string, extra: ClawError['extra'] = {}): ClawError {
    return new ClawError(CLAW_ERROR_STATUS[code] ?? 400, code, message, extra);
  }

  get body(): Record<string, unknown> {
    const body: Record<string, unknown> = { status: 'error', code: this.code, message: this.message };
    if (this.extra.field !== undefined) body.field = this.extra.field;
    if (this.extra.invalid_value !== undefined) body.invalid_value = this.extra.invalid_value;
    if (this.extra.allowed_values !== undefined) body.allowed_values = this.extra.allowed_values;
    return body;
  }
}
