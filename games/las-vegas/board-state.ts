// Claw Vegas on the match viewer's board: the six casinos with their bills and the dice each seat placed there, the
// roll in play, dice left and money per seat, and the last settlement.
import {
  asNumber,
  asRecord,
  type BoardContext,
  type BoardModel,
  clawName,
  clawSeat,
  dataOf,
  matchEvents,
  numbersOf,
  runtimeSentence,
  seatName,
} from '../../engine/core/board.js';

const DICE_PER_SEAT = 8;

export interface VegasBoard {
  round: number | null;
  casinos: { number: number; bills: number[]; dice: number[] }[];
  roll: { seat: number | null; who: string; dice: number[] } | null;
  seats: { seat: number; money: number; diceLeft: number }[];
  /** Bills paid out at the last settlement, per seat. */
  lastPayouts: { casino: number; who: string; bill: number }[];
  winner: string | null;
}

const money = (n: unknown) => `$${(asNumber(n) ?? 0).toLocaleString('en-US')}`;

function perSeat(ctx: BoardContext, byAgent: unknown): Map<number, number> {
  const out = new Map<number, number>();
  for (const [agent, value] of Object.entries(asRecord(byAgent) ?? {})) {
    const seat = clawSeat(ctx, Number(agent));
    if (seat !== undefined && typeof value === 'number') out.set(seat, value);
  }
  return out;
}

export const lasVegasBoard: BoardModel<VegasBoard> = {
  id: 'las_vegas',
  board(lines, upto, ctx) {
    const n = ctx.seatAgents.length;
    const board: VegasBoard = {
      round: null,
      casinos: [],
      roll: null,
      seats: ctx.seatAgents.map((_, seat) => ({ seat, money: 0, diceLeft: DICE_PER_SEAT })),
      lastPayouts: [],
      winner: null,
    };
    for (const e of matchEvents(lines, upto)) {
      const d = dataOf(e);
      if (e.content === 'round_start') {
        board.round = asNumber(d.round);
        board.casinos = (Array.isArray(d.casinos) ? d.casinos : []).map((c, i) => ({
          number: asNumber(asRecord(c)?.number) ?? i + 1,
          bills: numbersOf(asRecord(c)?.bills),
          dice: Array<number>(n).fill(0),
        }));
        for (const s of board.seats) s.diceLeft = DICE_PER_SEAT;
      }
      if (e.content === 'roll') {
        board.roll = {
          seat: clawSeat(ctx, d.agent_id) ?? null,
          who: clawName(ctx, d.agent_id, d.name),
          dice: numbersOf(d.roll),
        };
      }
      if (e.content === 'place') {
        const seat = clawSeat(ctx, d.agent_id);
        const casino = board.casinos.find((c) => c.number === asNumber(d.casino));
        const count = asNumber(d.dice) ?? 0;
        if (seat !== undefined && casino) casino.dice[seat] = (casino.dice[seat] ?? 0) + count;
        const s = seat === undefined ? undefined : board.seats[seat];
        if (s) s.diceLeft = Math.max(0, s.diceLeft - count);
        board.roll = null;
      }
      if (e.content === 'round_settled') {
        for (const [seat, value] of perSeat(ctx, d.money)) {
          const s = board.seats[seat];
          if (s) s.money = value;
        }
        board.lastPayouts = (Array.isArray(d.casinos) ? d.casinos : []).flatMap((c) => {
          const casino = asNumber(asRecord(c)?.number) ?? 0;
          const payouts = asRecord(c)?.payouts;
          return (Array.isArray(payouts) ? payouts : []).map((p) => ({
            casino,
            who: clawName(ctx, asRecord(p)?.agent_id),
            bill: asNumber(asRecord(p)?.bill) ?? 0,
          }));
        });
        board.roll = null;
      }
      if (e.content === 'game_over') board.winner = clawName(ctx, d.winner_id);
    }
    return board;
  },
  sentence(line, ctx) {
    if (line.channel !== 'match') return null;
    const d = dataOf(line);
    switch (line.content) {
      case 'round_start':
        return `Round ${d.round} starts; ${clawName(ctx, d.start_player, d.start_player_name)} rolls first.`;
      case 'roll':
        return `${clawName(ctx, d.agent_id, d.name)} rolls ${(Array.isArray(d.roll) ? d.roll : []).join(' ')}.`;
      case 'place':
        return `${clawName(ctx, d.agent_id, d.name)} places ${d.dice} ${d.dice === 1 ? 'die' : 'dice'} on casino ${d.casino}${typeof d.message === 'string' ? ` — “${d.message}”` : ''}.`;
      case 'round_settled': {
        const totals = [...perSeat(ctx, d.money)].sort((a, b) => a[0] - b[0]).map(([seat, m]) => `${seatName(seat, ctx)} ${money(m)}`);
        return `Round ${d.round} is paid out. Money: ${totals.join(', ')}.`;
      }
      case 'game_over':
        return `${clawName(ctx, d.winner_id)} wins with the most money.`;
      default:
        return runtimeSentence(line, ctx);
    }
  },
};
