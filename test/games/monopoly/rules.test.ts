// Clawpoly rules in isolation (spec §11.4): even building, batches, mortgages, rent, debt and bankruptcy to the bank
// and to a player, trades and counters, lockup, buying without auction, and the turn-limit net-worth end.
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../games/kit/game.js';
import { paramsHint, paramsSchema } from '../../../games/monopoly/actions.js';
import { advise } from '../../../games/monopoly/advice.js';
import { JAIL_INDEX, mortgageValue, unmortgageCost } from '../../../games/monopoly/board.js';
import { monopoly } from '../../../games/monopoly/rules.js';
import { netWorth } from '../../../games/monopoly/state.js';
import { moveBy, rentFor, rollDice } from '../../../games/monopoly/turn.js';
import { act, expectSound, give, refusal, table } from './helpers.js';

const LIGHT_BLUE = [6, 8, 9];

describe('building and selling', () => {
  it('builds evenly per property, refuses uneven steps, and sells evenly', () => {
    let s = table();
    give(s, 0, ...LIGHT_BLUE);
    expect(refusal(s, 0, 'build_house', { space_id: 6, count: 2 })).toBe('uneven_building');
    s = act(s, 0, 'build_house', { space_id: 6 });
    expect(refusal(s, 0, 'build_house', { space_id: 6 })).toBe('uneven_building');
    s = act(s, 0, 'manage_batch', {
      operations: [
        { action: 'build_house', space_id: 8, count: 1 },
        { action: 'build_house', space_id: 9 },
        { action: 'build_house', space_id: 6 },
      ],
    });
    expect(LIGHT_BLUE.map((i) => s.houses[i])).toEqual([2, 1, 1]);
    expect(s.cash[0]).toBe(1500 - 4 * 50);
    expect(refusal(s, 0, 'sell_house', { space_id: 8 })).toBe('uneven_selling');
    s = act(s, 0, 'sell_house', { space_id: 6 });
    expect(s.houses[6]).toBe(1);
    expect(s.cash[0]).toBe(1500 - 4 * 50 + 25);
    expectSound(s);
  });

  it('needs the full unmortgaged set and refuses a sixth unit', () => {
    let s = table();
    give(s, 0, 6, 8);
    expect(refusal(s, 0, 'build_house', { space_id: 6 })).toBe('incomplete_color_set');
    give(s, 1, 9);
    expect(refusal(s, 0, 'manage_batch', { operations: [{ action: 'build_house', space_id: 6 }] })).toBe('incomplete_color_set');
    s = table();
    give(s, 0, ...LIGHT_BLUE);
    s.mortgaged[9] = true;
    expect(refusal(s, 0, 'manage_batch', { operations: [{ action: 'build_house', space_id: 6 }] })).toBe('mortgaged_in_set');
    s.mortgaged[9] = false;
    s = act(s, 0, 'manage_batch', {
      operations: [
        { action: 'build_house', space_id: 6, count: 1 },
        { action: 'build_house', space_id: 8, count: 1 },
        { action: 'build_house', space_id: 9, count: 1 },
      ],
    });
    for (let k = 0; k < 4; k++) for (const i of LIGHT_BLUE) s = act(s, 0, 'build_house', { space_id: i });
    expect(LIGHT_BLUE.map((i) => s.houses[i])).toEqual([5, 5, 5]);
    expect(refusal(s, 0, 'manage_batch', { operations: [{ action: 'build_house', space_id: 6 }] })).toBe('max_improvements');
    // A hotel's rent is the sixth entry of the table.
    expect(rentFor(s, 9, 7)).toBe(600);
  });

  it('applies manage_batch atomically: one bad operation leaves everything unchanged', () => {
    const s = table();
    give(s, 0, ...LIGHT_BLUE, 1);
    const before = JSON.stringify(s);
    const r = monopoly.apply(
      s,
      0,
      'manage_batch',
      {
        operations: [
          { action: 'build_house', space_id: 6 },
          { action: 'build_house', space_id: 8 },
          { action: 'mortgage', space_id: 39 },
        ],
      },
      false,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'not_your_property', field: 'operations.2' });
    expect(JSON.stringify(s)).toBe(before);
    expect(refusal(s, 0, 'manage_batch', { operations: [] })).toBe('invalid_params');
    expect(refusal(s, 0, 'manage_batch', { operations: Array(13).fill({ action: 'mortgage', space_id: 1 }) })).toBe('invalid_params');
    expect(refusal(s, 0, 'manage_batch', { operations: [{ action: 'roll' }] })).toBe('invalid_params');
    // end_turn only last, and only once rolled.
    expect(refusal(s, 0, 'manage_batch', { operations: [{ action: 'mortgage', space_id: 1 }, { action: 'end_turn' }] })).toBe(
      'action_not_legal',
    );
    s.rolled = true;
    const ended = act(s, 0, 'manage_batch', { operations: [{ action: 'mortgage', space_id: 1 }, { action: 'end_turn' }] });
    expect(ended.mortgaged[1]).toBe(true);
    expect(ended.current).toBe(1);
    expect(ended.completedTurns).toBe(1);
  });
});

