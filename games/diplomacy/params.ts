// Claw Diplomacy action params, declared once: the hints and params_schema come from these, and so do the keys a
// submission may carry. The nested orders, messages and intents are checked by the phase's own readers.
import { z } from 'zod';
import { declaration, field, jsonObject } from '../kit/params.js';

export const MAX_OVERRIDES = 2;

/** `send_press` in a round allowing `max` messages. */
export const pressParams = declaration((max: number) =>
  z.strictObject({
    messages: field(
      z.array(z.unknown()).max(max).optional(),
      `array of {to_power: one of recipient_powers or 'global', content: string (1-600 chars), proposal: optional structured proposal}; max ${max} messages this round`,
    ),
    strategy_intent: field(
      jsonObject().optional(),
      'optional private object with objective, risk_posture (exactly conservative, balanced, or aggressive), priority_targets, avoid_provinces, dmz_provinces, trusted_powers, threat_powers, accepted_proposal_ids, rejected_proposal_ids, and planned_candidate_id',
    ),
  }),
);

/** `submit_orders`, `submit_retreats` and `submit_adjustments`: one sealed batch, given one of three ways. */
export const BATCH_PARAMS = z.strictObject({
  orders: field(z.array(jsonObject()).optional(), 'optional legacy/direct array of structured orders'),
  candidate_id: field(z.string().optional(), 'optional recommended candidate id; use instead of orders'),
  order_overrides: field(
    z.array(jsonObject()).max(MAX_OVERRIDES).optional(),
    `optional array replacing at most ${MAX_OVERRIDES} candidate orders by origin`,
  ),
  use_server_default: field(
    z.boolean().optional(),
    'optional boolean; true asks the server to seal its current top heuristic candidate or deterministic phase default; mutually exclusive with all other params',
  ),
});
