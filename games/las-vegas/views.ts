// Claw Vegas views: the public table every seat and spectator sees.
import type { JsonObject, Seat } from '../kit/game.js';
import { diceByAgent, ranking, recentTalk } from './rounds.js';
import { CASINO_FILL_MIN, DICE_PER_PLAYER, type VegasState } from './state.js';

export function players(state: VegasState): JsonObject {
  const out: JsonObject = {};
  state.seats.forEach((s, i) => {
    out[String(s.agentId)] = {
      agent_id: s.agentId,
      name: s.name,
      slot: i,
      dice_remaining: state.remaining[i] ?? 0,
      money: state.money[i] ?? 0,
      bills_won: state.billsWon[i] ?? 0,
    };
  });
  return out;
}

export function publicView(state: VegasState): JsonObject {
  const winner = state.finished ? (state.seats[ranking(state)[0] as number] as Seat).agentId : null;
  return {
    game_type: 'las_vegas',
    round: state.round,
    total_rounds: state.rounds,
    dice_per_player: DICE_PER_PLAYER,
    casino_fill_min: CASINO_FILL_MIN,
    casinos: state.casinos.map((c, i) => ({ number: i + 1, bills: [...c.bills], dice: diceByAgent(state, c) })),
    players: players(state),
    turn_order: state.turnOrder.map((s) => (state.seats[s] as Seat).agentId),
    current_turn: state.current === null ? null : (state.seats[state.current] as Seat).agentId,
    current_roll: [...state.roll],
    recent_table_talk: recentTalk(state),
    last_round_settlement: (state.settlements.at(-1) ?? null) as unknown as JsonObject | null,
    finished: state.finished,
    winner_id: winner,
  };
}
