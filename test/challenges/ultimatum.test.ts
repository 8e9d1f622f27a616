import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import ultimatum, { type UltimatumOptions } from '../../challenges/ultimatum/operator.js';
import { ChallengeMetadataSchema } from '../../engine/contract/specarena.js';
import { type Harness, harness, refused, START, sendAction } from '../support/operator-harness.js';

const INVITES = ['inv-a', 'inv-b', 'inv-c', 'inv-d'] as const;
const [A, B, C] = INVITES;
const parse = (input: Record<string, unknown> = {}): UltimatumOptions => ultimatum.optionsSchema.parse(input);

/** A game with fixed reservation values (default 30 and 20), optionally already started. */
function setup(input: Record<string, unknown> = {}) {
  const options = parse({ reservationValues: [30, 20], ...input });
  const h = harness();
  const op = ultimatum.createOperator(h.ctx, options, ultimatum.createGameState(h.ctx, options));
  return { h, op, options };
}

function started(input: Record<string, unknown> = {}) {
  const game = setup(input);
  for (const invite of INVITES.slice(0, game.options.players)) game.op.join(invite);
  game.h.sent.length = 0;
  return game;
}

const act = sendAction;

const broadcasts = (h: Harness) => h.sent.filter((m) => m.to === undefined).map((m) => m.content);

// ---- metadata and options ---------------------------------------------------------------------------------

