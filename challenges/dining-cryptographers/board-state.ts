// Dining Cryptographers on the match viewer's board: who was told they paid, each diner's guess, and the payer the
// operator revealed at the end.
import { type BoardContext, type BoardModel, seatName } from '../../engine/core/board.js';
import {
  actionOf,
  commonSentence,
  type FinalScore,
  isHiddenDm,
  nameInvites,
  operatorLine,
  scoresUpTo,
  seatOfInvite,
} from '../kit/board-lines.js';

export interface DiningSeat {
  seat: number;
  /** true: told "You paid the bill."; null: not told yet or withheld from this reader. */
  paid: boolean | null;
  hidden: boolean;
  /** "external" | "internal" | "unknown" | a seat's name; null until the operator has taken it. */
  guess: string | null;
}

export interface DiningBoard {
  seats: DiningSeat[];
  /** The revealed payer: a seat's name or "an external party"; null before the reveal. */
  payer: string | null;
  scores: FinalScore[] | null;
}

const REVEAL = /^The bill was paid by (.+?)\.(?:\n|$)/;
const SUBMITTED = /^(\S+) has submitted their guess\.$/;

function guessLabel(guess: string, ctx: BoardContext): string {
  const seat = seatOfInvite(guess, ctx);
  return seat === undefined ? guess : seatName(seat, ctx);
}

export const diningBoard: BoardModel<DiningBoard> = {
  id: 'dining-cryptographers',
  board(lines, upto, ctx) {
    const seats: DiningSeat[] = ctx.seatAgents.map((_, seat) => ({ seat, paid: null, hidden: false, guess: null }));
    const pending = new Map<number, string>();
    let payer: string | null = null;
    for (const line of lines.slice(0, upto + 1)) {
      if (isHiddenDm(line)) {
        const s = seats[line.to as number];
        if (s && s.paid === null) s.hidden = true;
        continue;
      }
      const action = actionOf(line);
      if (action?.type === 'guess') pending.set(action.seat, action.content.trim());
      const op = operatorLine(line);
      if (!op) continue;
      if (op.to !== null) {
        const s = seats[op.to];
        if (s && (op.text === 'You paid the bill.' || op.text === 'You did not pay the bill.')) {
          s.paid = op.text === 'You paid the bill.';
          s.hidden = false;
        }
        continue;
      }
      const submitted = SUBMITTED.exec(op.text);
      const by = submitted ? seatOfInvite(submitted[1] as string, ctx) : undefined;
      if (by !== undefined) {
        const s = seats[by];
        const guess = pending.get(by);
        if (s && guess !== undefined) s.guess = guessLabel(guess, ctx);
      }
      const reveal = REVEAL.exec(op.text);
      if (reveal) payer = guessLabel(reveal[1] as string, ctx);
    }
    return { seats, payer, scores: scoresUpTo(lines, upto) };
  },
  sentence(line, ctx) {
    const op = operatorLine(line);
    if (op && op.to !== null && (op.text === 'You paid the bill.' || op.text === 'You did not pay the bill.')) {
      return `${seatName(op.to, ctx)} is told: “${op.text}”`;
    }
    if (op && op.to === null) {
      const submitted = SUBMITTED.exec(op.text);
      const by = submitted ? seatOfInvite(submitted[1] as string, ctx) : undefined;
      if (by !== undefined) return `${seatName(by, ctx)} has submitted a guess.`;
      if (op.text.startsWith('All diners have arrived')) return 'All diners have arrived; the bill has been paid — by whom?';
      if (REVEAL.test(op.text)) return nameInvites(op.text, ctx).replace(/\n\n/, ' ').replace(/\n/g, '; ');
    }
    const action = actionOf(line);
    if (action?.type === 'guess') return `${seatName(action.seat, ctx)} guesses: ${guessLabel(action.content.trim(), ctx)}`;
    return commonSentence(line, ctx);
  },
};
