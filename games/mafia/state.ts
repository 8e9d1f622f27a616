// Mafia state: the seats, roles and phase a game is in, and the queries over it (who is alive, who acts at night).
import { createRng } from '../../engine/core/rng.js';
import type { JsonObject, Seat } from '../kit/game.js';
import type { MafiaRole } from './briefs.js';

export const CHAT_MAX = 1000;
export const DISCUSS_ROUNDS = 2;
export const RUNOFF_DISCUSS_ROUNDS = 1;
export const DEFAULT_MAX_DAYS = 10;
export const CHAT_LOG_LIMIT = 80;

export type MafiaPhase = 'night' | 'discuss' | 'vote' | 'mafia_night_discuss' | 'finished';

interface Submission {
  seat: number;
  target: number | null;
  order: number;
  auto: boolean;
}

export interface ChatEntry {
  seat: number;
  day: number;
  round: number;
  runoff: boolean;
  message: string;
}

export interface Elimination {
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

export const ROLE_DECK: readonly MafiaRole[] = ['mafia', 'mafia', 'doctor', 'detective', 'citizen', 'citizen'];

/** Target ids on the wire are per-match aliases 1..6 (seat + 1), a separate id space from agent ids. */
export const alias = (seat: number): number => seat + 1;

export function seatOf(state: MafiaState, seat: number): Seat {
  return state.seats[seat] as Seat;
}

export function aliveSeats(state: MafiaState): number[] {
  return state.seats.map((_, i) => i).filter((i) => state.alive[i]);
}

export function mafiaSeats(state: MafiaState): number[] {
  return state.roles.map((r, i) => (r === 'mafia' ? i : -1)).filter((i) => i >= 0);
}

export function ref(state: MafiaState, seat: number): JsonObject {
  return { agent_id: seatOf(state, seat).agentId, name: seatOf(state, seat).name };
}

export function aliasRef(state: MafiaState, seat: number): JsonObject {
  return { agent_id: alias(seat), name: seatOf(state, seat).name };
}

function hasNightAction(role: MafiaRole): boolean {
  return role !== 'citizen';
}

export function nightActors(state: MafiaState): number[] {
  return aliveSeats(state).filter((s) => hasNightAction(state.roles[s] as MafiaRole));
}

export function nightTargets(state: MafiaState, seat: number): number[] {
  const role = state.roles[seat];
  return aliveSeats(state).filter((s) => role === 'doctor' || s !== seat);
}

export function voteCandidates(state: MafiaState, seat: number): number[] {
  const pool = state.runoff ? state.runoffCandidates.filter((s) => state.alive[s]) : aliveSeats(state);
  return pool.filter((s) => s !== seat);
}

/** Speaking order for a discussion: the given seats rotated to a start drawn from the seed. */
export function rotated(state: MafiaState, seats: number[], purpose: string): number[] {
  if (seats.length === 0) return seats;
  const start = createRng(`${state.seed}:mafia:order:${purpose}:${state.day}`).nextInt(0, seats.length - 1);
  return seats.map((_, i) => seats[(start + i) % seats.length] as number);
}