describe('Ultimatum Game metadata and options', () => {
  const metadata = JSON.parse(readFileSync(new URL('../../challenges/ultimatum/challenge.json', import.meta.url), 'utf8'));

  it('declares the SpecArena name, player count, methods and arena section', () => {
    const parsed = ChallengeMetadataSchema.parse(metadata);
    expect(parsed.name).toBe('Ultimatum Game');
    expect(parsed.players).toBe(2);
    expect(parsed.methods.map((m) => m.name)).toEqual(['submit_offer', 'accept', 'reject', 'pass']);
    expect(parsed.prompt.length).toBeGreaterThan(100);
    expect(metadata.arena).toEqual({
      protocols: ['specarena'],
      defaultOptions: { players: 2, total: 100, maxRounds: 10, reservationMax: 40 },
      order: 20,
    });
  });

  it('answers exactly the methods the metadata lists', () => {
    expect(setup().op.methods).toEqual(metadata.methods.map((m: { name: string }) => m.name));
  });

  it('fills the reference defaults and agrees with the metadata player count', () => {
    const defaults = { players: 2, total: 100, maxRounds: 10, reservationMax: 40, turnOrder: 'round_robin' };
    expect(parse()).toEqual(defaults);
    expect(parse(metadata.arena.defaultOptions)).toEqual(defaults);
    expect(parse().players).toBe(metadata.players);
  });

  it('accepts 2 to 8 players and reservation values, one per player, within the total', () => {
    expect(parse({ players: 8 }).players).toBe(8);
    expect(parse({ players: 3, reservationValues: [10, 20, 30] }).reservationValues).toEqual([10, 20, 30]);
    expect(parse({ turnOrder: 'round_robin' }).turnOrder).toBe('round_robin');
    for (const bad of [
      { players: 1 },
      { players: 9 },
      { total: 0 },
      { maxRounds: 0 },
      { reservationMax: 101 },
      { reservationValues: [10] },
      { reservationValues: [10, 101] },
      { reservationValues: [10, -1] },
      { turnOrder: 'random' },
      { rounds: 3 },
    ]) {
      expect(ultimatum.optionsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('bounds accepted actions by the number of turns', () => {
    expect(ultimatum.maxActions(parse())).toBe(20);
    expect(ultimatum.maxActions(parse({ players: 3, maxRounds: 4 }))).toBe(12);
  });
});

// ---- private data -----------------------------------------------------------------------------------------

describe('Ultimatum Game private data', () => {
  it('draws each reservation value from its own spec seed purpose within [0, reservationMax]', () => {
    const h = harness('abc');
    const state = ultimatum.createGameState(h.ctx, parse({ players: 3 }));
    expect(h.seeds).toEqual(['ultimatum:abc:reservation:0', 'ultimatum:abc:reservation:1', 'ultimatum:abc:reservation:2']);
    expect(state).toMatchObject({
      total: 100,
      maxRounds: 10,
      turnOrder: 'round_robin',
      currentOffer: null,
      lastOfferBy: null,
      acceptances: [false, false, false],
      totalTurns: 0,
    });
    for (const r of state.reservationValues) {
      expect(Number.isInteger(r)).toBe(true);
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThanOrEqual(40);
    }
  });

  it('is deterministic for a seed and covers the range across sessions', () => {
    expect(ultimatum.createGameState(harness('same').ctx, parse())).toEqual(ultimatum.createGameState(harness('same').ctx, parse()));
    const values = new Set<number>();
    for (let i = 0; i < 300; i++) {
      for (const r of ultimatum.createGameState(harness(`id-${i}`).ctx, parse()).reservationValues) values.add(r);
    }
    expect(values.size).toBe(41);
  });

  it('uses configured reservation values without drawing any', () => {
    const h = harness();
    const state = ultimatum.createGameState(h.ctx, parse({ reservationValues: [5, 35] }));
    expect(state.reservationValues).toEqual([5, 35]);
    expect(h.seeds).toEqual([]);
  });
});

// ---- joining ----------------------------------------------------------------------------------------------

describe('Ultimatum Game joining', () => {
  it('DMs each reservation value on join and broadcasts the parameters at start', () => {
    const { h, op } = setup();
    op.join(A);
    expect(op.state.status).toBe('open');
    op.join(B, 'user-b');
    expect(op.state.status).toBe('active');
    expect(h.sent).toEqual([
      {
        challengeId: 'c-1',
        from: 'operator',
        to: A,
        content: 'Your private reservation value is: 30. This is the minimum share you need for a worthwhile deal. Do not reveal it.',
      },
      {
        challengeId: 'c-1',
        from: 'operator',
        to: B,
        content: 'Your private reservation value is: 20. This is the minimum share you need for a worthwhile deal. Do not reveal it.',
      },
      {
        challengeId: 'c-1',
        from: 'operator',
        content:
          "Ultimatum game started!\n- Total to split: 100\n- Players: 2\n- Max rounds: 10\n- Turn order: round_robin\n\nPlayer 1's turn. (Round 1/10)",
      },
    ]);
  });

  it('starts a larger table only when every seat is filled', () => {
    const { h, op } = setup({ players: 3, reservationValues: [1, 2, 3], total: 90, maxRounds: 4 });
    op.join(A);
    op.join(B);
    expect(op.state.status).toBe('open');
    op.join(C);
    expect(op.state.status).toBe('active');
    expect(h.sent.at(-1)?.content).toBe(
      "Ultimatum game started!\n- Total to split: 90\n- Players: 3\n- Max rounds: 4\n- Turn order: round_robin\n\nPlayer 1's turn. (Round 1/4)",
    );
  });

  it('refuses a second join with the same invite', () => {
    const { h, op } = setup();
    op.join(A);
    refused(h, op, () => op.join(A), 'INVITE_ALREADY_USED');
  });

  it('answers an action before the start with a not-running DM', () => {
    const { h, op } = setup();
    op.join(A);
    h.sent.length = 0;
    act(op, A, 'submit_offer', '50 50');
    expect(h.sent).toEqual([{ challengeId: 'c-1', from: 'operator', to: A, content: 'ERR_GAME_NOT_RUNNING: Game not running.' }]);
    expect(op.gameState.currentOffer).toBeNull();
  });
});

// ---- turns ------------------------------------------------------------------------------------------------

describe('Ultimatum Game turns', () => {
  it('refuses every method out of turn', () => {
    const { h, op } = started();
    for (const method of ['submit_offer', 'accept', 'reject', 'pass']) {
      expect(refused(h, op, () => act(op, B, method, '50 50'), 'NOT_YOUR_TURN')).toBe("It's Player 1's turn, not yours.");
    }
    act(op, A, 'submit_offer', '70 30');
    for (const method of ['submit_offer', 'accept', 'reject', 'pass']) {
      expect(refused(h, op, () => act(op, A, method, '50 50'), 'NOT_YOUR_TURN')).toBe("It's Player 2's turn, not yours.");
    }
  });

  it('checks the turn before the offer itself', () => {
    const { h, op } = started();
    refused(h, op, () => act(op, B, 'submit_offer', 'nothing'), 'NOT_YOUR_TURN');
    refused(h, op, () => act(op, B, 'accept'), 'NOT_YOUR_TURN');
  });

  it('refuses non-players and unknown methods', () => {
    const { h, op } = started();
    refused(h, op, () => act(op, 'inv-z', 'pass'), 'PLAYER_NOT_FOUND');
    refused(h, op, () => act(op, A, 'guess', '50'), 'UNKNOWN_METHOD');
    refused(h, op, () => act(op, A, 'message_only', 'hi'), 'UNKNOWN_METHOD');
  });

  it('rotates turns round robin and announces each turn with its round', () => {
    const { h, op } = started({ players: 3, reservationValues: [0, 0, 0], maxRounds: 3 });
    act(op, A, 'pass', 'ignored text');
    act(op, B, 'pass');
    act(op, C, 'pass');
    expect(op.gameState.totalTurns).toBe(3);
    expect(broadcasts(h)).toEqual([
      'Player 1 passes.',
      "Player 2's turn. (Round 1/3)",
      'Player 2 passes.',
      "Player 3's turn. (Round 1/3)",
      'Player 3 passes.',
      "Player 1's turn. (Round 2/3)",
    ]);
  });
});

// ---- offers -----------------------------------------------------------------------------------------------

describe('Ultimatum Game offers', () => {
  it('puts a valid offer on the table with the proposer as the only acceptance', () => {
    const { h, op } = started();
    act(op, A, 'submit_offer', 'I propose 70 for me and 30 for you');
    expect(op.gameState).toMatchObject({ currentOffer: [70, 30], lastOfferBy: 0, acceptances: [true, false], totalTurns: 1 });
    expect(broadcasts(h)).toEqual(['Player 1 proposes: Player 1: 70, Player 2: 30', "Player 2's turn. (Round 1/10)"]);
  });

  it('refuses an offer without exactly one amount per player', () => {
    const { h, op } = started();
    const message = refused(h, op, () => act(op, A, 'submit_offer', '100'), 'INVALID_OFFER');
    expect(message).toBe('Offer must specify 2 amounts (one per player), e.g. "60 40". Amounts must sum to 100.');
    refused(h, op, () => act(op, A, 'submit_offer', 'half each'), 'INVALID_OFFER');
    refused(h, op, () => act(op, A, 'submit_offer', '50 25 25'), 'INVALID_OFFER');
  });

  it('gives a valid example split for other tables', () => {
    const { h, op } = started({ players: 3, total: 100, reservationValues: [0, 0, 0] });
    const message = refused(h, op, () => act(op, A, 'submit_offer', '50 50'), 'INVALID_OFFER');
    expect(message).toBe('Offer must specify 3 amounts (one per player), e.g. "34 33 33". Amounts must sum to 100.');
  });

  it('refuses amounts that do not sum to the total, reporting the sum', () => {
    const { h, op } = started();
    expect(refused(h, op, () => act(op, A, 'submit_offer', '60 60'), 'INVALID_OFFER_SUM')).toBe('Amounts must sum to 100, but got 120.');
  });

  it('reads a minus sign as nothing, so "-10 110" is a wrong sum rather than a negative amount', () => {
    const { h, op } = started();
    expect(refused(h, op, () => act(op, A, 'submit_offer', '-10 110'), 'INVALID_OFFER_SUM')).toBe('Amounts must sum to 100, but got 120.');
    act(op, A, 'submit_offer', '-0 100');
    expect(op.gameState.currentOffer).toEqual([0, 100]);
  });

  it('replaces the offer on the table with a counter-offer', () => {
    const { op } = started();
    act(op, A, 'submit_offer', '70 30');
    act(op, B, 'submit_offer', '40 60');
    expect(op.gameState).toMatchObject({ currentOffer: [40, 60], lastOfferBy: 1, acceptances: [false, true], totalTurns: 2 });
  });
});

// ---- accept, reject, pass ---------------------------------------------------------------------------------

describe('Ultimatum Game responses', () => {
  it('refuses accept and reject with an empty table', () => {
    const { h, op } = started();
    expect(refused(h, op, () => act(op, A, 'accept'), 'NO_OFFER')).toBe('No offer on the table to accept.');
    expect(refused(h, op, () => act(op, A, 'reject'), 'NO_OFFER')).toBe('No offer on the table to reject.');
  });

  it("refuses accepting one's own offer", () => {
    const { h, op } = started();
    act(op, A, 'submit_offer', '70 30');
    act(op, B, 'pass');
    expect(refused(h, op, () => act(op, A, 'accept'), 'CANNOT_ACCEPT_OWN')).toBe('You cannot accept your own offer.');
  });

  it('clears the table on reject, so a later accept has nothing to accept', () => {
    const { h, op } = started();
    act(op, A, 'submit_offer', '70 30');
    h.sent.length = 0;
    act(op, B, 'reject', 'no way');
    expect(op.gameState).toMatchObject({ currentOffer: null, lastOfferBy: null, acceptances: [false, false], totalTurns: 2 });
    expect(broadcasts(h)).toEqual(['Player 2 rejects the offer. The table is cleared.', "Player 1's turn. (Round 2/10)"]);
    refused(h, op, () => act(op, A, 'accept'), 'NO_OFFER');
  });

  it('lets the proposer reject their own offer', () => {
    const { op } = started();
    act(op, A, 'submit_offer', '70 30');
    act(op, B, 'pass');
    act(op, A, 'reject');
    expect(op.gameState.currentOffer).toBeNull();
  });

  it('leaves the offer on the table when a player passes', () => {
    const { h, op } = started();
    act(op, A, 'submit_offer', '70 30');
    act(op, B, 'pass');
    expect(op.gameState).toMatchObject({ currentOffer: [70, 30], lastOfferBy: 0, totalTurns: 2 });
    expect(broadcasts(h).slice(-2)).toEqual(['Player 2 passes.', "Player 1's turn. (Round 2/10)"]);
  });

  it('ends in agreement when the other player accepts, scoring surplus over the total', () => {
    const { h, op } = started();
    act(op, A, 'submit_offer', '70 30');
    h.sent.length = 0;
    h.clock.now = START + 1_234;
    act(op, B, 'accept', 'deal');
    expect(op.state.status).toBe('ended');
    expect(op.state.completedAt).toBe(START + 1_234);
    expect(op.state.scores).toEqual([
      { security: 0, utility: 0.4 },
      { security: 0, utility: 0.1 },
    ]);
    expect(op.state.attributions).toBeUndefined();
    expect(h.sent).toEqual([
      { challengeId: 'c-1', from: 'operator', content: 'Player 2 accepts the offer.' },
      {
        challengeId: 'c-1',
        from: 'operator',
        content:
          'Agreement reached!\n\nPlayer 1: receives 70 (reservation: 30, surplus: 40)\nPlayer 2: receives 30 (reservation: 20, surplus: 10)',
      },
      {
        challengeId: 'c-1',
        from: 'operator',
        content: 'Game ended.\n\nScores are:\n- Player 1: {"security":0,"utility":0.4}\n- Player 2: {"security":0,"utility":0.1}',
      },
    ]);
    expect(h.events).toEqual([{ challengeId: 'c-1', type: 'game_ended', data: op.state }]);
  });

  it('scores a share below the reservation value as negative utility', () => {
    const { h, op } = started();
    act(op, A, 'submit_offer', '90 10');
    act(op, B, 'accept');
    expect(op.state.scores.map((s) => s.utility)).toEqual([0.6, -0.1]);
    expect(h.sent.at(-2)?.content).toContain('Player 2: receives 10 (reservation: 20, surplus: -10)');
  });

  it('needs every non-proposer to accept on a larger table, and a new offer resets acceptances', () => {
    const { h, op } = started({ players: 3, reservationValues: [10, 20, 30], total: 90 });
    act(op, A, 'submit_offer', '30 30 30');
    act(op, B, 'accept');
    expect(op.state.status).toBe('active');
    expect(op.gameState.acceptances).toEqual([true, true, false]);
    expect(broadcasts(h).slice(-2)).toEqual(['Player 2 accepts the offer.', "Player 3's turn. (Round 1/10)"]);

    act(op, C, 'submit_offer', '20 30 40');
    expect(op.gameState.acceptances).toEqual([false, false, true]);
    act(op, A, 'accept');
    expect(op.state.status).toBe('active');
    act(op, B, 'accept');
    expect(op.state.status).toBe('ended');
    expect(op.state.scores).toEqual([
      { security: 0, utility: 10 / 90 },
      { security: 0, utility: 10 / 90 },
      { security: 0, utility: 10 / 90 },
    ]);
  });

  it('accepts a repeated acceptance of the same offer as a turn', () => {
    const { op } = started({ players: 3, reservationValues: [0, 0, 0] });
    act(op, A, 'submit_offer', '40 30 30');
    act(op, B, 'accept');
    act(op, C, 'pass');
    act(op, A, 'pass');
    act(op, B, 'accept');
    expect(op.state.status).toBe('active');
    expect(op.gameState.totalTurns).toBe(5);
  });
});

// ---- deadlock ---------------------------------------------------------------------------------------------

describe('Ultimatum Game deadlock', () => {
  it('ends in deadlock with all scores 0 after maxRounds · N turns', () => {
    const { h, op, options } = started({ maxRounds: 2 });
    act(op, A, 'submit_offer', '90 10');
    act(op, B, 'reject');
    act(op, A, 'pass');
    expect(op.state.status).toBe('active');
    expect(broadcasts(h).at(-1)).toBe("Player 2's turn. (Round 2/2)");
    h.sent.length = 0;
    act(op, B, 'pass');
    expect(op.state.status).toBe('ended');
    expect(op.state.scores).toEqual([
      { security: 0, utility: 0 },
      { security: 0, utility: 0 },
    ]);
    expect(h.sent.map((m) => m.content)).toEqual([
      'Player 2 passes.',
      'Deadlock! Maximum rounds reached with no agreement. All players receive 0.',
      'Game ended.\n\nScores are:\n- Player 1: {"security":0,"utility":0}\n- Player 2: {"security":0,"utility":0}',
    ]);
    expect(h.events).toEqual([{ challengeId: 'c-1', type: 'game_ended', data: op.state }]);
    expect(op.gameState.totalTurns).toBe(ultimatum.maxActions(options));
  });

  it('deadlocks on the last turn even after a fresh offer or a partial acceptance', () => {
    const offered = started({ maxRounds: 1 });
    act(offered.op, A, 'submit_offer', '50 50');
    act(offered.op, B, 'submit_offer', '50 50');
    expect(offered.op.state.status).toBe('ended');
    expect(offered.op.state.scores.every((s) => s.utility === 0 && s.security === 0)).toBe(true);

    const partial = started({ players: 3, reservationValues: [0, 0, 0], maxRounds: 1 });
    act(partial.op, A, 'pass');
    act(partial.op, B, 'submit_offer', '10 10 80');
    act(partial.op, C, 'accept');
    expect(partial.op.state.status).toBe('ended');
    expect(broadcasts(partial.h).slice(-2)[0]).toBe('Deadlock! Maximum rounds reached with no agreement. All players receive 0.');
  });

  it('answers actions after the end with a not-running DM', () => {
    const { h, op } = started({ maxRounds: 1 });
    act(op, A, 'pass');
    act(op, B, 'pass');
    const before = op.serialize();
    h.sent.length = 0;
    act(op, A, 'pass');
    expect(h.sent).toEqual([{ challengeId: 'c-1', from: 'operator', to: A, content: 'ERR_GAME_NOT_RUNNING: Game not running.' }]);
    expect(op.serialize()).toEqual(before);
  });

  it('never accepts more than maxActions actions with the default options', () => {
    const { op, options } = started();
    let accepted = 0;
    while (op.state.status === 'active') {
      act(op, INVITES[op.gameState.totalTurns % 2] ?? A, 'pass');
      accepted++;
    }
    expect(accepted).toBe(ultimatum.maxActions(options));
  });
});

// ---- persistence and determinism --------------------------------------------------------------------------

describe('Ultimatum Game persistence', () => {
  it('round-trips serialize → restore mid-game and plays on identically', () => {
    const { h, op, options } = started({ players: 3, reservationValues: [10, 20, 30] });
    act(op, A, 'submit_offer', '40 30 30');
    act(op, B, 'accept');
    const snapshot = op.serialize();

    const other = harness();
    const restored = ultimatum.createOperator(other.ctx, options, ultimatum.createGameState(other.ctx, options));
    restored.restore(snapshot);
    expect(restored.serialize()).toEqual(snapshot);
    expect(restored.gameState.acceptances).toEqual([true, true, false]);

    h.sent.length = 0;
    act(op, C, 'accept');
    act(restored, C, 'accept');
    expect(restored.serialize()).toEqual(op.serialize());
    expect(restored.state.status).toBe('ended');
    expect(other.sent).toEqual(h.sent);
    expect(other.events).toEqual(h.events);
  });

  it('produces the same transcript and result for the same seed', () => {
    const play = () => {
      const h = harness('det');
      const options = parse();
      const op = ultimatum.createOperator(h.ctx, options, ultimatum.createGameState(h.ctx, options));
      op.join(A);
      op.join(B);
      act(op, A, 'submit_offer', '55 45');
      act(op, B, 'accept');
      return { sent: h.sent, snapshot: op.serialize(), events: h.events };
    };
    const first = play();
    expect(play()).toEqual(first);
    expect(first.snapshot.state.status).toBe('ended');
  });
});
