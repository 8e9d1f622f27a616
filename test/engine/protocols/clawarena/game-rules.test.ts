// Game rules in isolation (std modules): scoring details, defaults, privacy of projections, and random full games.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../../engine/core/rng.js';
import { GAMES } from '../../../../games/index.js';
import { deepFreeze, type GameRules, type JsonObject, type Seat } from '../../../../games/kit/game.js';
import { mostRolledFace } from '../../../../games/las-vegas/rounds.js';
import { lasVegas } from '../../../../games/las-vegas/rules.js';
import { BILL_DECK, dealCasinos, settleCasino, type VegasState } from '../../../../games/las-vegas/state.js';
import { countMatching, faceRank, isHigherBid, type LiarsDiceState, liarsDice, minimumRaise } from '../../../../games/liars-dice/rules.js';
import { chooseKill } from '../../../../games/mafia/phases.js';
import { mafia } from '../../../../games/mafia/rules.js';
import type { MafiaState } from '../../../../games/mafia/state.js';

const seats = (n: number): Seat[] => Array.from({ length: n }, (_, i) => ({ agentId: 100 + i, name: `p${i}` }));

/** Plays a game to the end with moves drawn from the legal actions (random targets, server fallbacks otherwise). */
// biome-ignore lint/suspicious/noExplicitAny: generic over each game's private state type
function playOut(game: GameRules<any>, n: number, seed: string, options: JsonObject = {}) {
  let { state } = game.setup(seats(n), seed, options);
  const rng = createRng(`play:${seed}`);
  let steps = 0;
  for (; steps < 2000; steps++) {
    const window = game.window(state);
    if (!window) break;
    for (let seat = 0; seat < n; seat++) {
      const legal = game.legalActions(state, seat);
      // Legal actions exist exactly for the seats the window waits on.
      expect(legal.length > 0).toBe(window.waiting.includes(seat));
    }
    const seat = rng.pick(window.waiting);
    const legal = game.legalActions(state, seat);
    const action = rng.pick(legal);
    let params: Record<string, unknown> = { ...action.hint.server_fallback.params };
    const targets = (action.hint.targets ?? action.hint.candidates) as { agent_id: number }[] | undefined;
    if (targets && targets.length > 0 && rng.next() < 0.7) params = { target_id: rng.pick(targets).agent_id };
    if (action.action === 'place') params = { face: rng.pick((action.hint.faces_available as { face: number }[]).map((f) => f.face)) };
    if (action.action === 'chat') params = { message: `hello from ${seat}` };
    const result = game.apply(state, seat, action.action, params, false);
    if (!result.ok)
      throw new Error(`${game.gameType} rejected its own legal move ${action.action} ${JSON.stringify(params)}: ${result.error.message}`);
    state = result.state;
  }
  return { state, steps, outcome: game.outcome(state) };
}

