// One zod declaration per action: the params hints and params_schema derived from it are the wire forms the games
// always sent (written out here as they were hand-written before), and validation keeps its codes and wording.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BATCH_PARAMS, pressParams } from '../../../games/diplomacy/params.js';
import { int, oneOf, paramsHint, paramsSchema, parseParams, tableTalk, text } from '../../../games/kit/params.js';
import { bidParams, challengeParams, parseBid } from '../../../games/liars-dice/params.js';
import { chatParams, targetParams } from '../../../games/mafia/params.js';

const TALK = { type: 'string', maxLength: 140 };

describe('derived wire forms', () => {
  it("Liar's Dice bid and challenge", () => {
    expect(paramsHint(bidParams(10))).toEqual({ quantity: 'int', face: 'int (1-6)', message: 'string (optional, max 140 chars)' });
    const schema = paramsSchema(bidParams(10));
    expect(schema).toEqual({
      type: 'object',
      required: ['quantity', 'face'],
      properties: {
        quantity: { type: 'integer', minimum: 1, maximum: 10 },
        face: { type: 'integer', minimum: 1, maximum: 6 },
        message: TALK,
      },
      additionalProperties: true,
    });
    // Key order as the hand-written objects had it, so the JSON text is unchanged too.
    expect(Object.keys(schema)).toEqual(['type', 'required', 'properties', 'additionalProperties']);
    expect(paramsSchema(challengeParams())).toEqual({ type: 'object', properties: { message: TALK }, additionalProperties: true });
  });

  it('Mafia chat, night pick and vote (a one-value set stays an enum)', () => {
    expect(paramsHint(chatParams())).toEqual({ message: 'string (max 1000 chars)' });
    expect(paramsSchema(chatParams())).toEqual({
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string', minLength: 1, maxLength: 1000 } },
      additionalProperties: true,
    });
    expect(paramsSchema(targetParams([3], false)).properties).toEqual({ target_id: { type: 'integer', enum: [3] } });
    expect(JSON.stringify(paramsSchema(targetParams([2, 5], true)).properties)).toBe(
      '{"target_id":{"type":["integer","null"],"enum":[2,5,null]}}',
    );
    expect(paramsHint(targetParams([2, 5], true))).toEqual({ target_id: 'int or null' });
  });

  it('Diplomacy press and batches', () => {
    expect(paramsSchema(pressParams(3))).toEqual({
      type: 'object',
      properties: { messages: { type: 'array', maxItems: 3 }, strategy_intent: { type: 'object' } },
      additionalProperties: false,
    });
    expect(paramsSchema(BATCH_PARAMS)).toEqual({
      type: 'object',
      properties: {
        orders: { type: 'array', items: { type: 'object' } },
        candidate_id: { type: 'string' },
        order_overrides: { type: 'array', maxItems: 2, items: { type: 'object' } },
        use_server_default: { type: 'boolean' },
      },
      additionalProperties: false,
    });
    expect(Object.keys(paramsHint(BATCH_PARAMS))).toEqual(['orders', 'candidate_id', 'order_overrides', 'use_server_default']);
  });
});

describe('validation from the same declaration', () => {
  it('accepts integers written as strings and keeps the game codes for ranges', () => {
    expect(parseBid({ quantity: '3', face: ' 4 ' }, 10)).toEqual({ ok: true, value: { quantity: 3, face: 4 } });
    expect(parseBid({ quantity: 11, face: 2 }, 10)).toEqual({
      ok: false,
      error: { code: 'invalid_bid', message: 'quantity must be from 1 to 10', field: 'quantity', invalid_value: 11 },
    });
    // Face is checked before quantity, and a type error before any range.
    expect(parseBid({ quantity: 11, face: 0 }, 10).ok === false && parseBid({ quantity: 11, face: 0 }, 10)).toMatchObject({
      error: { code: 'invalid_bid', field: 'face', allowed_values: [1, 2, 3, 4, 5, 6] },
    });
    expect(parseBid({ quantity: 99, face: 'six' }, 10)).toEqual({
      ok: false,
      error: { code: 'invalid_params', message: 'face must be an integer', field: 'face', invalid_value: 'six' },
    });
    expect(parseBid({ face: 2 }, 10)).toEqual({
      ok: false,
      error: { code: 'invalid_params', message: 'quantity is required', field: 'quantity' },
    });
    expect(parseBid({ quantity: 1.5, face: 2 }, 10).ok).toBe(false);
  });

  it('counts text length in characters, as JSON Schema does, and accepts null for optional talk', () => {
    const schema = z.looseObject({ message: tableTalk() });
    expect(parseParams(schema, { message: '😀'.repeat(140) }).ok).toBe(true);
    expect(parseParams(schema, { message: null }).ok).toBe(true);
    expect(parseParams(schema, { message: 'm'.repeat(141) })).toEqual({
      ok: false,
      error: { code: 'invalid_params', message: 'message must be at most 140 characters', field: 'message' },
    });
    expect(parseParams(schema, { message: 7 })).toEqual({
      ok: false,
      error: { code: 'invalid_params', message: 'message must be a string', field: 'message', invalid_value: 7 },
    });
    const chat = z.looseObject({ message: text('string', { min: 1, max: 5, trim: true }) });
    expect(parseParams(chat, { message: '   ' })).toMatchObject({ ok: false, error: { message: 'message must not be empty' } });
    expect(parseParams(chat, { message: '  hello  ' }).ok).toBe(true);
  });

  it('a set of values rejects others through the game wording, and non-integers as such', () => {
    const schema = z.looseObject({ face: int('int', oneOf([2, 5], 'integer')) });
    const range = () => ({ code: 'not_rolled', message: 'no' });
    expect(parseParams(schema, { face: '5' }, { range })).toEqual({ ok: true, value: { face: 5 } });
    expect(parseParams(schema, { face: 3 }, { range })).toEqual({ ok: false, error: { code: 'not_rolled', message: 'no' } });
    expect(parseParams(schema, { face: 'x' }, { range })).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
  });
});
