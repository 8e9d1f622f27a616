// The seam between the tournament executor and the agent protocols: one GameRunner per protocol plays one scheduled
// game and reports its outcome. The executor picks the runner by the playable's protocol and knows nothing else of
// it; adding a protocol is adding a runner.
import type { PlayableRegistry, PlayProtocol } from '../../core/playables.js';
import type { ScheduledGame } from '../../core/tournament/index.js';
import type { ClawArenaMatchApi } from '../../protocols/clawarena/scheduled-matches.js';
import type { ArenaEngine } from '../../protocols/specarena/arena-engine.js';
import { playClawGame } from './clawarena-game.js';
import type { GameContext, GameOutcome } from './game-play.js';
import { playGame } from './specarena-game.js';

export type { GameContext, GameOutcome } from './game-play.js';

export interface GameRunner {
  play(context: GameContext, game: ScheduledGame, signal: AbortSignal): Promise<GameOutcome>;
  /** After the game's record is written (or the game is dropped by a cancel): close what it leaves open. */
  closed?(outcome: GameOutcome): void;
}

export type GameRunners = Partial<Record<PlayProtocol, GameRunner>>;

/** SpecArena games: a seat-key session in the protocol engine, agents joining by invite. */
export function specArenaRunner(deps: { engine: ArenaEngine; url: string; authSecret: Buffer }): GameRunner {
  return {
    play: (context, game, signal) => playGame({ ...context, ...deps }, game, signal),
    // A forfeit or a void game leaves its session open at 0/2 or 1/2 players, looking joinable: its record (the
    // transcript included) is stored, so the session goes.
    closed: (outcome) => {
      if (outcome.termination !== 'completed' && outcome.sessionId) deps.engine.discardUnfinished(outcome.sessionId);
    },
  };
}

/** ClawArena games: a scheduled match with one scoped token per seat. */
export function clawArenaRunner(clawarena: ClawArenaMatchApi): GameRunner {
  return { play: (context, game, signal) => playClawGame({ ...context, clawarena }, game, signal) };
}

/** The runner of the challenge's protocol; a challenge no runner plays is the engine's fault, not a game result. */
export function runnerFor(playables: PlayableRegistry, runners: GameRunners, challenge: string): GameRunner {
  const entry = playables.get(challenge);
  if (!entry) throw new Error(`challenge ${challenge} is not installed`);
  const runner = runners[entry.protocol];
  if (!runner) throw new Error(`no game runner for the ${entry.protocol} protocol (challenge ${challenge})`);
  return runner;
}
