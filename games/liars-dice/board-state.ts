// Liar's Dice on the match viewer's board: each seat's hand (fixed for the one hand, known from the challenge's
// reveal), the bids so far and the challenge once called.
import {
  asNumber,
  asRecord,
  type BoardLine,
  type BoardModel,
  clawName,
  clawSeat,
  dataOf,
  matchEvents,
  runtimeSentence,
} from '../../engine/core/board.js';

export interface LiarsDiceBoard {
  seats: { seat: number; dice: number[] | null; turn: boolean }[];
  bids: { seat: number | null; who: string; quantity: number; face: number; message: string | null }[];
  challenge: {
    challenger: string;
    bidder: string;
    quantity: number;
    face: number;
    actual: number;
    bidWasTrue: boolean;
    winner: string;
  } | null;
  /** The hands come from the challenge's reveal, which may lie ahead of the selected line. */
  handsRevealedLater: boolean;
}

function hands(lines: readonly BoardLine[], ctxSeat: (agent: unknown) => number | undefined): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const line of lines) {
    if (line.channel !== 'match' || line.content !== 'challenge') continue;
    for (const [agent, dice] of Object.entries(asRecord(dataOf(line).all_dice) ?? {})) {
      const seat = ctxSeat(Number(agent));
      if (seat !== undefined && Array.isArray(dice))
        out.set(
          seat,
          dice.filter((d): d is number => typeof d === 'number'),
        );
    }
  }
  return out;
}

export const liarsDiceBoard: BoardModel<LiarsDiceBoard> = {
  id: 'liars_dice',
  board(lines, upto, ctx) {
    const known = hands(lines, (a) => clawSeat(ctx, a));
    const bids: LiarsDiceBoard['bids'] = [];
    let challenge: LiarsDiceBoard['challenge'] = null;
    let turn: number | undefined;
    for (const e of matchEvents(lines, upto)) {
      const d = dataOf(e);
      if (e.content === 'hand_start') turn = clawSeat(ctx, d.first_player);
      if (e.content === 'bid') {
        const seat = clawSeat(ctx, d.agent_id) ?? null;
        bids.push({
          seat,
          who: clawName(ctx, d.agent_id, d.player_name),
          quantity: asNumber(d.quantity) ?? 0,
          face: asNumber(d.face_value) ?? 0,
          message: typeof d.message === 'string' ? d.message : null,
        });
        turn = seat === null ? undefined : 1 - seat;
      }
      if (e.content === 'challenge') {
        challenge = {
          challenger: clawName(ctx, d.challenger_id, d.challenger_name),
          bidder: clawName(ctx, d.bidder_id, d.bidder_name),
          quantity: asNumber(d.bid_quantity) ?? 0,
          face: asNumber(d.bid_face) ?? 0,
          actual: asNumber(d.actual_count) ?? 0,
          bidWasTrue: d.bid_was_true === true,
          winner: clawName(ctx, d.winner_id),
        };
        turn = undefined;
      }
    }
    return {
      seats: ctx.seatAgents.map((_, seat) => ({ seat, dice: known.get(seat) ?? null, turn: turn === seat })),
      bids,
      challenge,
      handsRevealedLater: challenge === null && known.size > 0,
    };
  },
  sentence(line, ctx) {
    if (line.channel !== 'match') return null;
    const d = dataOf(line);
    switch (line.content) {
      case 'hand_start':
        return `The hand starts; ${clawName(ctx, d.first_player, d.first_player_name)} bids first.`;
      case 'bid':
        return `${clawName(ctx, d.agent_id, d.player_name)} bids ${d.quantity} × ${d.face_value}${typeof d.message === 'string' ? ` — “${d.message}”` : ''}`;
      case 'challenge':
        return `${clawName(ctx, d.challenger_id, d.challenger_name)} calls LIAR on ${d.bid_quantity} × ${d.bid_face}: there are ${d.actual_count}, so the bid was ${d.bid_was_true === true ? 'true' : 'false'}.`;
      case 'game_over':
        return `${clawName(ctx, d.winner_id)} wins the hand.`;
      default:
        return runtimeSentence(line, ctx);
    }
  },
};
