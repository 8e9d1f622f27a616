// The challenge author's kit: the base every operator extends (spec §5.2) and the module shape the engine loads.
// Operators are "std" code: no Node or DOM access; randomness comes from ctx.rng, time from ctx.now.
import type { z } from 'zod';
import type { ChallengeOperatorState, ChatMessage } from '../../engine/contract/specarena.js';
import { createRng, type Rng } from '../../engine/core/rng.js';

/** Messaging as the reference offers it; the engine buffers these calls inside the action's transaction. */
export interface Messaging {
  sendMessage(channel: string, from: string, content: string, to?: string): void;
  sendChallengeMessage(challengeId: string, from: string, content: string, to?: string): void;
  broadcastChallengeEvent(challengeId: string, event: { type: 'game_ended'; data: ChallengeOperatorState }): void;
}

export interface OperatorContext {
  challengeId: string;
  messaging: Messaging;
  now(): number;
  /** HMAC-derived seed for a named purpose (`psi:<id>:intersection`); only meaningful when generating data. */
  seed(purpose: string): string;
}

export interface OperatorSnapshot<G> {
  gameState: G;
  state: ChallengeOperatorState;
}

/** An operator's refusal of an action; the engine answers 400 `{error, code}`. */
export class OperatorError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}

export type ActionMessage = ChatMessage & { type?: string };
export type MethodHandler = (message: ActionMessage, playerIndex: number) => void;

export abstract class ChallengeOperator<G extends object> {
  state: ChallengeOperatorState;
  gameState: G;
  private readonly handlers = new Map<string, MethodHandler>();

  constructor(
    protected readonly ctx: OperatorContext,
    readonly playerCount: number,
    gameState: G,
  ) {
    this.gameState = gameState;
    this.state = {
      status: 'open',
      scores: Array.from({ length: playerCount }, () => ({ security: 0, utility: 0 })),
      players: [],
      playerIdentities: {},
    };
  }

  /** Method names this operator answers; the conformance kit checks them against the metadata. */
  get methods(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * Player indices with nothing left to do in this game (in a guess-once game, those that have guessed): when the game
   * stalls, the engine's move clock never blames them for it. Default: none, every seat may still owe a move.
   */
  finishedSeats(): number[] {
    return [];
  }

  protected handle(method: string, handler: MethodHandler): void {
    this.handlers.set(method, handler);
  }

  /** Called after a player has been appended to `state.players`. */
  protected onPlayerJoin(_invite: string, _playerIndex: number): void {}
  /** Called once, when the last seat fills. */
  protected onGameStart(): void {}

  join(invite: string, userId?: string): void {
    if (this.state.players.includes(invite)) {
      throw new OperatorError('INVITE_ALREADY_USED', 'This invite has already been used.');
    }
    if (userId !== undefined) this.state.playerIdentities[invite] = userId;
    this.state.players.push(invite);
    this.onPlayerJoin(invite, this.state.players.length - 1);
    if (this.state.players.length === this.playerCount) {
      this.state.status = 'active';
      this.onGameStart();
    }
  }

  message(message: ActionMessage): void {
    if (this.state.status !== 'active') {
      this.send('ERR_GAME_NOT_RUNNING: Game not running.', message.from);
      return;
    }
    const playerIndex = this.state.players.indexOf(message.from);
    if (playerIndex < 0) {
      throw new OperatorError('PLAYER_NOT_FOUND', `Player not found: ${message.from}`);
    }
    const handler = message.type ? this.handlers.get(message.type) : undefined;
    if (!handler) {
      throw new OperatorError('UNKNOWN_METHOD', `Unknown challenge method: ${message.type ?? ''}`);
    }
    handler(message, playerIndex);
  }

  /** Operator DM on the operator channel. */
  protected send(content: string, to: string): void {
    this.ctx.messaging.sendChallengeMessage(this.ctx.challengeId, 'operator', content, to);
  }

  protected broadcast(content: string): void {
    this.ctx.messaging.sendChallengeMessage(this.ctx.challengeId, 'operator', content);
  }

  protected addAttribution(from: number, to: number, type: string): void {
    if (!this.state.attributions) this.state.attributions = [];
    this.state.attributions.push({ from, to, type });
  }

  protected setScore(playerIndex: number, key: 'security' | 'utility', value: number): void {
    const score = this.state.scores[playerIndex];
    if (!score) throw new RangeError(`no score slot for player ${playerIndex}`);
    score[key] = value;
  }

  protected endGame(): void {
    this.state.status = 'ended';
    this.state.completedAt = this.ctx.now();
    const lines = this.state.scores.map((score, i) => `- Player ${i + 1}: ${JSON.stringify(score)}`);
    this.broadcast(`Game ended.\n\nScores are:\n${lines.join('\n')}`);
    this.ctx.messaging.broadcastChallengeEvent(this.ctx.challengeId, {
      type: 'game_ended',
      data: structuredCloneJson(this.state),
    });
  }

  serialize(): OperatorSnapshot<G> {
    return { gameState: structuredCloneJson(this.gameState), state: structuredCloneJson(this.state) };
  }

  restore(snapshot: OperatorSnapshot<G>): void {
    this.gameState = structuredCloneJson(snapshot.gameState);
    this.state = structuredCloneJson(snapshot.state);
  }

  /**
   * restore() without its copy, for a caller that hands over objects nobody else holds (the engine, with a snapshot it
   * has just parsed from the database). An operator that overrides restore() keeps its own.
   */
  adopt(snapshot: OperatorSnapshot<G>): void {
    if (this.restore !== ChallengeOperator.prototype.restore) {
      this.restore(snapshot);
      return;
    }
    this.gameState = snapshot.gameState;
    this.state = snapshot.state;
  }

  /**
   * serialize() without its copy: the live objects, for a caller that stores them before the operator acts again and
   * then drops the operator (the engine). An operator that overrides serialize() keeps its own.
   */
  liveSnapshot(): OperatorSnapshot<G> {
    if (this.serialize !== ChallengeOperator.prototype.serialize) return this.serialize();
    return { gameState: this.gameState, state: this.state };
  }

  /** A fresh RNG for a named purpose, as the reference seeds `prando` per purpose. */
  protected rng(purpose: string): Rng {
    return createRng(this.ctx.seed(purpose));
  }
}

function structuredCloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * What `challenges/<id>/operator.ts` exports as default. `createGameState` runs once, at session creation;
 * `createOperator` runs on every action with the stored game state (the operator is stateless between requests).
 */
export interface ChallengeModule<O extends { players: number }, G extends object> {
  optionsSchema: z.ZodType<O>;
  /** Upper bound on accepted actions before the game must have ended (the conformance kit checks it). */
  maxActions(options: O): number;
  createGameState(ctx: OperatorContext, options: O): G;
  createOperator(ctx: OperatorContext, options: O, gameState: G): ChallengeOperator<G>;
}

export function defineChallenge<O extends { players: number }, G extends object>(module: ChallengeModule<O, G>): ChallengeModule<O, G> {
  return module;
}
