// Claw Vegas actions: the legal placements of the seat to move, with their params, and applying one.
import {
  type ApplyResult,
  clone,
  type GameEvent,
  type JsonObject,
  type LegalActionSpec,
  readInt,
  readMessage,
  reject,
  type Seat,
  TABLE_TALK_MAX,
} from '../kit/game.js';
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

export function legalActions(state: VegasState, seat: number): LegalActionSpec[] {
  if (state.finished || state.current !== seat) return [];
  const faces = [...new Set(state.roll)].sort((a, b) => a - b);
  const fallback = mostRolledFace(state.roll);
  return [
    {
      action: 'place',
      description: 'Choose one face from your roll: all your dice showing it go to the casino with that number for the rest of the round.',
      params: { face: 'int (must be one of faces_available)', message: `string (optional table talk, max ${TABLE_TALK_MAX} chars)` },
      params_schema: {
        type: 'object',
        required: ['face'],
        properties: { face: { type: 'integer', enum: faces }, message: { type: 'string', maxLength: TABLE_TALK_MAX } },
        additionalProperties: true,
      },
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
  const face = readInt(params, 'face');
  if (!face.ok) return face;
  const message = readMessage(params, TABLE_TALK_MAX);
  if (!message.ok) return message;
  const faces = [...new Set(state.roll)].sort((a, b) => a - b);
  if (!faces.includes(face.value)) {
    return reject('invalid_params', `face ${face.value} is not in your roll`, {
      field: 'face',
      invalid_value: face.value,
      allowed_values: faces,
    });
  }
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
