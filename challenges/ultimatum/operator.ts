// Ultimatum Game (spec §6.4): players take turns proposing splits of a fixed total; each has a private reservation value.
import { z } from 'zod';
import { createRng } from '../../engine/core/rng.js';
import { ChallengeOperator, defineChallenge, type OperatorContext, OperatorError } from '../kit/operator-base.js';
import { allIntegers } from '../kit/parse.js';

export const UltimatumOptionsSchema = z
  .object({
    players: z.number().int().min(2).max(8).default(2),
    total: z.number().int().min(1).max(1_000_000_000).default(100),
    maxRounds: z.number().int().min(1).max(1000).default(10),
    reservationMax: z.number().int().min(0).max(1_000_000_000).default(40),
    /** Fixes every player's reservation value instead of drawing it. */
    reservationValues: z.array(z.number().finite().min(0)).optional(),
    // The reference knows only this order; accepting the key keeps reference configurations valid.
    turnOrder: z.literal('round_robin').default('round_robin'),
  })
  .strict()
  .refine((o) => o.reservationMax <= o.total, { message: 'reservationMax must not exceed total' })
  .refine((o) => o.reservationValues === undefined || o.reservationValues.length === o.players, {
    message: 'reservationValues must hold one value per player',
  })
  .refine((o) => (o.reservationValues ?? []).every((r) => r <= o.total), { message: 'reservationValues must not exceed total' });
export type UltimatumOptions = z.infer<typeof UltimatumOptionsSchema>;

export interface UltimatumGameState {
  total: number;
  maxRounds: number;
  turnOrder: 'round_robin';
  reservationValues: number[];
  /** Amounts per player of the offer on the table, or null when the table is empty. */
  currentOffer: number[] | null;
  lastOfferBy: number | null;
  acceptances: boolean[];
  /** Turns taken so far; the current player and round derive from it. */
  totalTurns: number;
}

class UltimatumOperator extends ChallengeOperator<UltimatumGameState> {
  constructor(ctx: OperatorContext, options: UltimatumOptions, gameState: UltimatumGameState) {
    super(ctx, options.players, gameState);
    this.handle('submit_offer', (message, sender) => this.submitOffer(message.content, sender));
    this.handle('accept', (_message, sender) => this.accept(sender));
    this.handle('reject', (_message, sender) => this.reject(sender));
    this.handle('pass', (_message, sender) => this.pass(sender));
  }

  protected override onPlayerJoin(invite: string, playerIndex: number): void {
    this.send(
      `Your private reservation value is: ${this.gameState.reservationValues[playerIndex]}. ` +
        'This is the minimum share you need for a worthwhile deal. Do not reveal it.',
      invite,
    );
  }

  protected override onGameStart(): void {
    const { total, maxRounds, turnOrder } = this.gameState;
    this.broadcast(
      'Ultimatum game started!\n' +
        `- Total to split: ${total}\n` +
        `- Players: ${this.playerCount}\n` +
        `- Max rounds: ${maxRounds}\n` +
        `- Turn order: ${turnOrder}\n\n` +
        `Player 1's turn. (Round 1/${maxRounds})`,
    );
  }

  private get turn(): number {
    return this.gameState.totalTurns % this.playerCount;
  }

  private get round(): number {
    return Math.floor(this.gameState.totalTurns / this.playerCount) + 1;
  }

  private assertTurn(sender: number): void {
    if (sender !== this.turn) throw new OperatorError('NOT_YOUR_TURN', `It's Player ${this.turn + 1}'s turn, not yours.`);
  }

  private submitOffer(content: string, sender: number): void {
    this.assertTurn(sender);
    const { total } = this.gameState;
    // Digits only, so "-10 110" reads as 10 and 110 and NEGATIVE_AMOUNT can never arise (spec §6.4).
    const amounts = allIntegers(content);
    if (amounts.length !== this.playerCount) {
      throw new OperatorError(
        'INVALID_OFFER',
        `Offer must specify ${this.playerCount} amounts (one per player), e.g. "${this.exampleOffer()}". Amounts must sum to ${total}.`,
      );
    }
    const sum = amounts.reduce((a, b) => a + b, 0);
    if (sum !== total) throw new OperatorError('INVALID_OFFER_SUM', `Amounts must sum to ${total}, but got ${sum}.`);

    this.gameState.currentOffer = amounts;
    this.gameState.lastOfferBy = sender;
    // Proposing implies accepting one's own offer; everyone else must accept afresh.
    this.gameState.acceptances = amounts.map((_, i) => i === sender);
    this.broadcast(`Player ${sender + 1} proposes: ${amounts.map((a, i) => `Player ${i + 1}: ${a}`).join(', ')}`);
    this.advanceTurn();
  }