describe('mortgages and rent', () => {
  it('mortgages for half the price, lifts for principal + 10%, and collects no rent while mortgaged', () => {
    let s = table();
    give(s, 0, 39);
    s = act(s, 0, 'mortgage', { space_id: 39 });
    expect(s.cash[0]).toBe(1500 + 200);
    expect(rentFor(s, 39, 7)).toBe(0);
    expect(refusal(s, 0, 'mortgage', { space_id: 39 })).toBe('already_mortgaged');
    s = act(s, 0, 'unmortgage', { space_id: '39' });
    expect(unmortgageCost(39)).toBe(220);
    expect(s.cash[0]).toBe(1500 + 200 - 220);
    expect(rentFor(s, 39, 7)).toBe(50);
    expectSound(s);
  });

  it('refuses to mortgage a deed whose set carries buildings; a full unbuilt set doubles base rent', () => {
    let s = table();
    give(s, 0, ...LIGHT_BLUE);
    expect(rentFor(s, 6, 7)).toBe(12);
    s = act(s, 0, 'build_house', { space_id: 6 });
    expect(refusal(s, 0, 'mortgage', { space_id: 8 })).toBe('buildings_in_set');
    expect(rentFor(s, 6, 7)).toBe(30);
    expect(rentFor(s, 8, 7)).toBe(12);
  });

  it('charges railroads by count and utilities by the dice', () => {
    const s = table();
    give(s, 1, 5, 15, 25);
    expect(rentFor(s, 5, 7)).toBe(100);
    give(s, 1, 12);
    expect(rentFor(s, 12, 7)).toBe(28);
    give(s, 1, 28);
    expect(rentFor(s, 12, 7)).toBe(70);
  });
});

