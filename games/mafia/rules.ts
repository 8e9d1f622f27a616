// Mafia, 6 players: phase machine with turn-based discussion and simultaneous night/vote barriers (spec §11.3).
import { createRng } from '../../engine/core/rng.js';
import { type GameEvent, type GameRules, type JsonObject, reject, shuffle } from '../kit/game.js';
import { applyChat, applySubmission, legalActions, readTarget } from './actions.js';
import { MAFIA_RULES, type MafiaRole, mafiaStrategy } from './briefs.js';
import { beginNight, decisionWindow } from './phases.js';
import {
  alias,
  DEFAULT_MAX_DAYS,
  DISCUSS_ROUNDS,
  type MafiaState,
  mafiaSeats,
  nightTargets,
  ROLE_DECK,
  ref,
  seatOf,
  voteCandidates,
} from './state.js';
import { chatLog, discussionFields, publicView } from './views.js';

export const mafia: GameRules<MafiaState> = {
  gameType: 'mafia',
  title: 'Mafia',
  players: { default: 6, min: 6, max: 6 },
  timeouts: { chat: 60_000, vote: 45_000, night: 45_000 },
  actions: ['chat', 'night_action', 'vote'],

  setup(seats, seed, options) {
    if (seats.length !== 6) throw new RangeError('Mafia needs exactly 6 players');
    const rng = createRng(`${seed}:mafia:roles`);
    const maxDays =
      typeof options.max_days === 'number' && Number.isInteger(options.max_days) && options.max_days >= 1
        ? options.max_days
        : DEFAULT_MAX_DAYS;
    const state: MafiaState = {
      seats: seats.map((s) => ({ ...s })),
      seed,
      roles: shuffle(ROLE_DECK, rng.next),
      alive: seats.map(() => true),
      phase: 'night',
      day: 1,
      runoff: false,
      runoffCandidates: [],
      speakOrder: [],
      speakIndex: 0,
      discussRound: 1,
      discussRoundsTotal: DISCUSS_ROUNDS,
      phaseMessages: 0,
      submissions: [],
      submitCounter: 0,
      chat: [],
      mafiaChat: [],
      eliminated: [],
      lastNightEvents: [],
      lastVoteEvents: [],
      investigations: [],
      saves: [],
      history: [],
      winner: null,
      finishReason: null,
      step: 0,
      maxDays,
    };
    const events: GameEvent[] = state.seats.map((_, i) => ({
      type: 'role_assigned',
      visibility: [i],
      data: { role: state.roles[i] as MafiaRole },
    }));
    events.push(...beginNight(state));
    return { state, events };
  },

  window: decisionWindow,

  legalActions,

  apply(state, seat, action, params, auto) {
    const window = decisionWindow(state);
    if (!window) return reject('no_active_match', 'the game is over');
    if (!window.waiting.includes(seat)) return reject('not_your_turn', 'you have no decision to make right now');
    const discussion = state.phase === 'discuss' || state.phase === 'mafia_night_discuss';
    if (action === 'chat' && discussion) return applyChat(state, seat, params, false);
    if (action === 'skip_chat' && auto && discussion) return applyChat(state, seat, params, true);
    if (action === 'night_action' && state.phase === 'night') {
      const target = readTarget(params, nightTargets(state, seat), false);
      if (!target.ok) return target;
      return applySubmission(state, seat, target.target, auto);
    }
    if (action === 'no_action' && auto && state.phase === 'night') return applySubmission(state, seat, null, true);
    if (action === 'vote' && state.phase === 'vote') {
      const target = readTarget(params, voteCandidates(state, seat), !state.runoff);
      if (!target.ok) return target;
      return applySubmission(state, seat, target.target, auto);
    }
    return reject('unknown_action', `${action} is not legal in the ${state.phase} phase`, {
      field: 'action',
      invalid_value: action,
      allowed_values: legalActions(state, seat).map((a) => a.action),
    });
  },

  defaultMove(state, seat): { action: string; params: JsonObject } {
    if (state.phase === 'night') return { action: 'no_action', params: {} };
    if (state.phase === 'vote') {
      if (!state.runoff) return { action: 'vote', params: { target_id: null } };
      const candidates = voteCandidates(state, seat);
      const pick = createRng(`${state.seed}:mafia:runoff-default:${state.day}:${seat}`).pick(candidates);
      return { action: 'vote', params: { target_id: alias(pick) } };
    }
    return { action: 'skip_chat', params: {} };
  },

  // snapshot=slim sends these as deltas (spec §6.6); the night log exists only in the mafia's projection.
  slimLogs(state) {
    return { chat_log: state.chat.length, mafia_night_chat_log: state.mafiaChat.length };
  },
  project(state, seat) {
    const me = seatOf(state, seat);
    const role = state.roles[seat] as MafiaRole;
    const view: JsonObject = {
      ...publicView(state, false),
      my_agent_id: me.agentId,
      my_name: me.name,
      my_alias: alias(seat),
      my_role: role,
      is_alive: state.alive[seat] ?? false,
    };
    const whisper = state.phase === 'mafia_night_discuss';
    if (role === 'mafia') {
      const fellows = mafiaSeats(state).filter((s) => s !== seat);
      view.fellow_mafia = fellows.map((s) => seatOf(state, s).agentId);
      view.fellow_mafia_players = fellows.map((s) => ref(state, s));
      view.mafia_night_chat_log = chatLog(state, state.mafiaChat);
      if (whisper) Object.assign(view, discussionFields(state));
      if (state.phase === 'night') {
        view.mafia_night_picks = state.submissions
          .filter((s) => state.roles[s.seat] === 'mafia')
          .map((s) => ({ ...ref(state, s.seat), target: s.target === null ? null : ref(state, s.target) }));
      }
    }
    if (role === 'detective') {
      view.investigation_history = state.investigations
        .filter((i) => i.detective === seat)
        .map((i) => ({ day_number: i.day, ...ref(state, i.target), is_mafia: i.isMafia, result: i.isMafia ? 'mafia' : 'town' }));
    }
    if (role === 'doctor') {
      view.protection_history = state.saves
        .filter((s) => s.doctor === seat)
        .map((s) => ({ day_number: s.day, ...ref(state, s.target), attack_blocked: s.blockedKill }));
    }
    const mine = state.submissions.find((s) => s.seat === seat);
    if (mine && state.phase === 'vote') view.my_vote = mine.target === null ? null : alias(mine.target);
    if (mine && state.phase === 'night') view.my_night_action = mine.target === null ? null : alias(mine.target);
    return view;
  },

  spectate(state) {
    return publicView(state, false);
  },

  briefs(state, seat) {
    return { rules: MAFIA_RULES, strategy: mafiaStrategy(state.roles[seat] as MafiaRole) };
  },

  outcome(state) {
    if (state.phase !== 'finished') return null;
    const winners = state.seats
      .map((_, i) => i)
      .filter((i) => state.winner !== null && (state.roles[i] === 'mafia') === (state.winner === 'mafia'));
    const placements = state.seats.map((_, i) => (state.winner === null || winners.includes(i) ? 1 : 2));
    return { placements, winners, reason: state.finishReason ?? 'finished' };
  },

  summary(state) {
    return {
      game_type: 'mafia',
      winner: state.winner,
      finish_reason: state.finishReason,
      days: state.day,
      roles: state.seats.map((_, i) => ({
        ...ref(state, i),
        slot: i,
        role: state.roles[i] as MafiaRole,
        survived: state.alive[i] ?? false,
      })),
      eliminations: state.eliminated.map((e) => ({
        ...ref(state, e.seat),
        role: state.roles[e.seat] as MafiaRole,
        day_number: e.day,
        cause: e.cause,
      })),
      key_events: state.history,
    };
  },
};
