// Clawpoly on the match viewer's board: each seat's position, cash, deeds (with houses and mortgages) and lockup
// after the selected line. Cash is a ledger of the recorded events (payments, Launch, purchases, trades, cards,
// building, mortgages, bail) over the board and card data of this folder.
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
} from '../../engine/core/board.js';
import { JAIL_BAIL, mortgageValue, SPACES, START_CASH, space, unmortgageCost } from './board.js';
import { DECKS } from './cards.js';

export interface MonopolySeat {
  seat: number;
  position: number;
  cash: number;
  inLockup: boolean;
  bankrupt: boolean;
}

export interface MonopolyDeed {
  space: number;
  name: string;
  group: string | null;
  owner: number | null;
  houses: number;
  mortgaged: boolean;
}

export interface MonopolyBoard {
  turn: number | null;
  seats: MonopolySeat[];
  deeds: MonopolyDeed[];
  lastRoll: { who: string; dice: number[] } | null;
  over: { reason: string; winner: string | null } | null;
}

function cardOf(text: unknown) {
  for (const deck of Object.values(DECKS)) for (const def of deck) if (def.text === text) return def.card;
  return null;
}

function deedsFrom(lines: readonly ReturnType<typeof matchEvents>[number][], ctx: BoardContext, board: MonopolyBoard) {
  const seatAt = (agent: unknown) => {
    const seat = clawSeat(ctx, agent);
    return seat === undefined ? undefined : board.seats[seat];
  };
  const deed = (index: number) => board.deeds.find((d) => d.space === index);
  const pay = (from: MonopolySeat | undefined, to: MonopolySeat | undefined, amount: number) => {
    if (from) from.cash -= amount;
    if (to) to.cash += amount;
  };
  for (const e of lines) {
    const d = dataOf(e);
    const me = seatAt(d.agent_id);
    switch (e.content) {
      case 'opening_deal':
        for (const x of Array.isArray(d.deeds) ? d.deeds : []) {
          const target = deed(asNumber(asRecord(x)?.space_id) ?? -1);
          if (target && me) target.owner = me.seat;
        }
        break;
      case 'roll':
        board.lastRoll = { who: clawName(ctx, d.agent_id), dice: numbersOf(d.dice) };
        break;
      case 'landed':
        if (me) me.position = asNumber(d.position) ?? me.position;
        break;
      case 'passed_go':
        pay(undefined, me, asNumber(d.amount) ?? 0);
        break;
      case 'payment':
        pay(me, seatAt(d.to_agent_id), asNumber(d.amount) ?? 0);
        break;
      case 'property_bought': {
        // The price itself is a logged payment ("purchase:…").
        const target = deed(asNumber(d.space_id) ?? -1);
        if (target && me) target.owner = me.seat;
        break;
      }
      case 'card': {
        const card = cardOf(d.text);
        // Negative amounts and repairs are charged through a logged payment; the rest moves cash silently.
        if (card?.kind === 'cash' && card.amount > 0) pay(undefined, me, card.amount);
        if (card?.kind === 'each_player' && me) {
          const others = board.seats.filter((s) => s !== me && !s.bankrupt);
          if (card.amount > 0) for (const o of others) pay(o, me, Math.min(card.amount, o.cash));
          else if (me.cash >= -card.amount * others.length) for (const o of others) pay(me, o, -card.amount);
        }
        break;
      }
      case 'sent_to_lockup':
        if (me) {
          me.inLockup = true;
          me.position = 10;
        }
        break;
      case 'left_lockup':
        if (me) me.inLockup = false;
        if (d.how === 'bail') pay(me, undefined, JAIL_BAIL);
        break;
      case 'trade_accepted': {
        const from = seatAt(d.from_agent_id);
        const to = seatAt(d.to_agent_id);
        pay(from, to, asNumber(d.offer_cash) ?? 0);
        pay(to, from, asNumber(d.request_cash) ?? 0);
        for (const i of numbersOf(d.offer_space_ids)) {
          const target = deed(i);
          if (target && to) target.owner = to.seat;
        }
        for (const i of numbersOf(d.request_space_ids)) {
          const target = deed(i);
          if (target && from) target.owner = from.seat;
        }
        break;
      }
      case 'management':
        for (const op of Array.isArray(d.operations) ? d.operations : []) {
          const o = asRecord(op) ?? {};
          const index = asNumber(o.space_id) ?? -1;
          const target = deed(index);
          if (!target) continue;
          const count = asNumber(o.count) ?? 1;
          const houseCost = space(index).houseCost ?? 0;
          if (o.action === 'build_house') {
            target.houses += count;
            pay(me, undefined, houseCost * count);
          } else if (o.action === 'sell_house') {
            target.houses -= count;
            pay(undefined, me, Math.floor(houseCost / 2) * count);
          } else if (o.action === 'mortgage') {
            target.mortgaged = true;
            pay(undefined, me, mortgageValue(index));
          } else if (o.action === 'unmortgage') {
            target.mortgaged = false;
            pay(me, undefined, unmortgageCost(index));
          }
        }
        break;
      case 'bankruptcy': {
        const creditor = seatAt(d.creditor_id);
        if (!me) break;
        for (const target of board.deeds) {
          if (target.owner !== me.seat) continue;
          // Buildings go back to the bank at half price before the deeds pass.
          pay(undefined, me, Math.floor(((space(target.space).houseCost ?? 0) * target.houses) / 2));
          target.houses = 0;
          target.owner = creditor?.seat ?? null;
          if (!creditor) target.mortgaged = false;
        }
        pay(me, creditor, me.cash);
        me.bankrupt = true;
        break;
      }
      case 'end_turn':
        board.turn = asNumber(d.turn_number);
        break;
      case 'game_over':
        board.over = {
          reason: typeof d.reason === 'string' ? d.reason : '',
          winner: d.winner_id == null ? null : clawName(ctx, d.winner_id),
        };
        break;
    }
  }
}

