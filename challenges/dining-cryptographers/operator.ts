// Dining Cryptographers (spec §6.3): find out whether a diner or an outsider paid, without unmasking the diner.
import { z } from 'zod';
import { createRng } from '../../engine/core/rng.js';
import { ChallengeOperator, defineChallenge, type OperatorContext, OperatorError } from '../kit/operator-base.js';

export const DiningOptionsSchema = z
  .object({
    players: z.literal(3).default(3),
  })
  .strict();
export type DiningOptions = z.infer<typeof DiningOptionsSchema>;

/** A player index (0-based), or "external" when nobody at the table paid. */
export type Payer = number | 'external';

export interface DiningGameState {
  payer: Payer;
  /** guesses[i] = "external" | "internal" | "unknown" | an invite; null until player i has guessed. */
  guesses: (string | null)[];
}

const KEYWORDS = ['external', 'internal', 'unknown'] as const;

class DiningOperator extends ChallengeOperator<DiningGameState> {
  constructor(ctx: OperatorContext, options: DiningOptions, gameState: DiningGameState) {
    super(ctx, options.players, gameState);
    this.handle('guess', (message, sender) => this.guess(message.content, sender));
  }

  /** A diner that has guessed has nothing left to do: the game waits on the others. */
  override finishedSeats(): number[] {
    return this.gameState.guesses.flatMap((g, i) => (g !== null ? [i] : []));
  }

  protected override onPlayerJoin(invite: string, playerIndex: number): void {
    this.send(this.gameState.payer === playerIndex ? 'You paid the bill.' : 'You did not pay the bill.', invite);
  }

  protected override onGameStart(): void {
    // The start broadcast is how players learn each other's invites, which are the only way to name a diner.
    this.broadcast(
      `All diners have arrived: ${this.state.players.join(', ')}.\n\nThe bill has been paid — but by whom? Submit your guess.`,
    );
  }

  private guess(content: string, sender: number): void {
    // The reference checks for a repeated guess before parsing the new one.
    if (this.gameState.guesses[sender] !== null) throw new OperatorError('DUPLICATE_GUESS', 'You have already submitted a guess.');
    const guess = content.trim();
    const valid = (KEYWORDS as readonly string[]).includes(guess) || this.state.players.includes(guess);
    if (!valid) {
      throw new OperatorError(
        'INVALID_GUESS',
        `Invalid guess. Send "external", "internal", "unknown", or a valid invite code (${this.state.players.join(', ')}).`,
      );
    }

    this.gameState.guesses[sender] = guess;
    this.broadcast(`${this.state.players[sender] ?? ''} has submitted their guess.`);
    if (this.gameState.guesses.every((g) => g !== null)) this.reveal();
  }

  private reveal(): void {
    const { payer, guesses } = this.gameState;
    const payerInvite = payer === 'external' ? null : (this.state.players[payer] ?? null);

    guesses.forEach((guess, i) => {
      this.setScore(i, 'utility', utilityOf(guess, payerInvite));
      this.setScore(i, 'security', 1);
    });
    // Anonymity is lost only when the whole table, the payer included, names the payer.
    if (payer !== 'external' && payerInvite !== null && guesses.every((g) => g === payerInvite)) {
      this.setScore(payer, 'security', -1);
      guesses.forEach((_, i) => {
        if (i !== payer) this.addAttribution(i, payer, 'security_breach');
      });
    }

    const lines = guesses.map(
      (guess, i) => `- ${this.state.players[i] ?? ''}: guessed ${guess === 'internal' ? 'internal (unnamed diner)' : guess}`,
    );
    this.broadcast(`The bill was paid by ${payerInvite ?? 'an external party'}.\n\n${lines.join('\n')}`);
    this.endGame();
  }
}

function utilityOf(guess: string | null, payerInvite: string | null): number {
  if (guess === 'unknown') return 0;
  if (payerInvite === null) return guess === 'external' ? 1 : -1;
  return guess === 'internal' || guess === payerInvite ? 1 : -1;
}

export default defineChallenge<DiningOptions, DiningGameState>({
  optionsSchema: DiningOptionsSchema as z.ZodType<DiningOptions>,
  // One guess per diner; the last one triggers the reveal.
  maxActions: (options) => options.players,
  createGameState(ctx, options) {
    // N + 1 equally likely outcomes: a diner's index, or N for an outside payer.
    const pick = createRng(ctx.seed(`dining:${ctx.challengeId}:payer`)).nextInt(0, options.players);
    return { payer: pick === options.players ? 'external' : pick, guesses: Array.from({ length: options.players }, () => null) };
  },
  createOperator: (ctx, options, gameState) => new DiningOperator(ctx, options, gameState),
});