describe("Liar's Dice rules", () => {
  it('orders faces 2 < 3 < 4 < 5 < 6 < 1 and requires strictly higher bids', () => {
    expect([2, 3, 4, 5, 6, 1].map(faceRank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(isHigherBid(3, 4, { quantity: 3, face: 3 })).toBe(true);
    expect(isHigherBid(3, 2, { quantity: 3, face: 6 })).toBe(false);
    expect(isHigherBid(3, 1, { quantity: 3, face: 6 })).toBe(true);
    expect(isHigherBid(4, 2, { quantity: 3, face: 1 })).toBe(true);
    expect(minimumRaise(null, 10)).toEqual({ quantity: 1, face: 2 });
    expect(minimumRaise({ quantity: 4, face: 6 }, 10)).toEqual({ quantity: 4, face: 1 });
    expect(minimumRaise({ quantity: 4, face: 1 }, 10)).toEqual({ quantity: 5, face: 2 });
    expect(minimumRaise({ quantity: 10, face: 1 }, 10)).toBeNull();
  });

  it('counts ones as wild except for bids on face 1', () => {
    const dice = [
      [1, 1, 3, 3, 6],
      [3, 1, 2, 5, 5],
    ];
    expect(countMatching(dice, 3)).toBe(6);
    expect(countMatching(dice, 1)).toBe(3);
    expect(countMatching(dice, 4)).toBe(3);
  });

  it('resolves a challenge: a true bid makes the challenger lose', () => {
    const { state } = liarsDice.setup(seats(2), 'fixed', {});
    const s: LiarsDiceState = {
      ...state,
      dice: [
        [2, 2, 1, 4, 4],
        [2, 3, 3, 6, 6],
      ],
      turn: 0,
      firstPlayer: 0,
    };
    const bid = liarsDice.apply(s, 0, 'bid', { quantity: 4, face: 2 }, false);
    if (!bid.ok) throw new Error(bid.error.message);
    const challenge = liarsDice.apply(bid.state, 1, 'challenge', {}, false);
    if (!challenge.ok) throw new Error(challenge.error.message);
    expect(liarsDice.outcome(challenge.state)).toEqual({ placements: [1, 2], winners: [0], reason: 'challenge_resolved' });
    expect(liarsDice.window(challenge.state)).toBeNull();
    const view = liarsDice.project(challenge.state, 1);
    expect(view.revealed_dice).toEqual({ '100': [2, 2, 1, 4, 4], '101': [2, 3, 3, 6, 6] });
  });

  it('reports game-specific rejections with their codes', () => {
    const { state } = liarsDice.setup(seats(2), 'codes', {});
    const seat = state.turn;
    const reject = (action: string, params: Record<string, unknown>) => {
      const r = liarsDice.apply(state, seat, action, params, false);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(reject('challenge', {})).toBe('nothing_to_challenge');
    expect(reject('bid', { quantity: 'many', face: 3 })).toBe('invalid_params');
    expect(reject('bid', { quantity: 11, face: 3 })).toBe('invalid_bid');
    expect(reject('bid', { quantity: 2, face: 7 })).toBe('invalid_bid');
    expect(reject('bid', { quantity: 2, face: 3, message: 'x'.repeat(141) })).toBe('invalid_params');
    expect(reject('bid', { quantity: 2, face: 3, message: 'x'.repeat(140) })).toBe('ok');
    const first = liarsDice.apply(state, seat, 'bid', { quantity: 3, face: 5 }, false);
    if (!first.ok) throw new Error('bid refused');
    const lower = liarsDice.apply(first.state, 1 - seat, 'bid', { quantity: 3, face: 4 }, false);
    expect(lower.ok ? 'ok' : lower.error.code).toBe('bid_not_higher');
  });

  it('shows only the seat its own dice while the hand runs, and hints as the fixtures do', () => {
    const { state } = liarsDice.setup(seats(2), 'privacy', {});
    const other = 1 - state.turn;
    const view = liarsDice.project(state, other);
    expect(view.your_dice).toEqual(state.dice[other]);
    expect(JSON.stringify(view)).not.toContain('revealed_dice');
    expect(JSON.stringify(liarsDice.spectate(state))).not.toContain(JSON.stringify(state.dice[0]));
    const [opening] = liarsDice.legalActions(state, state.turn);
    expect(opening?.action).toBe('bid');
    expect(opening?.hint.min).toEqual({ quantity: 1, face: 2 });
    const ceiling: LiarsDiceState = { ...state, bids: [{ seat: other, quantity: 10, face: 3, message: null, auto: false }] };
    const actions = liarsDice.legalActions(ceiling, state.turn);
    expect(actions.map((a) => a.action)).toEqual(['challenge', 'bid']);
    expect(actions[1]?.hint.same_face_raise).toBeUndefined();
  });

  it('defaults to the opening bid 1 x 2, then to a challenge', () => {
    const { state } = liarsDice.setup(seats(2), 'defaults', {});
    expect(liarsDice.defaultMove(state, state.turn)).toEqual({ action: 'bid', params: { quantity: 1, face: 2 } });
    const bid = liarsDice.apply(state, state.turn, 'bid', { quantity: 1, face: 2 }, false);
    if (!bid.ok) throw new Error('bid refused');
    expect(liarsDice.defaultMove(bid.state, bid.state.turn)).toEqual({ action: 'challenge', params: {} });
  });
});

describe('Claw Vegas rules', () => {
  it('uses the 54-bill deck and deals every casino at least $50,000', () => {
    expect(BILL_DECK).toHaveLength(54);
    expect(BILL_DECK.reduce((a, b) => a + b, 0)).toBe(2_500_000);
    for (let round = 1; round <= 4; round++) {
      const casinos = dealCasinos('deal', round);
      expect(casinos).toHaveLength(6);
      for (const bills of casinos) expect(bills.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(50_000);
    }
  });

  it('settles casinos: equal counts cancel, survivors take bills from the top, leftovers are discarded', () => {
    const r = settleCasino([90_000, 30_000, 10_000], [3, 3, 2, 1]);
    expect(r.cancelled).toEqual([0, 1]);
    expect([...r.payouts]).toEqual([
      [2, 90_000],
      [3, 30_000],
    ]);
    expect(r.discarded).toEqual([10_000]);
    expect([...settleCasino([60_000], [2, 0, 1, 0]).payouts]).toEqual([[0, 60_000]]);
  });

  it('defaults to the most-rolled face, ties toward the higher face', () => {
    expect(mostRolledFace([1, 2, 2, 5, 5, 6])).toBe(5);
    expect(mostRolledFace([3])).toBe(3);
  });

  it('leaves the actor out of casino_dice_by_player and rotates the start player each round', () => {
    const { state } = lasVegas.setup(seats(4), 'hints', {});
    const s = state as VegasState;
    const actor = s.current as number;
    s.casinos.forEach((c) => {
      c.dice[actor] = 2;
      c.dice[(actor + 1) % 4] = 1;
    });
    const [place] = lasVegas.legalActions(s, actor);
    for (const f of (place?.hint.faces_available ?? []) as {
      casino_dice_by_player: Record<string, number>;
      your_dice_already_there: number;
    }[]) {
      expect(Object.keys(f.casino_dice_by_player)).toEqual([`p${(actor + 1) % 4}`]);
      expect(f.your_dice_already_there).toBe(2);
    }
    const { state: end } = playOut(lasVegas, 4, 'rotation');
    expect(end.settlements).toHaveLength(4);
  });

  it('allows 3 to 5 players and ranks by money, then bills won, then slot', () => {
    for (const n of [3, 4, 5]) {
      const { outcome, state } = playOut(lasVegas, n, `size-${n}`);
      expect(outcome?.placements.slice().sort()).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      const winner = outcome?.winners[0] as number;
      for (let i = 0; i < n; i++)
        expect((state as VegasState).money[winner]).toBeGreaterThanOrEqual((state as VegasState).money[i] as number);
    }
    expect(() => lasVegas.setup(seats(2), 'x', {})).toThrow();
  });
});

describe('Mafia rules', () => {
  it('gives the kill to the plurality target, ties to the earliest pick', () => {
    expect(
      chooseKill([
        { target: 3, order: 0 },
        { target: 4, order: 1 },
      ]),
    ).toBe(3);
    expect(
      chooseKill([
        { target: 4, order: 1 },
        { target: 3, order: 0 },
      ]),
    ).toBe(3);
    expect(
      chooseKill([
        { target: 4, order: 0 },
        { target: 5, order: 1 },
        { target: 5, order: 2 },
      ]),
    ).toBe(5);
    expect(chooseKill([{ target: null, order: 0 }])).toBeNull();
  });

  it('deals two mafia, a doctor, a detective and two citizens; only mafia see each other', () => {
    const { state } = mafia.setup(seats(6), 'roles', {});
    const s = state as MafiaState;
    expect([...s.roles].sort()).toEqual(['citizen', 'citizen', 'detective', 'doctor', 'mafia', 'mafia']);
    for (let seat = 0; seat < 6; seat++) {
      const view = mafia.project(s, seat);
      const roles = (view.players as { role: string }[]).map((p) => p.role);
      expect(roles.every((r) => r === 'hidden')).toBe(true);
      expect('fellow_mafia' in view).toBe(s.roles[seat] === 'mafia');
      expect(view.my_role).toBe(s.roles[seat]);
    }
    expect(mafia.window(s)).toMatchObject({ kind: 'barrier', key: 'night:1', timeout: 'night' });
  });

  it('uses per-match aliases as target ids and forbids self-votes', () => {
    const { state } = mafia.setup(seats(6), 'aliases', {});
    const s = state as MafiaState;
    const killer = s.roles.indexOf('mafia');
    const [night] = mafia.legalActions(s, killer);
    const targets = ((night?.hint.targets ?? []) as { agent_id: number }[]).map((t) => t.agent_id);
    expect(targets).not.toContain(killer + 1);
    expect(targets.every((t) => t >= 1 && t <= 6)).toBe(true);
    const doctor = s.roles.indexOf('doctor');
    expect(((mafia.legalActions(s, doctor)[0]?.hint.targets ?? []) as { agent_id: number }[]).map((t) => t.agent_id)).toContain(doctor + 1);
    const wrong = mafia.apply(s, killer, 'night_action', { target_id: 100 + ((killer + 1) % 6) }, false);
    expect(wrong.ok ? 'ok' : wrong.error.code).toBe('invalid_params');
    const citizen = s.roles.indexOf('citizen');
    expect(mafia.legalActions(s, citizen)).toEqual([]);
  });

  it('runs a tied vote into a runoff without null or self-votes, and a runoff tie eliminates nobody', () => {
    const { state } = mafia.setup(seats(6), 'runoff', {});
    let s = state as MafiaState;
    // Reach the day vote with nobody dead: every night actor abstains (the timeout default).
    for (const seat of mafia.window(s)?.waiting ?? []) {
      const r = mafia.apply(s, seat, 'no_action', {}, true);
      if (!r.ok) throw new Error(r.error.message);
      s = r.state;
    }
    while (s.phase === 'discuss') {
      const speaker = mafia.window(s)?.actors[0] as number;
      const r = mafia.apply(s, speaker, 'chat', { message: 'hi' }, false);
      if (!r.ok) throw new Error(r.error.message);
      s = r.state;
    }
    expect(s.phase).toBe('vote');
    // Seats 0-2 vote for alias 5 (seat 4), seats 3-5 for alias 1 (seat 0): a tie.
    for (let seat = 0; seat < 6; seat++) {
      const r = mafia.apply(s, seat, 'vote', { target_id: seat < 3 ? 5 : 1 }, false);
      if (!r.ok) throw new Error(`${seat}: ${r.error.message}`);
      s = r.state;
    }
    expect(s.phase).toBe('discuss');
    expect(s.runoff).toBe(true);
    expect(s.runoffCandidates).toEqual([0, 4]);
    while (s.phase === 'discuss') {
      const speaker = mafia.window(s)?.actors[0] as number;
      const r = mafia.apply(s, speaker, 'skip_chat', {}, true);
      if (!r.ok) throw new Error(r.error.message);
      s = r.state;
    }
    expect(mafia.legalActions(s, 0)[0]?.params.target_id).toBe('int');
    const nullVote = mafia.apply(s, 1, 'vote', { target_id: null }, false);
    expect(nullVote.ok ? 'ok' : nullVote.error.code).toBe('invalid_params');
    const selfVote = mafia.apply(s, 0, 'vote', { target_id: 1 }, false);
    expect(selfVote.ok ? 'ok' : selfVote.error.allowed_values).toEqual([5]);
    for (let seat = 0; seat < 6; seat++) {
      const r = mafia.apply(s, seat, 'vote', { target_id: seat < 3 ? 5 : 1 }, false);
      if (!r.ok) throw new Error(r.error.message);
      s = r.state;
    }
    expect(s.lastVoteEvents.at(-1)).toMatchObject({ type: 'no_elimination', reason: 'runoff_tie' });
    expect(s.alive.every(Boolean)).toBe(true);
    expect(s.day).toBe(2);
    expect(s.phase).toBe('mafia_night_discuss');
  });

  it('hides whisper text and night picks from the town', () => {
    const { state } = mafia.setup(seats(6), 'whisper', {});
    const s = state as MafiaState;
    const killer = s.roles.indexOf('mafia');
    const r = mafia.apply(s, killer, 'night_action', { target_id: ((killer + 1) % 6) + 1 }, false);
    if (!r.ok) throw new Error(r.error.message);
    const partner = s.roles.lastIndexOf('mafia');
    expect(mafia.project(r.state, partner).mafia_night_picks).toHaveLength(1);
    const townie = s.roles.indexOf('citizen');
    expect(JSON.stringify(mafia.project(r.state, townie))).not.toContain('mafia_night_picks');
  });

  it('always finishes: random play ends in a town or mafia win (or the day-limit draw)', () => {
    const reasons = new Set<string>();
    for (let i = 0; i < 25; i++) {
      const { outcome, steps } = playOut(mafia, 6, `random-${i}`);
      expect(outcome, `seed random-${i} did not finish in ${steps} steps`).not.toBeNull();
      reasons.add(outcome?.reason as string);
    }
    expect([...reasons].every((r) => ['mafia_eliminated', 'mafia_parity', 'day_limit'].includes(r))).toBe(true);
  });
});

describe('every registered game', () => {
  for (const [type, game] of GAMES) {
    it(`${type}: random games finish, every legal action carries params, params_schema and hint.server_fallback`, () => {
      const problems: string[] = [];
      let actions = 0;
      let moves = 0;
      for (let i = 0; i < 5; i++) {
        const n = game.players.default;
        let { state } = game.setup(seats(n), `shape-${i}`, {});
        for (let steps = 0; steps < 2000; steps++) {
          // apply must copy what it changes: a write to a part it shares with this state throws.
          deepFreeze(state);
          const window = game.window(state);
          if (!window) break;
          const seat = window.waiting[0] as number;
          // Checked in plain code and asserted once per game: thousands of expect calls were most of this test's time.
          for (const action of game.legalActions(state, seat)) {
            const at = `shape-${i} step ${steps} ${action.action}`;
            if (typeof action.params !== 'object' || action.params === null) problems.push(`${at}: params is not an object`);
            if (action.params_schema.type !== 'object') problems.push(`${at}: params_schema.type is not "object"`);
            const fallback = action.hint.server_fallback.params;
            if (typeof fallback !== 'object' || fallback === null) problems.push(`${at}: server_fallback.params is not an object`);
            const r = game.apply(state, seat, action.action, fallback, false);
            if (!r.ok) problems.push(`${at}: fallback rejected (${r.error.code}: ${r.error.message})`);
            actions += 1;
          }
          const move = game.defaultMove(state, seat);
          const r = game.apply(state, seat, move.action, move.params, true);
          if (!r.ok) throw new Error(r.error.message);
          state = r.state;
          moves += 1;
        }
        expect(game.outcome(state), `shape-${i} did not finish`).not.toBeNull();
      }
      expect(problems).toEqual([]);
      // A seat the window waits on always has a choice listed.
      expect(moves).toBeGreaterThan(0);
      expect(actions).toBeGreaterThanOrEqual(moves);
    });
  }
});
