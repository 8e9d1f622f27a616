// Mafia phases: night, discussion turns and votes, their resolution, and who must decide now (spec §11.3).
import type { DecisionWindow, GameEvent, JsonObject } from '../kit/game.js';
import type { MafiaRole } from './briefs.js';
import {
  aliveSeats,
  DISCUSS_ROUNDS,
  type Elimination,
  type MafiaState,
  mafiaSeats,
  nightActors,
  RUNOFF_DISCUSS_ROUNDS,
  ref,
  rotated,
  seatOf,
} from './state.js';

function phaseEvent(state: MafiaState, visibility: GameEvent['visibility'] = 'public'): GameEvent {
  const data: JsonObject = { phase: state.phase, day_number: state.day };
  if (state.runoff) data.runoff_candidates = state.runoffCandidates.map((s) => ref(state, s));
  return { type: 'phase_started', visibility, data };
}

export function beginNight(state: MafiaState): GameEvent[] {
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

export function eliminate(state: MafiaState, seat: number, cause: Elimination['cause']): JsonObject {
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

export function resolveNight(state: MafiaState): GameEvent[] {
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

export function resolveVote(state: MafiaState): GameEvent[] {
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

export function advanceSpeaker(state: MafiaState): GameEvent[] {
  state.speakIndex++;
  if (state.speakIndex < state.speakOrder.length) return [];
  state.speakIndex = 0;
  state.discussRound++;
  if (state.discussRound <= state.discussRoundsTotal) return [];
  return state.phase === 'mafia_night_discuss' ? beginNight(state) : beginVote(state);
}

export function currentSpeaker(state: MafiaState): number | null {
  if (state.phase !== 'discuss' && state.phase !== 'mafia_night_discuss') return null;
  return state.speakOrder[state.speakIndex] ?? null;
}

export function discussionState(state: MafiaState): string {
  if (state.phaseMessages === 0 && state.speakIndex === 0 && state.discussRound === 1) return 'opening';
  return state.discussRound >= state.discussRoundsTotal ? 'closing' : 'responding';
}

/** Who decides now: the speaker of a discussion turn, or everyone still owing a night action or a vote. */
export function decisionWindow(state: MafiaState): DecisionWindow | null {
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
}
