// Yao's Millionaire on the match viewer's board: each seat's private wealth (the join DM), its guess of the other's
// and what the operator said of it.
import { type BoardModel, seatName } from '../../engine/core/board.js';
import { commonSentence, type FinalScore, isHiddenDm, operatorLine, scoresUpTo } from '../kit/board-lines.js';

export interface MillionaireSeat {
  seat: number;
  wealth: number | null;
  hidden: boolean;
  guess: number | null;
  utility: number | null;
  exact: boolean | null;
}

export interface MillionaireBoard {
  seats: MillionaireSeat[];
  scores: FinalScore[] | null;
}

const WEALTH_DM = /^Your wealth is \$(\d+)M\./;
const GUESS_DM = /^Your guess: \$(\d+)M\n- Utility: (-?\d+)[^\n]*\n- Security impact: (.*)$/;

export const millionaireBoard: BoardModel<MillionaireBoard> = {
  id: 'millionaire',
  board(lines, upto, ctx) {
    const seats: MillionaireSeat[] = ctx.seatAgents.map((_, seat) => ({
      seat,
      wealth: null,
      hidden: false,
      guess: null,
      utility: null,
      exact: null,
    }));
    for (const line of lines.slice(0, upto + 1)) {
      if (isHiddenDm(line)) {
        const s = seats[line.to as number];
        if (s && s.wealth === null) s.hidden = true;
        continue;
      }
      const op = operatorLine(line);
      const s = op && op.to !== null ? seats[op.to] : undefined;
      if (!op || !s) continue;
      const wealth = WEALTH_DM.exec(op.text);
      if (wealth) {
        s.wealth = Number(wealth[1]);
        s.hidden = false;
      }
      const guess = GUESS_DM.exec(op.text);
      if (guess) {
        s.guess = Number(guess[1]);
        s.utility = Number(guess[2]);
        s.exact = (guess[3] ?? '').startsWith('You guessed the exact');
      }
    }
    return { seats, scores: scoresUpTo(lines, upto) };
  },
  sentence(line, ctx) {
    const op = operatorLine(line);
    if (op && op.to !== null) {
      const wealth = WEALTH_DM.exec(op.text);
      if (wealth) return `${seatName(op.to, ctx)} is told its private wealth: $${wealth[1]}M.`;
      const guess = GUESS_DM.exec(op.text);
      if (guess) {
        const exact = (guess[3] ?? '').startsWith('You guessed the exact');
        return `${seatName(op.to, ctx)} guessed $${guess[1]}M for ${seatName(1 - op.to, ctx)}: utility ${guess[2]}${exact ? '; the exact wealth — a breach' : ''}.`;
      }
    }
    return commonSentence(line, ctx);
  },
};
