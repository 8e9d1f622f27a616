// Mafia views: what a seat and a spectator see of the table.
import type { JsonObject } from '../kit/game.js';
import type { MafiaRole } from './briefs.js';
import { currentSpeaker } from './phases.js';
import { alias, aliveSeats, CHAT_LOG_LIMIT, type ChatEntry, type MafiaState, nightActors, ref, seatOf } from './state.js';

export function discussionFields(state: MafiaState): JsonObject {
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

export function chatLog(state: MafiaState, entries: ChatEntry[]): JsonObject[] {
  return entries
    .slice(-CHAT_LOG_LIMIT)
    .map((c) => ({ ...ref(state, c.seat), day_number: c.day, round: c.round, runoff: c.runoff, message: c.message }));
}

export function publicView(state: MafiaState, reveal: boolean): JsonObject {
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