describe('debt and bankruptcy', () => {
  it('opens a debt the player can pay by mortgaging; the debt is then paid automatically', () => {
    let s = table();
    give(s, 1, 39);
    s.houses[39] = 0;
    give(s, 0, 37);
    s.cash[0] = 30;
    s.bankFlow = s.cash.reduce((a, b) => a + b, 0) - 1500 * 4;
    const events: GameEvent[] = [];
    s.position[0] = 35;
    moveBy(s, events, 4, 4);
    expect(s.phase).toBe('debt');
    expect(s.debt).toMatchObject({ creditor: 1, amount: 50 });
    expect([...monopoly.legalActions(s, 0).map((a) => a.action)]).toEqual(
      expect.arrayContaining(['mortgage', 'declare_bankruptcy', 'manage_batch']),
    );
    expect(refusal(s, 0, 'roll')).toBe('action_not_legal');
    // Advisor in debt: routine liquidation.
    expect(advise(s, 0)?.tier).toBe('routine');
    expect(monopoly.defaultMove(s, 0)).toEqual({ action: 'mortgage', params: { space_id: 37 } });
    s = act(s, 0, 'mortgage', { space_id: 37 });
    expect(s.phase).toBe('turn');
    expect(s.debt).toBeNull();
    expect(s.cash[0]).toBe(30 + mortgageValue(37) - 50);
    expect(s.cash[1]).toBe(1550);
    expectSound(s);
  });

  it('bankruptcy to a player hands over cash, deeds (mortgages kept) and lockup cards; buildings go to the bank at half', () => {
    let s = table();
    give(s, 1, 37, 39);
    for (const i of [37, 39]) s.houses[i] = 5;
    give(s, 0, 1, 3, 5);
    s.houses[1] = 1;
    s.houses[3] = 1;
    s.mortgaged[5] = true;
    s.jailCards[0] = 1;
    s.decks.chance = s.decks.chance.filter((id) => id !== 9);
    s.cash[0] = 40;
    s.bankFlow = s.cash.reduce((a, b) => a + b, 0) - 1500 * 4;
    s.position[0] = 35;
    moveBy(s, [], 4, 4);
    expect(s.debt).toMatchObject({ creditor: 1, amount: 2000 });
    s = act(s, 0, 'declare_bankruptcy');
    expect(s.bankrupt[0]).toBe(true);
    expect([1, 3, 5].map((i) => s.owner[i])).toEqual([1, 1, 1]);
    expect(s.mortgaged[5]).toBe(true);
    expect(s.houses[1]).toBe(0);
    expect(s.cash[1]).toBe(1500 + 40 + 25 + 25);
    expect(s.cash[0]).toBe(0);
    expect(s.jailCards[1]).toBe(1);
    expect(s.current).toBe(1);
    expect(s.bankruptcies).toEqual([{ agent_id: 100, creditor_id: 101, turn_number: 1 }]);
    expectSound(s);
  });

  it('bankruptcy to the bank returns the deeds unowned and unmortgaged; the last solvent player wins', () => {
    let s = table({}, 2);
    give(s, 0, 6);
    s.mortgaged[6] = true;
    s.cash[0] = 100;
    s.bankFlow = s.cash.reduce((a, b) => a + b, 0) - 1500 * 2;
    s.position[0] = 1;
    moveBy(s, [], 3, 3);
    expect(s.debt).toMatchObject({ creditor: null, amount: 200 });
    expect(monopoly.defaultMove(s, 0)).toEqual({ action: 'declare_bankruptcy', params: {} });
    s = act(s, 0, 'declare_bankruptcy');
    expect(s.owner[6]).toBeNull();
    expect(s.mortgaged[6]).toBe(false);
    expect(s.finished).toBe(true);
    expect(s.finishReason).toBe('last_solvent_player');
    expect(monopoly.outcome(s)).toEqual({ placements: [2, 1], winners: [1], reason: 'last_solvent_player' });
    expect(monopoly.window(s)).toBeNull();
    expectSound(s);
  });
});

