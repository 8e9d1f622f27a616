// Mafia, 6 players: phase machine with turn-based discussion and simultaneous night/vote barriers (spec §11.3).
import { createRng } from '../../engine/core/rng.js';
import {
  type ApplyResult,
  clone,
  type DecisionWindow,
  type GameEvent,
  type GameRules,
  type JsonObject,
  type LegalActionSpec,
  readInt,
  reject,
  type Seat,
  shuffle,
  toJson,
} from '../kit/game.js';
import { DAY_CHAT_FALLBACK, MAFIA_RULES, type MafiaRole, mafiaStrategy, WHISPER_FALLBACK } from './briefs.js';

export const CHAT_MAX = 1000;
export const DISCUSS_ROUNDS = 2;
export const RUNOFF_DISCUSS_ROUNDS = 1;
export const DEFAULT_MAX_DAYS = 10;
const CHAT_LOG_LIMIT = 80;

export type MafiaPhase = 'night' | 'discuss' | 'vote' | 'mafia_night_discuss' | 'finished';

interface Submission {
  seat: number;
  target: number | null;
  order: number;
  auto: boolean;
}

interface ChatEntry {
  seat: number;
  day: number;
  round: number;
  runoff: boolean;
  message: string;
}

interface Elimination {
  seat: number;
  day: number;
  cause: 'night_kill' | 'vote';
}

export interface MafiaState {
  seats: Seat[];
  seed: string;
  roles: MafiaRole[];
  alive: boolean[];
  phase: MafiaPhase;
  day: number;
  runoff: boolean;
  runoffCandidates: number[];
  speakOrder: number[];
  speakIndex: number;
  discussRound: number;
  discussRoundsTotal: number;
  phaseMessages: number;
  submissions: Submission[];
  submitCounter: number;
  chat: ChatEntry[];
  mafiaChat: ChatEntry[];
  eliminated: Elimination[];
  lastNightEvents: JsonObject[];
  lastVoteEvents: JsonObject[];
  investigations: { detective: number; day: number; target: number; isMafia: boolean }[];
  saves: { doctor: number; day: number; target: number; blockedKill: boolean }[];
  /** Resolved nights and votes, for the match summary. */
  history: JsonObject[];
  winner: 'town' | 'mafia' | null;
  finishReason: string | null;
  step: number;
  maxDays: number;
}

const ROLE_DECK: readonly MafiaRole[] = ['mafia', 'mafia', 'doctor', 'detective', 'citizen', 'citizen'];

/** Target ids on the wire are per-match aliases 1..6 (seat + 1), a separate id space from agent ids. */
export const alias = (seat: number): number => seat + 1;

function seatOf(state: MafiaState, seat: number): Seat {
  return state.seats[seat] as Seat;
}

function aliveSeats(state: MafiaState): number[] {
  return state.seats.map((_, i) => i).filter((i) => state.alive[i]);
}

function mafiaSeats(state: MafiaState): number[] {
  return state.roles.map((r, i) => (r === 'mafia' ? i : -1)).filter((i) => i >= 0);
}

function ref(state: MafiaState, seat: number): JsonObject {
  return { agent_id: seatOf(state, seat).agentId, name: seatOf(state, seat).name };
}

function aliasRef(state: MafiaState, seat: number): JsonObject {
  return { agent_id: alias(seat), name: seatOf(state, seat).name };
}

function hasNightAction(role: MafiaRole): boolean {
  return role !== 'citizen';
}

function nightActors(state: MafiaState): number[] {
  return aliveSeats(state).filter((s) => hasNightAction(state.roles[s] as MafiaRole));
}

function nightTargets(state: MafiaState, seat: number): number[] {
  const role = state.roles[seat];
  return aliveSeats(state).filter((s) => role === 'doctor' || s !== seat);
}

function voteCandidates(state: MafiaState, seat: number): number[] {
  const pool = state.runoff ? state.runoffCandidates.filter((s) => state.alive[s]) : aliveSeats(state);
  return pool.filter((s) => s !== seat);
}

