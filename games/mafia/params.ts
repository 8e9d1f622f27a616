// Mafia action params, declared once: the hints, params_schema and validation all come from these.
import { z } from 'zod';
import { declaration, int, oneOf, text } from '../kit/params.js';
import { CHAT_MAX } from './state.js';

/** Day chat and the mafia's whisper: a non-empty message (trimmed) of at most CHAT_MAX characters. */
export const chatParams = declaration(() =>
  z.looseObject({ message: text(`string (max ${CHAT_MAX} chars)`, { min: 1, max: CHAT_MAX, trim: true }) }),
);

/** A night pick or a vote: one of the listed per-match aliases, or null where abstaining is allowed. */
export const targetParams = declaration((aliases: number[], allowNull: boolean) =>
  z.looseObject({
    target_id: allowNull ? int('int or null', oneOf([...aliases, null], ['integer', 'null'])) : int('int', oneOf(aliases, 'integer')),
  }),
);