describe('trades', () => {
  it('moves cash, deeds and lockup cards when accepted', () => {
    let s = table();
    give(s, 0, 6);
    give(s, 1, 8);
    s.jailCards[1] = 1;
    s.decks.chance = s.decks.chance.filter((id) => id !== 9);
    s = act(s, 0, 'propose_trade', {
      to_agent_id: 101,
      offer_cash: 50,
      offer_space_ids: [6],
      request_space_ids: [8],
      request_jail_cards: 1,
    });
    expect(s.phase).toBe('trade_response');
    expect(monopoly.window(s)).toMatchObject({ actors: [1], timeout: 'strategic' });
    expect(monopoly.legalActions(s, 0)).toEqual([]);
    expect(monopoly.legalActions(s, 1).map((a) => a.action)).toEqual([
      'accept_trade',
      'reject_trade',
      'reject_trade_for_turn',
      'counter_trade',
      'chat',
    ]);
    s = act(s, 1, 'accept_trade');
    expect([s.owner[6], s.owner[8]]).toEqual([1, 0]);
    expect([s.cash[0], s.cash[1]]).toEqual([1450, 1550]);
    expect([s.jailCards[0], s.jailCards[1]]).toEqual([1, 0]);
    expect(s.phase).toBe('turn');
    expect(s.current).toBe(0);
    expectSound(s);
  });

  it('refuses deeds whose set carries buildings, empty trades and unaffordable cash', () => {
    const s = table();
    give(s, 0, ...LIGHT_BLUE);
    s.houses[6] = 1;
    give(s, 1, 39);
    expect(refusal(s, 0, 'propose_trade', { to_agent_id: 101, offer_space_ids: [8], request_space_ids: [39] })).toBe('has_buildings');
    expect(refusal(s, 0, 'propose_trade', { to_agent_id: 101 })).toBe('empty_trade');
    expect(refusal(s, 0, 'propose_trade', { to_agent_id: 101, offer_cash: 5000 })).toBe('insufficient_cash');
    expect(refusal(s, 0, 'propose_trade', { to_agent_id: 100, offer_cash: 5 })).toBe('invalid_trade');
    expect(refusal(s, 0, 'propose_trade', { to_agent_id: 101, request_space_ids: [37] })).toBe('not_owned');
  });

  it('counters reverse the direction once; a counter that does not validate fails and ends the exchange', () => {
    let s = table();
    give(s, 0, 6);
    give(s, 1, 8);
    s = act(s, 0, 'propose_trade', { to_agent_id: 101, offer_cash: 10, request_space_ids: [8] });
    s = act(s, 1, 'counter_trade', { request_cash: 120, offer_space_ids: [8] });
    expect(s.trade).toMatchObject({ from: 1, to: 0, depth: 1, requestCash: 120, offerSpaces: [8] });
    expect(monopoly.window(s)?.actors).toEqual([0]);
    expect(monopoly.legalActions(s, 0).map((a) => a.action)).not.toContain('counter_trade');
    s = act(s, 0, 'accept_trade');
    expect(s.owner[8]).toBe(0);
    expect([s.cash[0], s.cash[1]]).toEqual([1380, 1620]);

    s = act(s, 0, 'propose_trade', { to_agent_id: 102, offer_space_ids: [6], request_cash: 100 });
    s = act(s, 2, 'counter_trade', { request_space_ids: [39], offer_cash: 10 });
    expect(s.trade).toBeNull();
    expect(s.phase).toBe('turn');
    expect(s.events.at(-1)).toMatchObject({ type: 'counter_failed' });
    expectSound(s);
  });

  it('reject_trade_for_turn blocks that proposer until the turn ends; at most three proposals a turn', () => {
    let s = table();
    give(s, 1, 8);
    give(s, 2, 9);
    s = act(s, 0, 'propose_trade', { to_agent_id: 101, offer_cash: 10, request_space_ids: [8] });
    s = act(s, 1, 'reject_trade_for_turn');
    expect(refusal(s, 0, 'propose_trade', { to_agent_id: 101, offer_cash: 20, request_space_ids: [8] })).toBe('trade_blocked');
    const hint: Record<string, unknown> = monopoly.legalActions(s, 0).find((a) => a.action === 'propose_trade')?.hint ?? {};
    expect((hint.possible_counterparties as { agent_id: number }[]).map((c) => c.agent_id)).toEqual([102, 103]);
    s = act(s, 0, 'propose_trade', { to_agent_id: 102, offer_cash: 10, request_space_ids: [9] });
    s = act(s, 2, 'reject_trade');
    s = act(s, 0, 'propose_trade', { to_agent_id: 102, offer_cash: 20, request_space_ids: [9] });
    s = act(s, 2, 'reject_trade');
    expect(monopoly.legalActions(s, 0).map((a) => a.action)).not.toContain('propose_trade');
    s.rolled = true;
    s = act(s, 0, 'end_turn');
    expect(s.tradeBlocks).toEqual([]);
  });
});

describe('lockup, doubles and buying', () => {
  /** Sets the step so that the next roll (apply counts the step first) shows doubles or not. */
  function nextRoll(s: ReturnType<typeof table>, doubles: boolean): [number, number] {
    for (let k = 0; k < 1000; k++) {
      s.step = k;
      const dice = rollDice({ ...s, step: k + 1 });
      if ((dice[0] === dice[1]) === doubles) return dice;
    }
    throw new Error('no such roll');
  }

  it('the lockup space sends the player to lockup; bail frees them before rolling', () => {
    let s = table();
    s.position[0] = 27;
    moveBy(s, [], 3, 3);
    expect([s.inJail[0], s.position[0], s.rolled]).toEqual([true, JAIL_INDEX, true]);
    // The next turn starts detained.
    s.rolled = false;
    expect(monopoly.legalActions(s, 0).map((a) => a.action)).toEqual(expect.arrayContaining(['roll', 'pay_bail']));
    s = act(s, 0, 'pay_bail');
    expect([s.inJail[0], s.cash[0]]).toEqual([false, 1450]);
    expectSound(s);
  });

  it('forces the player out after the third failed roll, paying the bail, and three doubles lead to lockup', () => {
    let s = table();
    s.inJail[0] = true;
    s.position[0] = JAIL_INDEX;
    s.jailRolls[0] = 2;
    const dice = nextRoll(s, false);
    s = act(s, 0, 'roll');
    expect(s.inJail[0]).toBe(false);
    expect(s.position[0]).toBe(JAIL_INDEX + dice[0] + dice[1]);
    expect(s.events.some((e) => e.type === 'left_lockup' && e.how === 'forced_bail')).toBe(true);

    s = table();
    s.doubles = 2;
    nextRoll(s, true);
    s = act(s, 0, 'roll');
    expect([s.inJail[0], s.position[0], s.rolled]).toEqual([true, JAIL_INDEX, true]);
  });

  it('doubles grant another roll', () => {
    let s = table({ max_turns: 50 });
    nextRoll(s, true);
    s = act(s, 0, 'roll');
    if (s.phase === 'buy') s = act(s, 0, 'decline_property');
    expect(s.rolled).toBe(false);
    expect(s.extraRoll).toBe(true);
  });

  it('declining a deed starts no auction; buying pays face value', () => {
    let s = table();
    s.position[0] = 36;
    moveBy(s, [], 3, 3);
    expect(s.phase).toBe('buy');
    expect(s.pendingSpace).toBe(39);
    const declined = act(s, 0, 'decline_property');
    expect([declined.owner[39], declined.phase, declined.cash[0]]).toEqual([null, 'turn', 1500]);
    expect(monopoly.project(declined, 0).auction_state).toBeNull();
    s = act(s, 0, 'buy_property');
    expect([s.owner[39], s.cash[0]]).toEqual([0, 1100]);
    expectSound(s);
  });
});

