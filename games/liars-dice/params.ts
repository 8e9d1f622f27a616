// Liar's Dice action params, declared once: the hints, params_schema and validation all come from these.
import { z } from 'zod';
import { declaration, int, type Parsed, parseParams, tableTalk } from '../kit/params.js';

const FACES = [1, 2, 3, 4, 5, 6];

export const challengeParams = declaration(() => z.looseObject({ message: tableTalk() }));

/** A bid on a table of `total` dice. */
export const bidParams = declaration((total: number) =>
  z.looseObject({
    quantity: int('int', z.number().int().min(1).max(total)),
    face: int('int (1-6)', z.number().int().min(1).max(6)),
    message: tableTalk(),
  }),
);

export function parseChallenge(params: Record<string, unknown>) {
  return parseParams(challengeParams(), params);
}

/** Out-of-range faces and quantities are `invalid_bid`, the face checked first. */
export function parseBid(params: Record<string, unknown>, total: number): Parsed<z.output<ReturnType<typeof bidParams>>> {
  return parseParams(bidParams(total), params, {
    rangeOrder: ['face', 'quantity'],
    range: (_issue, field, value) =>
      field === 'face'
        ? { code: 'invalid_bid', message: 'face must be from 1 to 6', field, invalid_value: value as number, allowed_values: FACES }
        : field === 'quantity'
          ? { code: 'invalid_bid', message: `quantity must be from 1 to ${total}`, field, invalid_value: value as number }
          : undefined,
  });
}
