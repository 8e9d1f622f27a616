// Claw Vegas actions: the legal placements of the seat to move, with their params, and applying one.
import { z } from 'zod';
import { type ApplyResult, clone, type GameEvent, type JsonObject, type LegalActionSpec, type Seat, TABLE_TALK_MAX } from '../kit/game.js';
import { declaration, int, oneOf, paramsHint, paramsSchema, parseParams, spoken, tableTalk } from '../kit/params.js';
import { VEGAS_TABLE_TALK_HINT, VEGAS_TIE_RULE } from './briefs.js';
import {
  byName,
  facesAvailable,
  mostRolledFace,
  nextSeatWithDice,
  ranking,
  recentTalk,
  rollEvent,
  settleRound,
  startRound,
} from './rounds.js';
import { type Casino, rollFor, type VegasState } from './state.js';

/** `place`: one of the faces rolled (`faces`, ascending). */
const placeParams = declaration((faces: number[]) =>
  z.looseObject({
    face: int('int (must be one of faces_available)', oneOf(faces, 'integer')),
    message: tableTalk(`string (optional table talk, max ${TABLE_TALK_MAX} chars)`),
  }),
);

function rolledFaces(state: VegasState): number[] {
  return [...new Set(state.roll)].sort((a, b) => a - b);
}

export function legalActions(state: VegasState, seat: number): LegalActionSpec[] {
  if (state.finished || state.current !== seat) return [];
  const faces = rolledFaces(state);
  const fallback = mostRolledFace(state.roll);
  return [
    {
      action: 'place',
      description: 'Choose one face from your roll: all your dice showing it go to the casino with that number for the rest of the round.',
      params: paramsHint(placeParams(faces)),
      params_schema: paramsSchema(placeParams(faces)),
      hint: {
        your_roll: [...state.roll],
        faces_available: facesAvailable(state, seat),
        tie_rule: VEGAS_TIE_RULE,
        dice_remaining_by_player: byName(state, state.remaining),
        money_by_player: byName(state, state.money),
        table_talk: VEGAS_TABLE_TALK_HINT,
        recent_table_talk: recentTalk(state),
        server_fallback: { params: { face: fallback }, behavior: 'Place the face you rolled most often (ties: the higher face).' },
      },
    },
  ];
}

export function applyPlace(state: VegasState, seat: number, params: Record<string, unknown>): ApplyResult<VegasState> {
  const faces = rolledFaces(state);
  const read = parseParams(placeParams(faces), params, {
    range: (_issue, field, value) => ({
      code: 'invalid_params',
      message: `face ${value} is not in your roll`,
      field,
      invalid_value: value as number,
      allowed_values: faces,
    }),
  });
  if (!read.ok) return read;
  const face = { value: read.value.face };
  const message = { message: spoken(read.value.message) };
  const next = clone(state);
  const count = next.roll.filter((d) => d === face.value).length;
  const casino = next.casinos[face.value - 1] as Casino;
  casino.dice[seat] = (casino.dice[seat] ?? 0) + count;
  next.remaining[seat] = (next.remaining[seat] ?? 0) - count;
  if (message.message) next.talk.push({ seat, round: next.round, message: message.message });
  next.step++;
  const me = next.seats[seat] as Seat;
  const placed: JsonObject = { round: next.round, agent_id: me.agentId, name: me.name, face: face.value, casino: face.value, dice: count };
  if (message.message) placed.message = message.message;
  const events: GameEvent[] = [{ type: 'place', visibility: 'public', data: placed }];
  const following = nextSeatWithDice(next, seat);
  if (following !== null) {
    next.current = following;
    next.roll = rollFor(next, following);
    events.push(rollEvent(next));
    return { ok: true, state: next, events };
  }
  events.push(settleRound(next));
  if (next.round < next.rounds) {
    events.push(...startRound(next, next.round + 1));
  } else {
    next.finished = true;
    next.current = null;
    next.roll = [];
    const order = ranking(next);
    events.push({
      type: 'game_over',
      visibility: 'public',
      data: {
        winner_id: (next.seats[order[0] as number] as Seat).agentId,
        standings: order.map((s, i) => ({
          agent_id: (next.seats[s] as Seat).agentId,
          name: (next.seats[s] as Seat).name,
          placement: i + 1,
          money: next.money[s] ?? 0,
          bills_won: next.billsWon[s] ?? 0,
        })),
      },
    });
  }
  return { ok: true, state: next, events };
}
