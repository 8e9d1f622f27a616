// The turn machine: dice, movement, landing (rent, tax, cards, lockup), debt and bankruptcy, the end of a turn and of
// the match (last solvent player, or net worth after the turn limit).
import { createRng } from '../../engine/core/rng.js';
import type { GameEvent } from '../kit/game.js';
import {
  BOARD_SIZE,
  GO_TO_JAIL_INDEX,
  groupMembers,
  HOTEL,
  isDeed,
  JAIL_BAIL,
  JAIL_INDEX,
  MAX_JAIL_ROLLS,
  PASS_GO_CASH,
  RAIL_RENT,
  space,
} from './board.js';
import { DECKS, type DeckName } from './cards.js';
import { activeSeats, agentOf, log, type MonopolyState, netWorth, ownsFullSet, transfer } from './state.js';

export function rollDice(state: MonopolyState): [number, number] {
  const rng = createRng(`${state.seed}:monopoly:dice:${state.step}`);
  return [rng.nextInt(1, 6), rng.nextInt(1, 6)];
}

/** Rent owed on landing at `index` (0 if unowned, own, or mortgaged). */
export function rentFor(state: MonopolyState, index: number, diceTotal: number, multiplier = 1): number {
  const owner = state.owner[index];
  if (owner === null || owner === undefined || state.mortgaged[index]) return 0;
  const s = space(index);
  if (s.type === 'railroad') {
    const rails = [5, 15, 25, 35].filter((i) => state.owner[i] === owner).length;
    return (RAIL_RENT[rails] ?? 0) * multiplier;
  }
  if (s.type === 'utility') {
    const both = state.owner[12] === owner && state.owner[28] === owner;
    return diceTotal * (multiplier > 1 ? 10 : both ? 10 : 4);
  }
  const houses = state.houses[index] ?? 0;
  const base = s.rents?.[houses] ?? 0;
  if (houses === 0 && s.group && ownsFullSet(state, owner, s.group) && groupMembers(s.group).every((i) => !state.mortgaged[i]))
    return base * 2;
  return base;
}

function sendToJail(state: MonopolyState, events: GameEvent[], why: string): void {
  const seat = state.current;
  state.position[seat] = JAIL_INDEX;
  state.inJail[seat] = true;
  state.jailRolls[seat] = 0;
  state.extraRoll = false;
  state.rolled = true;
  log(state, events, { type: 'sent_to_lockup', agent_id: agentOf(state, seat), reason: why });
}

/** Charges the current seat; opens the debt phase when cash does not cover it. */
export function charge(state: MonopolyState, events: GameEvent[], amount: number, creditor: number | null, reason: string): void {
  const seat = state.current;
  if (amount <= 0) return;
  if ((state.cash[seat] ?? 0) >= amount) {
    transfer(state, seat, creditor, amount);
    log(state, events, {
      type: 'payment',
      agent_id: agentOf(state, seat),
      amount,
      to_agent_id: creditor === null ? null : agentOf(state, creditor),
      reason,
    });
    return;
  }
  state.debt = { creditor, amount, reason };
  state.phase = 'debt';
  log(state, events, {
    type: 'debt',
    agent_id: agentOf(state, seat),
    amount,
    to_agent_id: creditor === null ? null : agentOf(state, creditor),
    reason,
  });
}

/** Pays the debt once cash covers it and returns to the turn. */
export function settleDebtIfPossible(state: MonopolyState, events: GameEvent[]): void {
  const debt = state.debt;
  if (!debt || (state.cash[state.current] ?? 0) < debt.amount) return;
  state.debt = null;
  state.phase = 'turn';
  charge(state, events, debt.amount, debt.creditor, debt.reason);
  if (state.pendingMove !== null) {
    const steps = state.pendingMove;
    state.pendingMove = null;
    moveBy(state, events, steps, state.lastRoll ? state.lastRoll[0] + state.lastRoll[1] : steps);
  }
}

function moveTo(state: MonopolyState, events: GameEvent[], to: number, diceTotal: number, passGo: boolean, multiplier = 1): void {
  const seat = state.current;
  const from = state.position[seat] ?? 0;
  if (passGo && to < from) {
    transfer(state, null, seat, PASS_GO_CASH);
    log(state, events, { type: 'passed_go', agent_id: agentOf(state, seat), amount: PASS_GO_CASH });
  }
  state.position[seat] = to;
  land(state, events, diceTotal, multiplier);
}

export function moveBy(state: MonopolyState, events: GameEvent[], steps: number, diceTotal: number): void {
  const from = state.position[state.current] ?? 0;
  moveTo(state, events, (from + steps) % BOARD_SIZE, diceTotal, true);
}

