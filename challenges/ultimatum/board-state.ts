// Ultimatum on the match viewer's board: each seat's private reservation value (the join DM), the offer on the
// table with who accepted it, whose turn it is, the offers made so far and the settlement.
import { type BoardModel, integersIn, seatName } from '../../engine/core/board.js';
import { commonSentence, type FinalScore, isHiddenDm, operatorLine, playerSeat, scoresUpTo } from '../kit/board-lines.js';

export interface UltimatumSeat {
  seat: number;
  reservation: number | null;
  hidden: boolean;
  /** Accepted the offer on the table. */
  accepted: boolean;
  /** What the settlement gave it. */
  received: number | null;
}

export interface UltimatumBoard {
  seats: UltimatumSeat[];
  total: number | null;
  round: string | null;
  turn: number | null;
  offer: { by: number; amounts: number[] } | null;
  history: { by: number; amounts: number[] }[];
  result: 'agreement' | 'deadlock' | null;
  scores: FinalScore[] | null;
}

const RESERVATION_DM = /^Your private reservation value is: (\d+(?:\.\d+)?)\./;
const PROPOSES = /^Player (\d+) proposes: (.*)$/;
const ACCEPTS = /^Player (\d+) accepts the offer\.$/;
const REJECTS = /^Player (\d+) rejects the offer\./;
const PASSES = /^Player (\d+) passes\.$/;
const TURN = /Player (\d+)'s turn\. \(Round (\d+\/\d+)\)$/;
const RECEIVES = /^Player (\d+): receives (\d+)/gm;

/** "Player 1: 60, Player 2: 40" → [60, 40], by player number. */
function amountsOf(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/Player (\d+): (\d+)/g)) out[playerSeat(Number(m[1]))] = Number(m[2]);
  return out;
}

export const ultimatumBoard: BoardModel<UltimatumBoard> = {
  id: 'ultimatum',
  board(lines, upto, ctx) {
    const seats: UltimatumSeat[] = ctx.seatAgents.map((_, seat) => ({
      seat,
      reservation: null,
      hidden: false,
      accepted: false,
      received: null,
    }));
    const board: UltimatumBoard = { seats, total: null, round: null, turn: null, offer: null, history: [], result: null, scores: null };
    for (const line of lines.slice(0, upto + 1)) {
      if (isHiddenDm(line)) {
        const s = seats[line.to as number];
        if (s && s.reservation === null) s.hidden = true;
        continue;
      }
      const op = operatorLine(line);
      if (!op) continue;
      if (op.to !== null) {
        const reservation = RESERVATION_DM.exec(op.text);
        const s = seats[op.to];
        if (reservation && s) {
          s.reservation = Number(reservation[1]);
          s.hidden = false;
        }
        continue;
      }
      const total = /- Total to split: (\d+)/.exec(op.text);
      if (total) board.total = Number(total[1]);
      const turn = TURN.exec(op.text);
      if (turn) {
        board.turn = playerSeat(Number(turn[1]));
        board.round = turn[2] ?? null;
      }
      const proposes = PROPOSES.exec(op.text);
      if (proposes) {
        const by = playerSeat(Number(proposes[1]));
        board.offer = { by, amounts: amountsOf(proposes[2] as string) };
        board.history.push(board.offer);
        for (const s of seats) s.accepted = s.seat === by;
      }
      const accepts = ACCEPTS.exec(op.text);
      const accepter = accepts ? seats[playerSeat(Number(accepts[1]))] : undefined;
      if (accepter) accepter.accepted = true;
      if (REJECTS.test(op.text)) {
        board.offer = null;
        for (const s of seats) s.accepted = false;
      }
      if (op.text.startsWith('Agreement reached!')) {
        board.result = 'agreement';
        board.turn = null;
        for (const m of op.text.matchAll(RECEIVES)) {
          const s = seats[playerSeat(Number(m[1]))];
          if (s) s.received = Number(m[2]);
        }
      }
      if (op.text.startsWith('Deadlock!')) {
        board.result = 'deadlock';
        board.turn = null;
      }
    }
    board.scores = scoresUpTo(lines, upto);
    return board;
  },
  sentence(line, ctx) {
    const op = operatorLine(line);
    if (op && op.to !== null) {
      const reservation = RESERVATION_DM.exec(op.text);
      if (reservation) return `${seatName(op.to, ctx)} is told its private reservation value: ${reservation[1]}.`;
    }
    if (op && op.to === null) {
      const name = (player: string | undefined) => seatName(playerSeat(Number(player)), ctx);
      const proposes = PROPOSES.exec(op.text);
      if (proposes) {
        const amounts = amountsOf(proposes[2] as string);
        return `${name(proposes[1])} proposes ${amounts.map((a, seat) => `${a} to ${seatName(seat, ctx)}`).join(', ')}.`;
      }
      const accepts = ACCEPTS.exec(op.text);
      if (accepts) return `${name(accepts[1])} accepts the offer.`;
      const rejects = REJECTS.exec(op.text);
      if (rejects) return `${name(rejects[1])} rejects the offer; the table is cleared.`;
      const passes = PASSES.exec(op.text);
      if (passes) return `${name(passes[1])} passes.`;
      const turn = TURN.exec(op.text);
      if (turn && !op.text.startsWith('Ultimatum game started')) return `${name(turn[1])}'s turn (round ${turn[2]}).`;
      if (op.text.startsWith('Agreement reached!')) {
        const parts = [...op.text.matchAll(/^Player (\d+): receives (\d+) \(reservation: ([\d.]+), surplus: (-?[\d.]+)\)/gm)].map(
          (m) => `${name(m[1])} receives ${m[2]} (reservation ${m[3]}, surplus ${m[4]})`,
        );
        return `Agreement reached: ${parts.join('; ')}.`;
      }
      if (op.text.startsWith('Ultimatum game started!')) {
        const [total, players, rounds] = integersIn(op.text);
        return `The game starts: ${total} to split between ${players} players in at most ${rounds} rounds; ${seatName(0, ctx)} proposes first.`;
      }
    }
    return commonSentence(line, ctx);
  },
};