describe('the end, the advisor and the wire', () => {
  it('ends after the turn limit and ranks by net worth, then cash, then seat', () => {
    let s = table({ max_turns: 6 });
    for (let i = 0; i < 500 && !s.finished; i++) {
      const seat = monopoly.window(s)?.waiting[0] as number;
      const move = monopoly.defaultMove(s, seat);
      s = act(s, seat, move.action, move.params);
      expectSound(s);
    }
    expect(s.finishReason).toBe('turn_limit');
    expect(s.completedTurns).toBe(6);
    const worth = [0, 1, 2, 3].map((i) => netWorth(s, i));
    const placements = monopoly.outcome(s)?.placements as number[];
    for (let a = 0; a < 4; a++)
      for (let b = 0; b < 4; b++) if ((worth[a] ?? 0) > (worth[b] ?? 0)) expect(placements[a]).toBeLessThan(placements[b] as number);
  });

  it('computes net worth as cash + unmortgaged price + mortgage value + half the house cost per unit', () => {
    const s = table();
    give(s, 0, ...LIGHT_BLUE, 5);
    s.houses = s.houses.map((h, i) => (LIGHT_BLUE.includes(i) ? 5 : h));
    s.mortgaged[5] = true;
    expect(netWorth(s, 0)).toBe(1500 + 100 + 100 + 120 + 3 * 5 * 25 + 100);
  });

  it('derives params hints and params_schema from one zod schema; integer strings are accepted', () => {
    expect(paramsHint('build_house')).toEqual({ space_id: 'board index', count: 'int >= 1', message: 'string (optional, max 140 chars)' });
    expect(paramsSchema('build_house')).toMatchObject({ type: 'object', required: ['space_id'], additionalProperties: false });
    expect(Object.keys(paramsHint('propose_trade'))).toEqual([
      'to_agent_id',
      'offer_cash',
      'offer_space_ids',
      'offer_jail_cards',
      'request_cash',
      'request_space_ids',
      'request_jail_cards',
      'message',
    ]);
    const s = table();
    give(s, 0, 39);
    expect(act(s, 0, 'mortgage', { space_id: '39' }).mortgaged[39]).toBe(true);
    expect(refusal(s, 0, 'mortgage', { space_id: 39, extra: 1 })).toBe('invalid_params');
    expect(refusal(s, 0, 'fly')).toBe('unknown_action');
    expect(refusal(s, 1, 'roll')).toBe('not_your_turn');
  });

  it('the advisor tier sets the window deadline class and its recommendation is always legal', () => {
    const s = table();
    const advice = advise(s, 0);
    expect(advice?.recommended).toEqual({ action: 'roll', params: {} });
    expect(advice?.tier).toBe('routine');
    expect(monopoly.window(s)).toMatchObject({ timeout: 'routine', actors: [0] });
    expect(monopoly.timeouts).toEqual({ routine: 1000, tactical: 45000, strategic: 60000 });
    give(s, 0, ...LIGHT_BLUE);
    expect(advise(s, 0)?.recommended.action).toBe('manage_batch');
    expect(monopoly.window(s)?.timeout).not.toBe('routine');
    s.position[0] = 36;
    moveBy(s, [], 3, 3);
    expect(monopoly.window(s)?.timeout).toBe('tactical');
    expect(advise(s, 0)?.recommended.action).toBe('buy_property');
  });
});