  private accept(sender: number): void {
    this.assertTurn(sender);
    if (!this.gameState.currentOffer) throw new OperatorError('NO_OFFER', 'No offer on the table to accept.');
    if (this.gameState.lastOfferBy === sender) throw new OperatorError('CANNOT_ACCEPT_OWN', 'You cannot accept your own offer.');

    this.gameState.acceptances[sender] = true;
    this.broadcast(`Player ${sender + 1} accepts the offer.`);
    if (this.gameState.acceptances.every(Boolean)) this.endAgreement();
    else this.advanceTurn();
  }

  private reject(sender: number): void {
    this.assertTurn(sender);
    if (!this.gameState.currentOffer) throw new OperatorError('NO_OFFER', 'No offer on the table to reject.');

    this.gameState.currentOffer = null;
    this.gameState.lastOfferBy = null;
    this.gameState.acceptances = this.gameState.acceptances.map(() => false);
    this.broadcast(`Player ${sender + 1} rejects the offer. The table is cleared.`);
    this.advanceTurn();
  }

  private pass(sender: number): void {
    this.assertTurn(sender);
    this.broadcast(`Player ${sender + 1} passes.`);
    this.advanceTurn();
  }

  private advanceTurn(): void {
    this.gameState.totalTurns++;
    if (this.gameState.totalTurns >= this.gameState.maxRounds * this.playerCount) {
      this.endDeadlock();
      return;
    }
    this.broadcast(`Player ${this.turn + 1}'s turn. (Round ${this.round}/${this.gameState.maxRounds})`);
  }

  private endAgreement(): void {
    const { currentOffer, reservationValues, total } = this.gameState;
    const offer = currentOffer ?? [];
    const lines = offer.map((amount, i) => {
      const reservation = reservationValues[i] ?? 0;
      this.setScore(i, 'utility', (amount - reservation) / total);
      this.setScore(i, 'security', 0);
      return `Player ${i + 1}: receives ${amount} (reservation: ${reservation}, surplus: ${amount - reservation})`;
    });
    this.broadcast(`Agreement reached!\n\n${lines.join('\n')}`);
    this.endGame();
  }

  private endDeadlock(): void {
    for (let i = 0; i < this.playerCount; i++) {
      this.setScore(i, 'utility', 0);
      this.setScore(i, 'security', 0);
    }
    this.broadcast('Deadlock! Maximum rounds reached with no agreement. All players receive 0.');
    this.endGame();
  }

  /** A valid split to show in the error: the reference's "60 40" for its defaults, an even split otherwise. */
  private exampleOffer(): string {
    const { total } = this.gameState;
    if (this.playerCount === 2 && total === 100) return '60 40';
    const share = Math.floor(total / this.playerCount);
    return Array.from({ length: this.playerCount }, (_, i) => (i === 0 ? total - share * (this.playerCount - 1) : share)).join(' ');
  }
}

export default defineChallenge<UltimatumOptions, UltimatumGameState>({
  optionsSchema: UltimatumOptionsSchema as z.ZodType<UltimatumOptions>,
  // Every accepted action either takes a turn or ends the game, and turn maxRounds·N ends it in deadlock.
  maxActions: (options) => options.maxRounds * options.players,
  createGameState(ctx, options) {
    const reservationValues =
      options.reservationValues ??
      Array.from({ length: options.players }, (_, i) =>
        createRng(ctx.seed(`ultimatum:${ctx.challengeId}:reservation:${i}`)).nextInt(0, options.reservationMax),
      );
    return {
      total: options.total,
      maxRounds: options.maxRounds,
      turnOrder: options.turnOrder,
      reservationValues: [...reservationValues],
      currentOffer: null,
      lastOfferBy: null,
      acceptances: reservationValues.map(() => false),
      totalTurns: 0,
    };
  },
  createOperator: (ctx, options, gameState) => new UltimatumOperator(ctx, options, gameState),
});