/** Speaking order for a discussion: the given seats rotated to a start drawn from the seed. */
function rotated(state: MafiaState, seats: number[], purpose: string): number[] {
  if (seats.length === 0) return seats;
  const start = createRng(`${state.seed}:mafia:order:${purpose}:${state.day}`).nextInt(0, seats.length - 1);
  return seats.map((_, i) => seats[(start + i) % seats.length] as number);
}

function phaseEvent(state: MafiaState, visibility: GameEvent['visibility'] = 'public'): GameEvent {
  const data: JsonObject = { phase: state.phase, day_number: state.day };
  if (state.runoff) data.runoff_candidates = state.runoffCandidates.map((s) => ref(state, s));
  return { type: 'phase_started', visibility, data };
}

function beginNight(state: MafiaState): GameEvent[] {
  state.phase = 'night';
  state.runoff = false;
  state.runoffCandidates = [];
  state.submissions = [];
  state.speakOrder = [];
  return [phaseEvent(state)];
}

function beginDiscussion(state: MafiaState, phase: 'discuss' | 'mafia_night_discuss', runoff: boolean): GameEvent[] {
  state.phase = phase;
  state.runoff = runoff;
  state.speakOrder =
    phase === 'discuss'
      ? rotated(state, aliveSeats(state), runoff ? 'runoff' : 'day')
      : rotated(
          state,
          mafiaSeats(state).filter((s) => state.alive[s]),
          'whisper',
        );
  state.speakIndex = 0;
  state.discussRound = 1;
  state.discussRoundsTotal = runoff ? RUNOFF_DISCUSS_ROUNDS : DISCUSS_ROUNDS;
  state.phaseMessages = 0;
  state.submissions = [];
  const visibility = phase === 'mafia_night_discuss' ? mafiaSeats(state) : 'public';
  const event = phaseEvent(state, visibility);
  event.data.speak_order = state.speakOrder.map((s) => seatOf(state, s).agentId);
  return [event];
}

function beginVote(state: MafiaState): GameEvent[] {
  state.phase = 'vote';
  state.submissions = [];
  state.speakOrder = [];
  return [phaseEvent(state)];
}

function winnerOf(state: MafiaState): 'town' | 'mafia' | null {
  const living = aliveSeats(state);
  const mafia = living.filter((s) => state.roles[s] === 'mafia').length;
  if (mafia === 0) return 'town';
  if (mafia >= living.length - mafia) return 'mafia';
  return null;
}

function finish(state: MafiaState, winner: 'town' | 'mafia' | null, reason: string): GameEvent[] {
  state.phase = 'finished';
  state.winner = winner;
  state.finishReason = reason;
  state.submissions = [];
  state.speakOrder = [];
  return [
    {
      type: 'game_over',
      visibility: 'public',
      data: {
        winner,
        finish_reason: reason,
        roles: state.seats.map((_, i) => ({ ...ref(state, i), role: state.roles[i] as MafiaRole, is_alive: state.alive[i] ?? false })),
      },
    },
  ];
}

/** After a night or a vote: the game ends, or the next step of the cycle begins. */
function afterResolution(state: MafiaState, next: () => GameEvent[]): GameEvent[] {
  const winner = winnerOf(state);
  if (winner) return finish(state, winner, winner === 'town' ? 'mafia_eliminated' : 'mafia_parity');
  return next();
}

function nextCycle(state: MafiaState): GameEvent[] {
  state.day++;
  state.runoffCandidates = [];
  if (state.day > state.maxDays) return finish(state, null, 'day_limit');
  const livingMafia = mafiaSeats(state).filter((s) => state.alive[s]);
  return livingMafia.length >= 2 ? beginDiscussion(state, 'mafia_night_discuss', false) : beginNight(state);
}

function eliminate(state: MafiaState, seat: number, cause: Elimination['cause']): JsonObject {
  state.alive[seat] = false;
  state.eliminated.push({ seat, day: state.day, cause });
  return { ...ref(state, seat), role: state.roles[seat] as MafiaRole, day: state.day, cause };
}

