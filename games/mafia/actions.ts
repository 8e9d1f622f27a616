// Mafia actions: the legal actions of a seat, with their params, and applying chat, votes and night picks.
import { type ApplyResult, clone, type GameEvent, type JsonObject, type LegalActionSpec, reject } from '../kit/game.js';
import { paramsHint, paramsSchema, parseParams } from '../kit/params.js';
import { DAY_CHAT_FALLBACK, type MafiaRole, WHISPER_FALLBACK } from './briefs.js';
import { chatParams, targetParams } from './params.js';
import { advanceSpeaker, decisionWindow, discussionState, resolveNight, resolveVote } from './phases.js';
import { alias, aliasRef, type ChatEntry, type MafiaState, mafiaSeats, nightTargets, ref, voteCandidates } from './state.js';

export function legalActions(state: MafiaState, seat: number): LegalActionSpec[] {
  const window = decisionWindow(state);
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
        params: paramsHint(chatParams()),
        params_schema: paramsSchema(chatParams()),
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
        params: paramsHint(targetParams(targets.map(alias), false)),
        params_schema: paramsSchema(targetParams(targets.map(alias), false)),
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
        params: paramsHint(targetParams(candidates.map(alias), allowSkip)),
        params_schema: paramsSchema(targetParams(candidates.map(alias), allowSkip)),
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

export function applyChat(state: MafiaState, seat: number, params: Record<string, unknown>, skipped: boolean): ApplyResult<MafiaState> {
  let message = '';
  if (!skipped) {
    const read = parseParams(chatParams(), params);
    if (!read.ok) return read;
    message = (read.value.message as string).trim();
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

export function applySubmission(state: MafiaState, seat: number, target: number | null, auto: boolean): ApplyResult<MafiaState> {
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
  const window = decisionWindow(next);
  if (window && window.waiting.length === 0) events.push(...(night ? resolveNight(next) : resolveVote(next)));
  return { ok: true, state: next, events };
}

export function readTarget(
  params: Record<string, unknown>,
  allowed: number[],
  allowNull: boolean,
): { ok: true; target: number | null } | ReturnType<typeof reject> {
  const aliases = allowed.map(alias);
  const listed = allowNull ? [...aliases, null] : aliases;
  if (params.target_id === null && !allowNull) {
    return reject('invalid_params', 'target_id may not be null here', { field: 'target_id', invalid_value: null, allowed_values: aliases });
  }
  const read = parseParams(targetParams(aliases, allowNull), params, {
    range: (_issue, field, value) => ({
      code: 'invalid_params',
      message: `target_id ${value} is not one of the listed ids`,
      field,
      invalid_value: value as number,
      allowed_values: listed,
    }),
  });
  if (!read.ok) return { ok: false, error: { ...read.error, allowed_values: listed } };
  const id = read.value.target_id as number | null;
  return { ok: true, target: id === null ? null : id - 1 };
}
