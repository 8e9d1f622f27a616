// Every Clawpoly action's parameters as one zod schema each; the wire's params hints (field descriptions) and
// params_schema (JSON Schema) are derived from them, and submissions are parsed with them.
import { z } from 'zod';
import type { ActionRejection, JsonObject } from '../kit/game.js';
import { TABLE_TALK_MAX } from '../kit/game.js';
import { paramsHint as hintOf, int, paramsSchema as schemaOf } from '../kit/params.js';

export const MAX_BATCH_OPS = 12;

const message = z.string().max(TABLE_TALK_MAX).nullable().optional().describe(`string (optional, max ${TABLE_TALK_MAX} chars)`);
// Integers also arrive as strings ("3"); the kit's int() accepts those. Descriptions stay in the JSON Schema.
const integer = (hint: string, inner: z.ZodType) => int(hint, inner.describe(hint)).describe(hint);
const spaceId = integer('board index', z.number().int().min(0).max(39));
const count = integer('int >= 1', z.number().int().min(1).max(5).optional());
const cash = (what: string) => integer(`int (${what})`, z.number().int().min(0).optional());
const spaces = (what: string) =>
  z
    .array(int('board index', z.number().int().min(0).max(39)))
    .max(28)
    .optional()
    .describe(`int[] (${what})`);
const cards = (what: string) => integer(`int (optional, Get-out-of-Lockup cards to ${what})`, z.number().int().min(0).max(2).optional());
const bare = z.strictObject({ message });

const operation = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('build_house'), space_id: spaceId, count }),
  z.strictObject({ action: z.literal('sell_house'), space_id: spaceId, count }),
  z.strictObject({ action: z.literal('mortgage'), space_id: spaceId }),
  z.strictObject({ action: z.literal('unmortgage'), space_id: spaceId }),
  z.strictObject({ action: z.literal('end_turn') }),
]);

const tradeTerms = {
  offer_cash: cash('cash you hand over'),
  offer_space_ids: spaces('deeds you hand over'),
  offer_jail_cards: cards('hand over'),
  request_cash: cash('cash you receive'),
  request_space_ids: spaces('deeds you receive'),
  request_jail_cards: cards('receive'),
  message,
};

export const ACTION_PARAMS = {
  roll: bare,
  pay_bail: bare,
  use_jail_card: bare,
  end_turn: bare,
  buy_property: bare,
  decline_property: bare,
  build_house: z.strictObject({ space_id: spaceId, count, message }),
  sell_house: z.strictObject({ space_id: spaceId, count, message }),
  mortgage: z.strictObject({ space_id: spaceId, message }),
  unmortgage: z.strictObject({ space_id: spaceId, message }),
  manage_batch: z.strictObject({
    operations: z
      .array(operation)
      .min(1)
      .max(MAX_BATCH_OPS)
      .describe(
        `array of 1-${MAX_BATCH_OPS} management operations: build_house/sell_house/mortgage/unmortgage, with optional final end_turn`,
      ),
    message,
  }),
  propose_trade: z.strictObject({ to_agent_id: integer('int', z.number().int()), ...tradeTerms }),
  accept_trade: bare,
  reject_trade: bare,
  reject_trade_for_turn: bare,
  counter_trade: z.strictObject(tradeTerms),
  declare_bankruptcy: bare,
  chat: z.strictObject({ message: z.string().min(1).max(TABLE_TALK_MAX).describe(`string (max ${TABLE_TALK_MAX} chars)`) }),
} as const;

export type ActionName = keyof typeof ACTION_PARAMS;
export type ParamsOf<A extends ActionName> = z.infer<(typeof ACTION_PARAMS)[A]>;
export type BatchOperation = z.infer<typeof operation>;

export const ACTIONS = Object.keys(ACTION_PARAMS) as ActionName[];

export const DESCRIPTIONS: Record<ActionName, string> = {
  roll: "Roll the dice and resolve movement. Legal only before you've rolled this turn.",
  pay_bail: 'Pay the $50 bail and leave lockup before rolling.',
  use_jail_card: 'Use a Get-out-of-Lockup card before rolling.',
  end_turn: 'End your turn after rolling.',
  buy_property: 'Buy the deed you landed on at face value.',
  decline_property: 'Pass on the deed you landed on. There is no auction.',
  build_house:
    'Build one or more improvements on the selected property only. Even-building rules are enforced; count does not apply to the whole color set.',
  sell_house:
    'Sell one or more improvements from the selected property only. Even-selling rules are enforced; count does not apply to the whole color set.',
  mortgage: 'Mortgage an eligible property to raise cash.',
  unmortgage: 'Lift a mortgage by paying principal plus 10%.',
  manage_batch: 'Apply multiple build, sell, mortgage, or unmortgage operations atomically in one turn action.',
  propose_trade: 'Send a structured trade proposal. Cash, deeds, and Get-out-of-Lockup cards are all tradeable.',
  accept_trade: 'Accept the pending trade as offered.',
  reject_trade: 'Reject the pending trade.',
  reject_trade_for_turn: 'Reject the pending trade and refuse further offers from this proposer until their turn ends.',
  counter_trade:
    'Counter the pending trade: your terms (offer = what you give, request = what you want) go back to the proposer, who may accept or reject.',
  declare_bankruptcy: 'Give up: your assets pass to your creditor (or back to the bank) and you leave the game.',
  chat: 'Send a public table-talk message. Does not advance the turn or consume a management slot. Keep messages under 140 chars.',
};

/** The wire params hint: each field's description. */
export function paramsHint(action: ActionName): Record<string, string> {
  return hintOf(ACTION_PARAMS[action]);
}

export function paramsSchema(action: ActionName): JsonObject {
  return schemaOf(ACTION_PARAMS[action]);
}

export function parseParams<A extends ActionName>(
  action: A,
  params: Record<string, unknown>,
): { ok: true; value: ParamsOf<A> } | { ok: false; error: ActionRejection } {
  const parsed = ACTION_PARAMS[action].safeParse(params);
  if (parsed.success) return { ok: true, value: parsed.data as ParamsOf<A> };
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  return {
    ok: false,
    error: {
      code: 'invalid_params',
      message: `${action}: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid parameters'}`,
      ...(field ? { field } : {}),
    },
  };
}