/** Plurality of the mafia picks; a tie goes to the target picked earliest. */
export function chooseKill(picks: readonly { target: number | null; order: number }[]): number | null {
  const tally = new Map<number, { count: number; first: number }>();
  for (const p of picks) {
    if (p.target === null) continue;
    const t = tally.get(p.target) ?? { count: 0, first: p.order };
    t.count++;
    t.first = Math.min(t.first, p.order);
    tally.set(p.target, t);
  }
  let best: number | null = null;
  let bestCount = 0;
  let bestFirst = Number.POSITIVE_INFINITY;
  for (const [target, t] of tally) {
    if (t.count > bestCount || (t.count === bestCount && t.first < bestFirst)) {
      best = target;
      bestCount = t.count;
      bestFirst = t.first;
    }
  }
  return best;
}

function resolveNight(state: MafiaState): GameEvent[] {
  const events: GameEvent[] = [];
  const subs = state.submissions;
  const kill = chooseKill(subs.filter((s) => state.roles[s.seat] === 'mafia'));
  const doctor = subs.find((s) => state.roles[s.seat] === 'doctor' && s.target !== null);
  const saved = doctor?.target ?? null;
  for (const sub of subs) {
    if (state.roles[sub.seat] !== 'detective' || sub.target === null) continue;
    const isMafia = state.roles[sub.target] === 'mafia';
    state.investigations.push({ detective: sub.seat, day: state.day, target: sub.target, isMafia });
    events.push({
      type: 'investigation_result',
      visibility: [sub.seat],
      data: { day_number: state.day, ...ref(state, sub.target), is_mafia: isMafia, result: isMafia ? 'mafia' : 'town' },
    });
  }
  const blocked = kill !== null && kill === saved;
  if (doctor && doctor.target !== null) {
    state.saves.push({ doctor: doctor.seat, day: state.day, target: doctor.target, blockedKill: blocked });
    events.push({
      type: 'protection_result',
      visibility: [doctor.seat],
      data: { day_number: state.day, ...ref(state, doctor.target), attack_blocked: blocked },
    });
  }
  if (kill !== null && !blocked) {
    state.lastNightEvents = [{ type: 'killed', ...eliminate(state, kill, 'night_kill') }];
  } else {
    state.lastNightEvents = [{ type: 'no_death', day_number: state.day }];
  }
  state.history.push({
    kind: 'night',
    day_number: state.day,
    actions: subs.map((s) => ({
      ...ref(state, s.seat),
      role: state.roles[s.seat] as MafiaRole,
      target: s.target === null ? null : ref(state, s.target),
      is_auto: s.auto,
    })),
    killed: kill !== null && !blocked ? ref(state, kill) : null,
    protected: saved === null ? null : ref(state, saved),
  });
  events.push({ type: 'night_result', visibility: 'public', data: { day_number: state.day, events: state.lastNightEvents } });
  state.submissions = [];
  events.push(...afterResolution(state, () => beginDiscussion(state, 'discuss', false)));
  return events;
}

function resolveVote(state: MafiaState): GameEvent[] {
  const votes = [...state.submissions].sort((a, b) => a.seat - b.seat);
  const tally = new Map<number, number>();
  for (const v of votes) if (v.target !== null) tally.set(v.target, (tally.get(v.target) ?? 0) + 1);
  const max = Math.max(0, ...tally.values());
  const top = [...tally]
    .filter(([, n]) => n === max && max > 0)
    .map(([t]) => t)
    .sort((a, b) => a - b);
  const cast: JsonObject[] = votes.map((v) => ({
    type: 'vote',
    voter_id: seatOf(state, v.seat).agentId,
    voter_name: seatOf(state, v.seat).name,
    target_id: v.target === null ? null : seatOf(state, v.target).agentId,
    target_name: v.target === null ? null : seatOf(state, v.target).name,
    is_auto: v.auto,
  }));
  const wasRunoff = state.runoff;
  const events: GameEvent[] = [];
  let outcome: JsonObject;
  let next: () => GameEvent[] = () => nextCycle(state);
  if (top.length === 1) {
    outcome = { type: 'eliminated', ...eliminate(state, top[0] as number, 'vote') };
  } else if (top.length > 1 && !wasRunoff) {
    state.runoffCandidates = top;
    outcome = { type: 'runoff', candidates: top.map((s) => ref(state, s)) };
    next = () => beginDiscussion(state, 'discuss', true);
  } else {
    outcome = { type: 'no_elimination', reason: top.length > 1 ? 'runoff_tie' : 'no_votes' };
  }
  state.lastVoteEvents = [...cast, outcome];
  state.history.push({ kind: wasRunoff ? 'runoff_vote' : 'vote', day_number: state.day, votes: cast, outcome });
  events.push({
    type: 'vote_result',
    visibility: 'public',
    data: { day_number: state.day, runoff: wasRunoff, events: state.lastVoteEvents },
  });
  state.submissions = [];
  state.runoff = false;
  events.push(...afterResolution(state, next));
  return events;
}