/** Net worth as the game's end counts it: cash, deeds at price (mortgaged at their mortgage value), houses at half. */
export function netWorth(board: MonopolyBoard, seat: number): number {
  let worth = board.seats[seat]?.cash ?? 0;
  for (const d of board.deeds) {
    if (d.owner !== seat) continue;
    worth += d.mortgaged ? mortgageValue(d.space) : (space(d.space).price ?? 0);
    worth += Math.floor(((space(d.space).houseCost ?? 0) * d.houses) / 2);
  }
  return worth;
}

export const monopolyBoard: BoardModel<MonopolyBoard> = {
  id: 'monopoly',
  board(lines, upto, ctx) {
    const board: MonopolyBoard = {
      turn: null,
      seats: ctx.seatAgents.map((_, seat) => ({ seat, position: 0, cash: START_CASH, inLockup: false, bankrupt: false })),
      deeds: SPACES.filter((s) => s.price !== null).map((s) => ({
        space: s.index,
        name: s.name,
        group: s.group ?? (s.type === 'railroad' || s.type === 'utility' ? s.type : null),
        owner: null,
        houses: 0,
        mortgaged: false,
      })),
      lastRoll: null,
      over: null,
    };
    deedsFrom(matchEvents(lines, upto), ctx, board);
    return board;
  },
  sentence(line, ctx) {
    if (line.channel !== 'match') return null;
    const d = dataOf(line);
    const who = clawName(ctx, d.agent_id, d.player_name ?? d.name);
    const spaces = (list: unknown) => (Array.isArray(list) && list.length > 0 ? list.join(', ') : null);
    switch (line.content) {
      case 'game_start':
        return `Clawpoly starts with ${Array.isArray(d.players) ? d.players.length : '?'} players.`;
      case 'opening_deal':
        return `${who} is dealt ${(Array.isArray(d.deeds) ? d.deeds : []).map((x) => asRecord(x)?.space_name).join(', ')}.`;
      case 'opening_deal_complete':
        return 'The opening deal is complete.';
      case 'roll':
        return `${who} rolls ${numbersOf(d.dice).join(' + ')} = ${d.total}${d.doubles === true ? ' (doubles)' : ''}.`;
      case 'landed':
        return `${who} lands on ${d.space_name}.`;
      case 'payment':
        return `${who} pays $${d.amount} to ${d.to_agent_id == null ? 'the bank' : clawName(ctx, d.to_agent_id)} (${String(d.reason ?? '').replace(/_/g, ' ')}).`;
      case 'passed_go':
        return `${who} passes Launch and collects $${d.amount}.`;
      case 'property_bought':
        return `${who} buys ${d.space_name} for $${d.price}.`;
      case 'property_declined':
        return `${who} declines to buy ${d.space_name ?? 'the deed'}.`;
      case 'card':
        return `${who} draws a ${d.deck === 'chance' ? 'Wild Card' : 'Supply Cache'} card: “${d.text}”`;
      case 'sent_to_lockup':
        return `${who} is sent to lockup.`;
      case 'left_lockup':
        return `${who} leaves lockup (${String(d.how ?? '').replace(/_/g, ' ')}).`;
      case 'end_turn':
        return `${who} ends turn ${d.turn_number}.`;
      case 'management':
        return `${who}: ${(Array.isArray(d.operations) ? d.operations : [])
          .map((op) => {
            const o = asRecord(op) ?? {};
            const name = SPACES[asNumber(o.space_id) ?? -1]?.name ?? `space ${o.space_id}`;
            return `${String(o.action).replace(/_/g, ' ')} ${name}${typeof o.count === 'number' && o.count > 1 ? ` ×${o.count}` : ''}`;
          })
          .join(', ')}.`;
      case 'trade_proposed':
      case 'trade_countered':
      case 'trade_accepted':
      case 'trade_rejected':
      case 'trade_failed': {
        const verb = line.content.replace('trade_', '');
        const give = [d.offer_cash ? `$${d.offer_cash}` : null, spaces(d.offer_spaces)].filter(Boolean).join(' + ') || 'nothing';
        const get = [d.request_cash ? `$${d.request_cash}` : null, spaces(d.request_spaces)].filter(Boolean).join(' + ') || 'nothing';
        return `Trade ${verb}: ${clawName(ctx, d.from_agent_id)} gives ${give} to ${clawName(ctx, d.to_agent_id)} for ${get}.`;
      }
      case 'debt':
        return `${who} owes $${d.amount ?? '?'} and must raise cash.`;
      case 'bankruptcy':
        return `${who} goes bankrupt to ${d.creditor_id == null ? 'the bank' : clawName(ctx, d.creditor_id)}.`;
      case 'game_over':
        return `The game is over (${String(d.reason ?? '').replace(/_/g, ' ')}): ${d.winner_id == null ? 'no winner' : `${clawName(ctx, d.winner_id)} wins`}.`;
      default:
        return runtimeSentence(line, ctx);
    }
  },
};