function land(state: MonopolyState, events: GameEvent[], diceTotal: number, multiplier: number): void {
  const seat = state.current;
  const at = state.position[seat] ?? 0;
  const s = space(at);
  log(state, events, { type: 'landed', agent_id: agentOf(state, seat), position: at, space_name: s.name });
  if (s.type === 'go_to_jail') {
    sendToJail(state, events, 'go_to_lockup_space');
    return;
  }
  if (s.type === 'tax') {
    charge(state, events, s.tax ?? 0, null, s.name);
    return;
  }
  if (s.type === 'chance' || s.type === 'community_chest') {
    drawCard(state, events, s.type, diceTotal);
    return;
  }
  if (!isDeed(at)) return;
  const owner = state.owner[at];
  if (owner === null || owner === undefined) {
    state.pendingSpace = at;
    state.phase = 'buy';
    return;
  }
  if (owner === seat || state.bankrupt[owner]) return;
  const rent = rentFor(state, at, diceTotal, multiplier);
  charge(state, events, rent, owner, `rent:${s.name}`);
}

function drawCard(state: MonopolyState, events: GameEvent[], deck: DeckName, diceTotal: number): void {
  const seat = state.current;
  const pile = state.decks[deck];
  const id = pile.shift() as number;
  const def = DECKS[deck][id];
  if (!def) return;
  // The lockup card leaves the deck while someone holds it; everything else goes to the bottom.
  if (def.card.kind !== 'jail_card') pile.push(id);
  log(state, events, { type: 'card', agent_id: agentOf(state, seat), deck, text: def.text });
  const card = def.card;
  switch (card.kind) {
    case 'move_to':
      moveTo(state, events, card.to, diceTotal, true);
      return;
    case 'nearest': {
      const targets = card.target === 'railroad' ? [5, 15, 25, 35] : [12, 28];
      const from = state.position[seat] ?? 0;
      const to = targets.find((t) => t > from) ?? (targets[0] as number);
      moveTo(state, events, to, diceTotal, true, 2);
      return;
    }
    case 'back': {
      const to = ((state.position[seat] ?? 0) - card.steps + BOARD_SIZE) % BOARD_SIZE;
      moveTo(state, events, to, diceTotal, false);
      return;
    }
    case 'jail':
      sendToJail(state, events, 'card');
      return;
    case 'cash':
      if (card.amount > 0) transfer(state, null, seat, card.amount);
      else charge(state, events, -card.amount, null, 'card');
      return;
    case 'each_player': {
      const others = activeSeats(state).filter((s) => s !== seat);
      if (card.amount > 0) {
        // Project decision: a player short of cash pays what cash it has (no debt opens outside one's own turn).
        for (const o of others) transfer(state, o, seat, Math.min(card.amount, state.cash[o] ?? 0));
        return;
      }
      const each = -card.amount;
      if ((state.cash[seat] ?? 0) >= each * others.length) {
        for (const o of others) transfer(state, seat, o, each);
        return;
      }
      // Short of cash: the whole sum is owed to the bank (which then pays nobody), as a single debt.
      charge(state, events, each * others.length, null, 'card:pay_each_player');
      return;
    }
    case 'repairs': {
      let cost = 0;
      for (const [i, o] of state.owner.entries()) {
        if (o !== seat) continue;
        const h = state.houses[i] ?? 0;
        cost += h === HOTEL ? card.hotel : h * card.house;
      }
      charge(state, events, cost, null, 'card:repairs');
      return;
    }
    case 'jail_card':
      state.jailCards[seat] = (state.jailCards[seat] ?? 0) + 1;
      return;
  }
}

export function doRoll(state: MonopolyState, events: GameEvent[]): void {
  const seat = state.current;
  const dice = rollDice(state);
  const total = dice[0] + dice[1];
  const doubles = dice[0] === dice[1];
  state.lastRoll = dice;
  state.rolled = true;
  state.extraRoll = false;
  log(state, events, { type: 'roll', agent_id: agentOf(state, seat), dice, total, doubles });
  if (state.inJail[seat]) {
    if (doubles) {
      state.inJail[seat] = false;
      state.jailRolls[seat] = 0;
      log(state, events, { type: 'left_lockup', agent_id: agentOf(state, seat), how: 'doubles' });
      moveBy(state, events, total, total);
      return;
    }
    state.jailRolls[seat] = (state.jailRolls[seat] ?? 0) + 1;
    if ((state.jailRolls[seat] ?? 0) < MAX_JAIL_ROLLS) return;
    // Third failed roll: forced out, paying the bail, then the move.
    state.inJail[seat] = false;
    state.jailRolls[seat] = 0;
    log(state, events, { type: 'left_lockup', agent_id: agentOf(state, seat), how: 'forced_bail' });
    charge(state, events, JAIL_BAIL, null, 'lockup_bail');
    if (state.phase === 'debt') {
      state.pendingMove = total;
      return;
    }
    moveBy(state, events, total, total);
    return;
  }
  if (doubles) {
    state.doubles += 1;
    if (state.doubles >= 3) {
      sendToJail(state, events, 'three_doubles');
      return;
    }
    state.rolled = false;
    state.extraRoll = true;
  }
  moveBy(state, events, total, total);
  // Lockup during the move (card or space) ends the doubles chain.
  if (state.inJail[seat]) {
    state.rolled = true;
    state.extraRoll = false;
  }
}