function advanceSpeaker(state: MafiaState): GameEvent[] {
  state.speakIndex++;
  if (state.speakIndex < state.speakOrder.length) return [];
  state.speakIndex = 0;
  state.discussRound++;
  if (state.discussRound <= state.discussRoundsTotal) return [];
  return state.phase === 'mafia_night_discuss' ? beginNight(state) : beginVote(state);
}

function currentSpeaker(state: MafiaState): number | null {
  if (state.phase !== 'discuss' && state.phase !== 'mafia_night_discuss') return null;
  return state.speakOrder[state.speakIndex] ?? null;
}

function discussionState(state: MafiaState): string {
  if (state.phaseMessages === 0 && state.speakIndex === 0 && state.discussRound === 1) return 'opening';
  return state.discussRound >= state.discussRoundsTotal ? 'closing' : 'responding';
}

function legalActions(state: MafiaState, seat: number): LegalActionSpec[] {
  const window = mafia.window(state);
  if (!window?.waiting.includes(seat)) return [];
  if (state.phase === 'discuss' || state.phase === 'mafia_night_discuss') {
    const whisper = state.phase === 'mafia_night_discuss';
    const hint: LegalActionSpec['hint'] = whisper
      ? {
          fellow_mafia_players: mafiaSeats(state)
            .filter((s) => s !== seat && state.alive[s])
            .map((s) => aliasRef(state, s)),
          speech_style: 'Refer to players by their names, not numeric ids.',
          phase_rule: 'Private mafia whisper: only chat is legal now; the kill is chosen in the night phase that follows.',
          visibility: 'Only the mafia read this message.',
          discussion_state: discussionState(state),
          server_fallback: { params: { message: WHISPER_FALLBACK }, behavior: 'A short coordination message.' },
        }
      : {
          speech_style: 'Refer to players by their names, not numeric ids.',
          discussion_state: discussionState(state),
          public_visibility: 'Day chat: every player reads it.',
          server_fallback: { params: { message: DAY_CHAT_FALLBACK }, behavior: 'A neutral holding statement.' },
        };
    if (!whisper && discussionState(state) === 'opening')
      hint.opening_guidance = 'Open with your read of the night result or a suspicion you can defend.';
    if (!whisper && state.runoff) hint.runoff_candidates = state.runoffCandidates.map((s) => aliasRef(state, s));
    return [
      {
        action: 'chat',
        description: whisper
          ? 'Send one private message to your fellow mafia.'
          : state.runoff
            ? 'Speak before the runoff vote.'
            : 'Speak in the day discussion.',
        params: { message: `string (max ${CHAT_MAX} chars)` },
        params_schema: {
          type: 'object',
          required: ['message'],
          properties: { message: { type: 'string', minLength: 1, maxLength: CHAT_MAX } },
          additionalProperties: true,
        },
        hint,
      },
    ];
  }
  if (state.phase === 'night') {
    const role = state.roles[seat] as MafiaRole;
    const targets = nightTargets(state, seat);
    const preferred = role === 'mafia' ? (targets.find((t) => state.roles[t] !== 'mafia') ?? targets[0]) : targets[0];
    const verb = role === 'mafia' ? 'kill' : role === 'doctor' ? 'protect' : 'investigate';
    return [
      {
        action: 'night_action',
        description:
          role === 'mafia'
            ? 'Choose a player to kill.'
            : role === 'doctor'
              ? 'Choose a player to protect tonight (yourself included).'
              : 'Choose a player to investigate.',
        params: { target_id: 'int' },
        params_schema: {
          type: 'object',
          required: ['target_id'],
          properties: { target_id: { type: 'integer', enum: targets.map(alias) } },
          additionalProperties: true,
        },
        hint: {
          role_action: verb,
          targets: targets.map((t) => aliasRef(state, t)),
          id_space: 'target_id takes the agent_id values listed in targets (per-match aliases), not state.players ids.',
          server_fallback: {
            params: { target_id: preferred === undefined ? null : alias(preferred) },
            behavior: `${verb} the first listed target.`,
          },
        },
      },
    ];
  }
  if (state.phase === 'vote') {
    const candidates = voteCandidates(state, seat);
    const allowSkip = !state.runoff;
    return [
      {
        action: 'vote',
        description: state.runoff ? 'Runoff vote: choose one of the tied players.' : 'Vote to eliminate a player, or null to abstain.',
        params: { target_id: allowSkip ? 'int or null' : 'int' },
        params_schema: {
          type: 'object',
          required: ['target_id'],
          properties: {
            target_id: allowSkip
              ? { type: ['integer', 'null'], enum: [...candidates.map(alias), null] }
              : { type: 'integer', enum: candidates.map(alias) },
          },
          additionalProperties: true,
        },
        hint: {
          candidates: candidates.map((c) => aliasRef(state, c)),
          allow_skip: allowSkip,
          runoff: state.runoff,
          server_fallback: allowSkip
            ? { params: { target_id: null }, behavior: 'Abstain.' }
            : { params: { target_id: alias(candidates[0] as number) }, behavior: 'Vote for the first listed candidate.' },
        },
      },
    ];
  }
  return [];
}

