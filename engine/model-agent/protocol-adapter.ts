// A protocol adapter turns one protocol's game state into questions for the turn engine and its answers into moves.
// The model agent is one program; SpecArena, ClawArena and governance differ only in their adapter.
import type { TurnEngine } from './turn-engine.js';

export interface AdapterContext {
  /** The agent's environment: each adapter reads its protocol's own contract from it. */
  env: NodeJS.ProcessEnv;
  agentId: string | undefined;
  engine: TurnEngine;
  /** From system_prompt_file; adapters put their protocol rules after it. */
  systemPrompt: string | undefined;
  /** Questions per game (config max_turns). */
  maxTurns: number;
  /** Re-ask after this long without news, so a quiet game does not stall on a model that chose to wait. */
  idleReaskMs: number;
  /** Progress for humans: goes to stdout, never into the usage channel. */
  log(line: string): void;
}

export interface ProtocolAdapter {
  readonly protocol: 'specarena' | 'clawarena' | 'governance';
  /** Plays one game to its end; resolves when the game is over, rejects on a harness fault. */
  run(context: AdapterContext): Promise<void>;
}

/** The instructions every adapter ends its system prompt with. */
export const JSON_ONLY_RULE = 'Reply with exactly one JSON object and nothing else: no prose, no markdown.';