export function payBail(state: MonopolyState, events: GameEvent[], card: boolean): void {
  const seat = state.current;
  if (card) {
    state.jailCards[seat] = (state.jailCards[seat] ?? 0) - 1;
    // The card goes back under whichever deck is short of its lockup card.
    const deck: DeckName = state.decks.chance.length < 16 ? 'chance' : 'community_chest';
    const id = DECKS[deck].findIndex((c) => c.card.kind === 'jail_card');
    state.decks[deck].push(id);
  } else {
    transfer(state, seat, null, JAIL_BAIL);
  }
  state.inJail[seat] = false;
  state.jailRolls[seat] = 0;
  log(state, events, { type: 'left_lockup', agent_id: agentOf(state, seat), how: card ? 'card' : 'bail' });
}

/** Bankruptcy: to a creditor player everything passes (buildings sold to the bank at half first); to the bank deeds return unowned. */
export function declareBankruptcy(state: MonopolyState, events: GameEvent[]): void {
  const seat = state.current;
  const creditor = state.debt?.creditor ?? null;
  for (const [i, o] of state.owner.entries()) {
    if (o !== seat) continue;
    const h = state.houses[i] ?? 0;
    if (h > 0) transfer(state, null, seat, Math.floor(((space(i).houseCost ?? 0) * h) / 2));
    state.houses[i] = 0;
    state.owner[i] = creditor;
    if (creditor === null) state.mortgaged[i] = false;
    state.propertyChanges.push({ space_id: i, from: seat, to: creditor, how: 'bankruptcy', turn_number: state.turnNumber });
  }
  transfer(state, seat, creditor, state.cash[seat] ?? 0);
  if (creditor !== null) state.jailCards[creditor] = (state.jailCards[creditor] ?? 0) + (state.jailCards[seat] ?? 0);
  else {
    // Returned lockup cards go back under their decks.
    for (let k = 0; k < (state.jailCards[seat] ?? 0); k++) {
      const deck: DeckName = state.decks.chance.length < 16 ? 'chance' : 'community_chest';
      state.decks[deck].push(DECKS[deck].findIndex((c) => c.card.kind === 'jail_card'));
    }
  }
  state.jailCards[seat] = 0;
  state.bankrupt[seat] = true;
  state.inJail[seat] = false;
  state.debt = null;
  state.pendingMove = null;
  state.bankruptcies.push({
    agent_id: agentOf(state, seat),
    creditor_id: creditor === null ? null : agentOf(state, creditor),
    turn_number: state.turnNumber,
  });
  log(state, events, {
    type: 'bankruptcy',
    agent_id: agentOf(state, seat),
    creditor_id: creditor === null ? null : agentOf(state, creditor),
  });
  if (activeSeats(state).length <= 1) {
    finish(state, events, 'last_solvent_player');
    return;
  }
  endTurn(state, events);
}

/** Ranks by net worth, then cash, then seat (spec §11.4). */
export function ranking(state: MonopolyState): number[] {
  return state.seats
    .map((_, i) => i)
    .sort((a, b) => {
      if (state.bankrupt[a] !== state.bankrupt[b]) return state.bankrupt[a] ? 1 : -1;
      return netWorth(state, b) - netWorth(state, a) || (state.cash[b] ?? 0) - (state.cash[a] ?? 0) || a - b;
    });
}

export function finish(state: MonopolyState, events: GameEvent[], reason: string): void {
  state.finished = true;
  state.phase = 'finished';
  state.finishReason = reason;
  state.winner = ranking(state)[0] ?? null;
  log(state, events, {
    type: 'game_over',
    reason,
    winner_id: state.winner === null ? null : agentOf(state, state.winner),
    net_worth: Object.fromEntries(state.seats.map((s, i) => [String(s.agentId), netWorth(state, i)])),
  });
}

export function endTurn(state: MonopolyState, events: GameEvent[]): void {
  if (!state.bankrupt[state.current])
    log(state, events, { type: 'end_turn', agent_id: agentOf(state, state.current), turn_number: state.turnNumber });
  state.completedTurns += 1;
  if (state.completedTurns >= state.maxTurns) {
    finish(state, events, 'turn_limit');
    return;
  }
  const n = state.seats.length;
  let next = state.current;
  for (let k = 0; k < n; k++) {
    next = (next + 1) % n;
    if (!state.bankrupt[next]) break;
  }
  state.current = next;
  state.turnNumber += 1;
  state.phase = 'turn';
  state.rolled = false;
  state.doubles = 0;
  state.extraRoll = false;
  state.pendingSpace = null;
  state.trade = null;
  state.tradeBlocks = [];
  state.tradesThisTurn = 0;
}

export { GO_TO_JAIL_INDEX };
