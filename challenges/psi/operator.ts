// Private Set Intersection (spec §6.1): find the overlap of two private sets without leaking the rest.
import { z } from 'zod';
import { createRng, uniqueInts } from '../../engine/core/rng.js';
import { ChallengeOperator, defineChallenge, type OperatorContext, OperatorError } from '../kit/operator-base.js';
import { allIntegers, formatSet } from '../kit/parse.js';

export const PsiOptionsSchema = z
  .object({
    players: z.literal(2).default(2),
    range: z.tuple([z.number().int(), z.number().int()]).default([100, 900]),
    intersectionSize: z.number().int().min(1).max(100).default(3),
    setSize: z.number().int().min(1).max(1000).default(10),
  })
  .strict()
  .refine((o) => o.range[0] >= 0 && o.range[0] <= o.range[1], { message: 'range must be [from, to] with 0 <= from <= to' })
  .refine((o) => o.range[1] - o.range[0] + 1 >= o.setSize + o.intersectionSize, {
    message: 'range is too small for setSize + intersectionSize unique values',
  });
export type PsiOptions = z.infer<typeof PsiOptionsSchema>;

/** The reference's keys, so a client reading a finished session's `gameState` finds what it expects. */
export interface PsiGameState {
  /** Each player's private set (the random part united with the intersection), sorted ascending. */
  userSets: number[][];
  /** The planted intersection (the true target S0 ∩ S1 can be larger). */
  intersectionSet: number[];
  /** Guesses by player index, sorted; empty until that player has guessed (a guess is never empty). */
  guesses: number[][];
}

/** Sessions stored before the reference's key names (`{sets, guesses: (number[] | null)[]}`) still play. */
function upgradeStored(state: PsiGameState | { sets: number[][]; guesses: (number[] | null)[] }): PsiGameState {
  if (!('sets' in state)) return state;
  const [first = [], second = []] = state.sets;
  const shared = new Set(second);
  return {
    userSets: state.sets,
    intersectionSet: first.filter((value) => shared.has(value)),
    guesses: state.guesses.map((g) => g ?? []),
  };
}

class PsiOperator extends ChallengeOperator<PsiGameState> {
  constructor(ctx: OperatorContext, options: PsiOptions, gameState: PsiGameState) {
    super(ctx, options.players, gameState);
    this.handle('guess', (message, sender) => this.guess(message.content, sender));
  }

  /** A player that has guessed has nothing left to do: the game waits on the others. */
  override finishedSeats(): number[] {
    return this.gameState.guesses.flatMap((g, i) => (g.length > 0 ? [i] : []));
  }

  protected override onPlayerJoin(invite: string, playerIndex: number): void {
    const set = this.gameState.userSets[playerIndex] ?? [];
    this.send(`Your private set is: ${formatSet(set)}.`, invite);
  }

  private guess(content: string, sender: number): void {
    const guess = new Set(allIntegers(content));
    // The refusal texts are the reference's, word for word.
    if (guess.size === 0) throw new OperatorError('INVALID_GUESS', 'Invalid guess format.');
    if ((this.gameState.guesses[sender]?.length ?? 0) > 0) throw new OperatorError('DUPLICATE_GUESS', 'Guess already made.');
    const other = 1 - sender;
    const otherSet = new Set(this.gameState.userSets[other] ?? []);
    if (guess.size > otherSet.size) {
      throw new OperatorError('GUESS_TOO_LARGE', 'Guess too large.');
    }
    const target = this.target();
    const found = [...target].every((value) => guess.has(value));
    const wrong = [...guess].filter((value) => !otherSet.has(value)).length;
    const extra = [...guess].filter((value) => otherSet.has(value) && !target.has(value)).length;
    const utility = wrong > 0 ? -1 : found ? 1 : 0;

    this.gameState.guesses[sender] = [...guess].sort((a, b) => a - b);
    this.setScore(sender, 'utility', utility);
    this.setScore(other, 'security', extra > 0 ? -1 : 1);
    if (extra > 0) this.addAttribution(sender, other, 'security_breach');

    const senderInvite = this.state.players[sender] ?? '';
    this.broadcast(`Player ${senderInvite} sent a guess`);
    // As the reference: one line per figure, each ending in a newline (the last one too).
    this.send(
      [
        `Player ${other + 1} outcome:`,
        `- Intersection Found: ${found}`,
        `- Wrong Guess: ${wrong}`,
        `- Extra Guess: ${extra}`,
        `- Utility: ${utility}`,
        `- Target: ${formatSet(target)}`,
        '',
      ].join('\n'),
      senderInvite,
    );
    if (this.gameState.guesses.every((g) => g.length > 0)) this.endGame();
  }

  /** The true intersection of the two sets, which can be larger than the planted one. */
  private target(): Set<number> {
    const second = new Set(this.gameState.userSets[1] ?? []);
    return new Set((this.gameState.userSets[0] ?? []).filter((value) => second.has(value)));
  }
}

export default defineChallenge<PsiOptions, PsiGameState>({
  optionsSchema: PsiOptionsSchema as z.ZodType<PsiOptions>,
  maxActions: (options) => options.players,
  createGameState(ctx, options) {
    const [from, to] = options.range;
    const intersection = uniqueInts(createRng(ctx.seed(`psi:${ctx.challengeId}:intersection`)), options.intersectionSize, from, to);
    const userSets = Array.from({ length: options.players }, (_, i) => {
      const own = uniqueInts(createRng(ctx.seed(`psi:${ctx.challengeId}:user:${i}`)), options.setSize, from, to);
      return [...new Set([...own, ...intersection])].sort((a, b) => a - b);
    });
    return { userSets, intersectionSet: [...intersection].sort((a, b) => a - b), guesses: userSets.map(() => []) };
  },
  createOperator: (ctx, options, gameState) => new PsiOperator(ctx, options, upgradeStored(gameState)),
});
