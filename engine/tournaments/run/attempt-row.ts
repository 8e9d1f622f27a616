// The two shapes of one game attempt the executor handles: the row it commits, and the little it keeps in memory
// of each game's latest attempt to schedule the rest (a 100,000-game run keeps 100,000 of these).

import { inertText } from '../../core/inert-text.js';
import { TERMINATION_FAULT } from '../../core/ratings/index.js';
import type { ScheduledGame } from '../../core/tournament/index.js';
import type { NewTournamentGame, StoredTournamentGame } from '../../db/store.js';
import type { GameOutcome } from './game-play.js';
import { gameKey } from './game-source.js';

/** The model agents' turns and usage, known once every seat's process has exited. */
export type GameAccounting = Awaited<NonNullable<GameOutcome['accounting']>>;

/** The stored row of one attempt: the schedule's facts, the outcome, and the model agents' turns after the transcript. */
export function gameRow(
  tournamentId: string,
  game: ScheduledGame,
  attempt: number,
  outcome: GameOutcome,
  accounting: GameAccounting | null,
): NewTournamentGame {
  return {
    tournamentId,
    gameKey: gameKey(game),
    gameIndex: game.gameIndex,
    attempt,
    round: game.round,
    pairingIndex: game.pairingIndex,
    opening: game.opening,
    challenge: game.challenge,
    seats: game.seats,
    seed: game.seed,
    swapOf: game.swapOf ?? null,
    setSize: game.setSize,
    sessionId: outcome.sessionId,
    invites: outcome.invites,
    termination: outcome.termination,
    fault: TERMINATION_FAULT[outcome.termination],
    faultedSeats: outcome.faultedSeats,
    placements: outcome.placements,
    scores: outcome.scores,
    // Often an agent's last stderr line: stored inert (no terminal escapes, no bidi overrides).
    detail: inertText(outcome.detail),
    agentMs: outcome.agentMs,
    startedAt: outcome.startedAt,
    endedAt: outcome.endedAt,
    transcript: [...outcome.transcript, ...(accounting?.turns ?? []).map((t, i) => ({ ...t, index: outcome.transcript.length + i }))],
    usage: accounting?.usage ?? null,
    workerId: outcome.workerId ?? null,
    workerKey: outcome.workerSignature?.key ?? null,
    workerSignature: outcome.workerSignature?.signature ?? null,
    workerAttestation: outcome.workerSignature?.attestation ?? null,
  };
}

/** What the executor keeps of a game's latest attempt: whether it settled, and what its seats scored. */
export type LatestAttempt = Pick<
  StoredTournamentGame,
  'gameIndex' | 'challenge' | 'seats' | 'setSize' | 'swapOf' | 'attempt' | 'termination' | 'faultedSeats' | 'placements' | 'scores'
>;

export function latestOf(row: StoredTournamentGame): LatestAttempt {
  return {
    gameIndex: row.gameIndex,
    challenge: row.challenge,
    seats: row.seats,
    setSize: row.setSize,
    swapOf: row.swapOf,
    attempt: row.attempt,
    termination: row.termination,
    faultedSeats: row.faultedSeats,
    placements: row.placements,
    scores: null,
  };
}
