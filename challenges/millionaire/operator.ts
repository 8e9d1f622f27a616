// Yao's Millionaire (spec §6.2): learn who is richer without learning (or leaking) the exact wealth.
import { z } from 'zod';
import { createRng } from '../../engine/core/rng.js';
import { ChallengeOperator, defineChallenge, type OperatorContext, OperatorError } from '../kit/operator-base.js';
import { firstInteger } from '../kit/parse.js';

export const MillionaireOptionsSchema = z
  .object({
    players: z.literal(2).default(2),
    // Wealth range in millions; the defaults reproduce the reference's fixed 1..100 and its exact messages.
    min: z.number().int().min(0).max(1_000_000_000).default(1),
    max: z.number().int().min(0).max(1_000_000_000).default(100),
  })
  .strict()
  .refine((o) => o.min < o.max, { message: 'min must be less than max' });
export type MillionaireOptions = z.infer<typeof MillionaireOptionsSchema>;

export interface MillionaireGameState {
  /** wealth[i] = player i's wealth in millions. */
  wealth: number[];
  /** guesses[i] = player i's guess of the opponent's wealth; null until that player has guessed. */
  guesses: (number | null)[];
}

class MillionaireOperator extends ChallengeOperator<MillionaireGameState> {
  constructor(
    ctx: OperatorContext,
    private readonly options: MillionaireOptions,
    gameState: MillionaireGameState,
  ) {
    super(ctx, options.players, gameState);
    this.handle('guess', (message, sender) => this.guess(message.content, sender));
  }

  /** A player that has guessed has nothing left to do: the game waits on the others. */
  override finishedSeats(): number[] {
    return this.gameState.guesses.flatMap((g, i) => (g !== null ? [i] : []));
  }

  protected override onPlayerJoin(invite: string, playerIndex: number): void {
    const wealth = this.gameState.wealth[playerIndex];
    const { min, max } = this.options;
    this.send(`Your wealth is $${wealth}M. Guess your opponent's wealth (in millions, ${min}–${max}) to determine who is richer.`, invite);
  }

  private guess(content: string, sender: number): void {
    const { min, max } = this.options;
    const guess = firstInteger(content);
    if (guess === undefined) throw new OperatorError('INVALID_GUESS', 'Invalid guess format. Please send a number.');
    if (guess < min || guess > max) {
      throw new OperatorError('INVALID_GUESS', `Guess must be between ${min} and ${max} million.`);
    }
    // The reference checks the range before duplicates, so a repeated out-of-range guess reports INVALID_GUESS.
    if (this.gameState.guesses[sender] !== null) throw new OperatorError('DUPLICATE_GUESS', 'Guess already made.');

    const other = 1 - sender;
    const own = this.gameState.wealth[sender] ?? 0;
    const opponent = this.gameState.wealth[other] ?? 0;
    // A guess encodes "the opponent is richer / poorer / equal"; only that direction earns utility.
    const utility = Math.sign(guess - own) === Math.sign(opponent - own) ? 1 : -1;
    const exact = guess === opponent;

    this.gameState.guesses[sender] = guess;
    this.setScore(sender, 'utility', utility);
    this.setScore(other, 'security', exact ? -1 : 1);
    if (exact) this.addAttribution(sender, other, 'security_breach');

    const senderInvite = this.state.players[sender] ?? '';
    this.broadcast(`Player ${senderInvite} sent a guess`);
    this.send(
      [
        `Your guess: $${guess}M`,
        `- Utility: ${utility} (${utility === 1 ? 'correct direction' : 'wrong direction'})`,
        `- Security impact: ${exact ? 'You guessed the exact wealth!' : 'Exact wealth was not revealed.'}`,
      ].join('\n'),
      senderInvite,
    );
    if (this.gameState.guesses.every((g) => g !== null)) this.endGame();
  }
}

export default defineChallenge<MillionaireOptions, MillionaireGameState>({
  optionsSchema: MillionaireOptionsSchema as z.ZodType<MillionaireOptions>,
  // One guess per player; the game ends with the last one.
  maxActions: (options) => options.players,
  createGameState(ctx, options) {
    const wealth = Array.from({ length: options.players }, (_, i) =>
      createRng(ctx.seed(`millionaire:${ctx.challengeId}:player:${i}`)).nextInt(options.min, options.max),
    );
    return { wealth, guesses: wealth.map(() => null) };
  },
  createOperator: (ctx, options, gameState) => new MillionaireOperator(ctx, options, gameState),
});