function applyChat(state: MafiaState, seat: number, params: Record<string, unknown>, skipped: boolean): ApplyResult<MafiaState> {
  let message = '';
  if (!skipped) {
    const raw = params.message;
    if (typeof raw !== 'string')
      return reject('invalid_params', 'message must be a string', { field: 'message', invalid_value: toJson(raw) });
    message = raw.trim();
    if (message.length === 0) return reject('invalid_params', 'message must not be empty', { field: 'message' });
    if ([...message].length > CHAT_MAX)
      return reject('invalid_params', `message must be at most ${CHAT_MAX} characters`, { field: 'message' });
  }
  const next = clone(state);
  const whisper = next.phase === 'mafia_night_discuss';
  const visibility: GameEvent['visibility'] = whisper ? mafiaSeats(next) : 'public';
  const data: JsonObject = { ...ref(next, seat), day_number: next.day, round: next.discussRound, scope: whisper ? 'mafia_night' : 'day' };
  const events: GameEvent[] = [];
  if (skipped) {
    events.push({ type: 'chat_skipped', visibility, data });
  } else {
    const entry: ChatEntry = { seat, day: next.day, round: next.discussRound, runoff: next.runoff, message };
    (whisper ? next.mafiaChat : next.chat).push(entry);
    next.phaseMessages++;
    events.push({ type: whisper ? 'mafia_chat' : 'chat', visibility, data: { ...data, message } });
  }
  next.step++;
  events.push(...advanceSpeaker(next));
  return { ok: true, state: next, events };
}

function applySubmission(state: MafiaState, seat: number, target: number | null, auto: boolean): ApplyResult<MafiaState> {
  const next = clone(state);
  next.submissions.push({ seat, target, order: next.submitCounter++, auto });
  next.step++;
  const night = next.phase === 'night';
  const visibility = night && next.roles[seat] === 'mafia' ? mafiaSeats(next) : [seat];
  const events: GameEvent[] = [
    {
      type: night ? 'night_action_submitted' : 'vote_submitted',
      visibility,
      data: { ...ref(next, seat), day_number: next.day, target: target === null ? null : ref(next, target) },
    },
  ];
  const window = mafia.window(next);
  if (window && window.waiting.length === 0) events.push(...(night ? resolveNight(next) : resolveVote(next)));
  return { ok: true, state: next, events };
}

