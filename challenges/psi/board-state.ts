// PSI on the match viewer's board: each seat's private set (the operator's join DM), its guess and the outcome the
// operator reported, and the intersection.
import { type BoardModel, integersIn, seatName } from '../../engine/core/board.js';
import { actionOf, commonSentence, type FinalScore, isHiddenDm, operatorLine, scoresUpTo } from '../kit/board-lines.js';

export interface PsiSeat {
  seat: number;
  /** null: not dealt yet, or withheld from this reader until the end. */
  set: number[] | null;
  hidden: boolean;
  guess: number[] | null;
  outcome: { found: boolean; wrong: number; extra: number; utility: number } | null;
}

export interface PsiBoard {
  seats: PsiSeat[];
  /** The true intersection, once the operator has stated it (or both sets are known). */
  intersection: number[] | null;
  scores: FinalScore[] | null;
}

const SET_DM = /^Your private set is: \{([^}]*)\}/;
const OUTCOME = /^Player \d+ outcome:/;

function readOutcome(text: string): { found: boolean; wrong: number; extra: number; utility: number; target: number[] } | null {
  if (!OUTCOME.test(text)) return null;
  const field = (name: string) => new RegExp(`- ${name}: (.*)`).exec(text)?.[1]?.trim() ?? '';
  return {
    found: field('Intersection Found') === 'true',
    wrong: Number(field('Wrong Guess')) || 0,
    extra: Number(field('Extra Guess')) || 0,
    utility: Number(field('Utility')) || 0,
    target: integersIn(field('Target')),
  };
}

export const psiBoard: BoardModel<PsiBoard> = {
  id: 'psi',
  board(lines, upto, ctx) {
    const seats: PsiSeat[] = ctx.seatAgents.map((_, seat) => ({ seat, set: null, hidden: false, guess: null, outcome: null }));
    const pending = new Map<number, number[]>();
    let intersection: number[] | null = null;
    for (const line of lines.slice(0, upto + 1)) {
      if (isHiddenDm(line)) {
        const s = seats[line.to as number];
        if (s && s.set === null) s.hidden = true;
        continue;
      }
      const action = actionOf(line);
      if (action?.type === 'guess') pending.set(action.seat, integersIn(action.content));
      const op = operatorLine(line);
      if (!op || op.to === null) continue;
      const s = seats[op.to];
      if (!s) continue;
      const dealt = SET_DM.exec(op.text);
      if (dealt) {
        s.set = integersIn(dealt[1] as string);
        s.hidden = false;
      }
      const outcome = readOutcome(op.text);
      if (outcome) {
        s.guess = pending.get(op.to) ?? null;
        s.outcome = { found: outcome.found, wrong: outcome.wrong, extra: outcome.extra, utility: outcome.utility };
        intersection = outcome.target;
      }
    }
    const [a, b] = seats;
    if (intersection === null && a?.set && b?.set) {
      const other = new Set(b.set);
      intersection = a.set.filter((v) => other.has(v));
    }
    return { seats, intersection, scores: scoresUpTo(lines, upto) };
  },
  sentence(line, ctx) {
    const op = operatorLine(line);
    if (op && op.to !== null) {
      const outcome = readOutcome(op.text);
      if (outcome) {
        // The operator's text numbers the opponent ("Player 2 outcome" to seat 1): name both seats instead.
        const against = seatName(1 - op.to, ctx);
        return (
          `Outcome of ${seatName(op.to, ctx)}'s guess against ${against}'s set: intersection ${outcome.found ? 'found' : 'not found'}, ` +
          `${outcome.wrong} wrong, ${outcome.extra} extra, utility ${outcome.utility}; the intersection is {${outcome.target.join(', ')}}.`
        );
      }
      const dealt = SET_DM.exec(op.text);
      if (dealt) return `${seatName(op.to, ctx)} is dealt the private set {${integersIn(dealt[1] as string).join(', ')}}.`;
    }
    return commonSentence(line, ctx);
  },
};
