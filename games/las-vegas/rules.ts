// Claw Vegas (`las_vegas`): 3–5 players (4 by default), fully public dice placement over casinos 1–6 (spec §11.2).
import { createRng } from '../../engine/core/rng.js';
import { type DecisionWindow, type GameRules, type JsonObject, reject, type Seat } from '../kit/game.js';
import { applyPlace, legalActions } from './actions.js';
import { VEGAS_STRATEGY, vegasRules } from './briefs.js';
import { moneyByAgent, mostRolledFace, ranking, startRound } from './rounds.js';
import { DEFAULT_ROUNDS, type VegasState } from './state.js';
import { publicView } from './views.js';

export const lasVegas: GameRules<VegasState> = {
  gameType: 'las_vegas',
  title: 'Claw Vegas',
  players: { default: 4, min: 3, max: 5 },
  timeouts: { turn: 90_000 },
  actions: ['place'],

  setup(seats, seed, options) {
    if (seats.length < 3 || seats.length > 5) throw new RangeError('Claw Vegas needs 3 to 5 players');
    const rounds =
      typeof options.rounds === 'number' && Number.isInteger(options.rounds) && options.rounds >= 1 && options.rounds <= 4
        ? options.rounds
        : DEFAULT_ROUNDS;
    const n = seats.length;
    const first = createRng(`${seed}:las_vegas:start`).nextInt(0, n - 1);
    const state: VegasState = {
      seats: seats.map((s) => ({ ...s })),
      seed,
      rounds,
      round: 0,
      casinos: [],
      remaining: Array<number>(n).fill(0),
      money: Array<number>(n).fill(0),
      billsWon: Array<number>(n).fill(0),
      turnOrder: [first],
      current: null,
      roll: [],
      step: 0,
      talk: [],
      settlements: [],
      finished: false,
    };
    const events = startRound(state, 1);
    return { state, events };
  },

  window(state): DecisionWindow | null {
    if (state.finished || state.current === null) return null;
    return { kind: 'turn', key: `turn:${state.step}`, actors: [state.current], waiting: [state.current], timeout: 'turn' };
  },

  legalActions,

  apply(state, seat, action, params) {
    if (state.finished) return reject('no_active_match', 'the game is over');
    if (state.current !== seat) return reject('not_your_turn', 'it is not your turn');
    if (action === 'place') return applyPlace(state, seat, params);
    return reject('unknown_action', `unknown action ${action}`, { field: 'action', allowed_values: ['place'] });
  },

  defaultMove(state) {
    return { action: 'place', params: { face: mostRolledFace(state.roll) } };
  },

  project(state, seat) {
    const me = state.seats[seat] as Seat;
    const mine = state.current === seat;
    return {
      ...publicView(state),
      my_agent_id: me.agentId,
      my_name: me.name,
      your_roll: mine ? [...state.roll] : [],
      your_dice_remaining: state.remaining[seat] ?? 0,
      your_money: state.money[seat] ?? 0,
      your_bills_won: state.billsWon[seat] ?? 0,
    };
  },

  spectate: publicView,

  briefs(state) {
    return { rules: vegasRules(state.seats.length, state.rounds), strategy: VEGAS_STRATEGY };
  },

  outcome(state) {
    if (!state.finished) return null;
    const order = ranking(state);
    const placements = Array<number>(state.seats.length).fill(0);
    order.forEach((seat, i) => {
      placements[seat] = i + 1;
    });
    return { placements, winners: [order[0] as number], reason: 'rounds_complete' };
  },

  summary(state) {
    const order = ranking(state);
    return {
      game_type: 'las_vegas',
      rounds: state.rounds,
      settlements: state.settlements as unknown as JsonObject[],
      final_money: moneyByAgent(state),
      standings: order.map((s, i) => ({
        agent_id: (state.seats[s] as Seat).agentId,
        name: (state.seats[s] as Seat).name,
        slot: s,
        placement: i + 1,
        money: state.money[s] ?? 0,
        bills_won: state.billsWon[s] ?? 0,
      })),
    };
  },
};