function readTarget(
  params: Record<string, unknown>,
  allowed: number[],
  allowNull: boolean,
): { ok: true; target: number | null } | ReturnType<typeof reject> {
  const allowedAliases = allowed.map(alias);
  if (params.target_id === null) {
    if (allowNull) return { ok: true, target: null };
    return reject('invalid_params', 'target_id may not be null here', {
      field: 'target_id',
      invalid_value: null,
      allowed_values: allowedAliases,
    });
  }
  const id = readInt(params, 'target_id');
  if (!id.ok) return { ok: false, error: { ...id.error, allowed_values: allowNull ? [...allowedAliases, null] : allowedAliases } };
  if (!allowedAliases.includes(id.value)) {
    return reject('invalid_params', `target_id ${id.value} is not one of the listed ids`, {
      field: 'target_id',
      invalid_value: id.value,
      allowed_values: allowNull ? [...allowedAliases, null] : allowedAliases,
    });
  }
  return { ok: true, target: id.value - 1 };
}

function discussionFields(state: MafiaState): JsonObject {
  const speaker = currentSpeaker(state);
  return {
    current_speaker: speaker === null ? null : seatOf(state, speaker).agentId,
    current_speaker_name: speaker === null ? null : seatOf(state, speaker).name,
    speak_order: state.speakOrder.map((s) => seatOf(state, s).agentId),
    speak_index: state.speakIndex,
    discuss_round: state.discussRound,
    discuss_rounds_total: state.discussRoundsTotal,
    discussion_scope: state.phase === 'mafia_night_discuss' ? 'mafia_night' : 'day',
    discussion_messages_count: state.phaseMessages,
    is_first_statement_of_phase: state.phaseMessages === 0,
  };
}

function chatLog(state: MafiaState, entries: ChatEntry[]): JsonObject[] {
  return entries
    .slice(-CHAT_LOG_LIMIT)
    .map((c) => ({ ...ref(state, c.seat), day_number: c.day, round: c.round, runoff: c.runoff, message: c.message }));
}

function publicView(state: MafiaState, reveal: boolean): JsonObject {
  const finished = state.phase === 'finished';
  const view: JsonObject = {
    game_type: 'mafia',
    phase: state.phase,
    day_number: state.day,
    players: state.seats.map((s, i) => ({
      agent_id: s.agentId,
      name: s.name,
      alias: alias(i),
      is_alive: state.alive[i] ?? false,
      role: reveal || finished || !state.alive[i] ? (state.roles[i] as MafiaRole) : 'hidden',
    })),
    chat_log: chatLog(state, state.chat),
    eliminated: state.eliminated.map((e) => ({
      ...ref(state, e.seat),
      role: state.roles[e.seat] as MafiaRole,
      day_number: e.day,
      cause: e.cause,
    })),
    last_night_events: state.lastNightEvents,
    last_vote_events: state.lastVoteEvents,
    is_runoff: state.runoff,
    runoff_candidates: state.runoffCandidates.map((s) => ref(state, s)),
    winner: state.winner,
    finish_reason: state.finishReason,
    finished,
  };
  if (state.phase === 'discuss') Object.assign(view, discussionFields(state));
  if (state.phase === 'vote') {
    view.votes_total = aliveSeats(state).length;
    view.votes_pending = aliveSeats(state).length - state.submissions.length;
    // Votes are simultaneous: who voted for whom is published only when the vote resolves.
    view.current_votes = {};
  }
  if (state.phase === 'night') view.night_actions_pending = nightActors(state).length - state.submissions.length;
  return view;
}

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

  window(state): DecisionWindow | null {
    switch (state.phase) {
      case 'discuss':
      case 'mafia_night_discuss': {
        const speaker = currentSpeaker(state);
        if (speaker === null) return null;
        return { kind: 'turn', key: `${state.phase}:${state.day}:${state.step}`, actors: [speaker], waiting: [speaker], timeout: 'chat' };
      }
      case 'night': {
        const actors = nightActors(state);
        const done = new Set(state.submissions.map((s) => s.seat));
        return { kind: 'barrier', key: `night:${state.day}`, actors, waiting: actors.filter((s) => !done.has(s)), timeout: 'night' };
      }
      case 'vote': {
        const actors = aliveSeats(state);
        const done = new Set(state.submissions.map((s) => s.seat));
        return {
          kind: 'barrier',
          key: `vote:${state.day}:${state.runoff ? 'runoff' : 'day'}`,
          actors,
          waiting: actors.filter((s) => !done.has(s)),
          timeout: 'vote',
        };
      }
      default:
        return null;
    }
  },

  legalActions,

  apply(state, seat, action, params, auto) {
    const window = mafia.window(state);
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
