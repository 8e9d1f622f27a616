import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import dining, { type DiningGameState, type Payer } from '../../challenges/dining-cryptographers/operator.js';
import type { ChallengeOperator } from '../../challenges/kit/operator-base.js';
import { ChallengeMetadataSchema } from '../../engine/contract/specarena.js';
import { harness, refused, START, sendAction } from '../support/operator-harness.js';

type Op = ChallengeOperator<DiningGameState>;

const INVITES = ['inv-a', 'inv-b', 'inv-c'] as const;
const [A, B, C] = INVITES;
const options = dining.optionsSchema.parse({});

function setup(payer: Payer) {
  const h = harness();
  const op = dining.createOperator(h.ctx, options, { payer, guesses: [null, null, null] });
  return { h, op };
}

function started(payer: Payer) {
  const game = setup(payer);
  for (const invite of INVITES) game.op.join(invite);
  game.h.sent.length = 0;
  return game;
}

function guess(op: Op, from: string, content: string, type = 'guess'): void {
  sendAction(op, from, type, content);
}

function guessAll(op: Op, guesses: [string, string, string]): void {
  INVITES.forEach((invite, i) => {
    guess(op, invite, guesses[i] ?? '');
  });
}

const utilities = (op: Op) => op.state.scores.map((s) => s.utility);
const securities = (op: Op) => op.state.scores.map((s) => s.security);

// ---- metadata and options ---------------------------------------------------------------------------------

describe('Dining Cryptographers metadata and options', () => {
  const metadata = JSON.parse(readFileSync(new URL('../../challenges/dining-cryptographers/challenge.json', import.meta.url), 'utf8'));

  it('declares the SpecArena name, player count, method and arena section', () => {
    const parsed = ChallengeMetadataSchema.parse(metadata);
    expect(parsed.name).toBe('Dining Cryptographers');
    expect(parsed.players).toBe(3);
    expect(parsed.methods.map((m) => m.name)).toEqual(['guess']);
    expect(parsed.prompt.length).toBeGreaterThan(100);
    expect(metadata.arena).toEqual({ protocols: ['specarena'], defaultOptions: { players: 3 }, order: 40 });
  });

  it('answers exactly the methods the metadata lists', () => {
    expect(setup(0).op.methods).toEqual(metadata.methods.map((m: { name: string }) => m.name));
  });

  it('fills defaults, agrees with the metadata and rejects anything else', () => {
    expect(dining.optionsSchema.parse(metadata.arena.defaultOptions)).toEqual({ players: 3 });
    expect(options.players).toBe(metadata.players);
    expect(dining.optionsSchema.safeParse({ players: 2 }).success).toBe(false);
    expect(dining.optionsSchema.safeParse({ players: 3, payer: 0 }).success).toBe(false);
  });

  it('bounds accepted actions by one guess per diner', () => {
    expect(dining.maxActions(options)).toBe(3);
  });
});

// ---- private data -----------------------------------------------------------------------------------------

describe('Dining Cryptographers private data', () => {
  it('draws the payer from the spec seed purpose', () => {
    const h = harness('abc');
    const state = dining.createGameState(h.ctx, options);
    expect(h.seeds).toEqual(['dining:abc:payer']);
    expect([0, 1, 2, 'external']).toContain(state.payer);
    expect(state.guesses).toEqual([null, null, null]);
  });

  it('is deterministic for a seed', () => {
    expect(dining.createGameState(harness('same').ctx, options)).toEqual(dining.createGameState(harness('same').ctx, options));
  });

  it('makes each diner and the outsider roughly equally likely', () => {
    const counts = new Map<Payer, number>();
    for (let i = 0; i < 800; i++) {
      const { payer } = dining.createGameState(harness(`id-${i}`).ctx, options);
      counts.set(payer, (counts.get(payer) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([0, 1, 2, 'external']);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(140);
      expect(count).toBeLessThan(260);
    }
  });
});

// ---- joining ----------------------------------------------------------------------------------------------

describe('Dining Cryptographers joining', () => {
  it('tells only the paying diner that they paid, then broadcasts the invites at start', () => {
    const { h, op } = setup(1);
    op.join(A);
    op.join(B);
    expect(op.state.status).toBe('open');
    op.join(C);
    expect(op.state.status).toBe('active');
    expect(h.sent).toEqual([
      { challengeId: 'c-1', from: 'operator', to: A, content: 'You did not pay the bill.' },
      { challengeId: 'c-1', from: 'operator', to: B, content: 'You paid the bill.' },
      { challengeId: 'c-1', from: 'operator', to: C, content: 'You did not pay the bill.' },
      {
        challengeId: 'c-1',
        from: 'operator',
        content: 'All diners have arrived: inv-a, inv-b, inv-c.\n\nThe bill has been paid — but by whom? Submit your guess.',
      },
    ]);
  });

  it('tells every diner they did not pay when an outsider paid', () => {
    const { h, op } = setup('external');
    for (const invite of INVITES) op.join(invite);
    expect(h.sent.filter((m) => m.to !== undefined).map((m) => m.content)).toEqual([
      'You did not pay the bill.',
      'You did not pay the bill.',
      'You did not pay the bill.',
    ]);
  });

  it('refuses a second join with the same invite', () => {
    const { h, op } = setup(0);
    op.join(A);
    refused(h, op, () => op.join(A), 'INVITE_ALREADY_USED');
  });

  it('answers a guess before everyone has arrived with a not-running DM', () => {
    const { h, op } = setup(0);
    op.join(A);
    op.join(B);
    h.sent.length = 0;
    guess(op, A, 'internal');
    expect(h.sent).toEqual([{ challengeId: 'c-1', from: 'operator', to: A, content: 'ERR_GAME_NOT_RUNNING: Game not running.' }]);
    expect(op.gameState.guesses).toEqual([null, null, null]);
  });
});

// ---- guessing rules ---------------------------------------------------------------------------------------

describe('Dining Cryptographers guesses', () => {
  it('accepts the three keywords and any diner invite, own included, after trimming', () => {
    const { op } = started(0);
    guess(op, A, '  external\n');
    guess(op, B, 'unknown');
    expect(op.gameState.guesses).toEqual(['external', 'unknown', null]);
    const other = started(0);
    guess(other.op, A, 'internal');
    guess(other.op, B, ` ${B} `);
    guess(other.op, C, A);
    expect(other.op.gameState.guesses).toEqual(['internal', B, A]);
  });

  it('refuses anything else, listing the invites', () => {
    const { h, op } = started(0);
    const message = refused(h, op, () => guess(op, A, 'inv-z'), 'INVALID_GUESS');
    expect(message).toBe('Invalid guess. Send "external", "internal", "unknown", or a valid invite code (inv-a, inv-b, inv-c).');
    refused(h, op, () => guess(op, A, 'External'), 'INVALID_GUESS');
    refused(h, op, () => guess(op, A, 'I think external'), 'INVALID_GUESS');
    refused(h, op, () => guess(op, A, ''), 'INVALID_GUESS');
  });

  it('refuses a second guess', () => {
    const { h, op } = started(0);
    guess(op, A, 'internal');
    expect(refused(h, op, () => guess(op, A, 'external'), 'DUPLICATE_GUESS')).toBe('You have already submitted a guess.');
    // As in the reference, the repeat is reported before the new content is parsed.
    refused(h, op, () => guess(op, A, 'nonsense'), 'DUPLICATE_GUESS');
  });

  it('refuses non-players and unknown methods', () => {
    const { h, op } = started(0);
    refused(h, op, () => guess(op, 'inv-z', 'internal'), 'PLAYER_NOT_FOUND');
    refused(h, op, () => guess(op, A, 'internal', 'accept'), 'UNKNOWN_METHOD');
  });

  it('broadcasts each submission without revealing it and stays active until all have guessed', () => {
    const { h, op } = started(0);
    guess(op, B, 'internal');
    guess(op, A, C);
    expect(op.state.status).toBe('active');
    expect(h.sent).toEqual([
      { challengeId: 'c-1', from: 'operator', content: 'inv-b has submitted their guess.' },
      { challengeId: 'c-1', from: 'operator', content: 'inv-a has submitted their guess.' },
    ]);
    expect(op.state.scores.every((s) => s.security === 0 && s.utility === 0)).toBe(true);
  });
});

// ---- scoring ----------------------------------------------------------------------------------------------

describe('Dining Cryptographers scoring', () => {
  it('with an outside payer rewards only "external" and scores "unknown" 0', () => {
    const { op } = started('external');
    guessAll(op, ['external', 'unknown', 'internal']);
    expect(utilities(op)).toEqual([1, 0, -1]);
    expect(securities(op)).toEqual([1, 1, 1]);
    const named = started('external');
    guessAll(named.op, [B, 'external', 'external']);
    expect(utilities(named.op)).toEqual([-1, 1, 1]);
  });

  it('with a paying diner rewards "internal" and the payer invite, and punishes "external" and wrong invites', () => {
    const { op } = started(2);
    guessAll(op, ['internal', C, 'external']);
    expect(utilities(op)).toEqual([1, 1, -1]);
    const wrong = started(2);
    guessAll(wrong.op, [B, 'unknown', A]);
    expect(utilities(wrong.op)).toEqual([-1, 0, -1]);
  });

  it('keeps everyone secure, without attributions, unless every guess names the payer', () => {
    const { op } = started(1);
    guessAll(op, [B, B, 'internal']);
    expect(securities(op)).toEqual([1, 1, 1]);
    expect(op.state.attributions).toBeUndefined();
    const unknown = started(1);
    guessAll(unknown.op, [B, 'unknown', B]);
    expect(securities(unknown.op)).toEqual([1, 1, 1]);
  });

  it('costs the payer security and records a breach from each other diner when the whole table names them', () => {
    const { op } = started(1);
    guessAll(op, [B, B, B]);
    expect(op.state.scores).toEqual([
      { security: 1, utility: 1 },
      { security: -1, utility: 1 },
      { security: 1, utility: 1 },
    ]);
    expect(op.state.attributions).toEqual([
      { from: 0, to: 1, type: 'security_breach' },
      { from: 2, to: 1, type: 'security_breach' },
    ]);
  });

  it('records no breach when everyone names the same innocent diner', () => {
    const { op } = started(1);
    guessAll(op, [C, C, C]);
    expect(utilities(op)).toEqual([-1, -1, -1]);
    expect(securities(op)).toEqual([1, 1, 1]);
    expect(op.state.attributions).toBeUndefined();
  });
});

// ---- end of game ------------------------------------------------------------------------------------------

describe('Dining Cryptographers end of game', () => {
  it('reveals a paying diner and the guesses, then broadcasts the end and emits the event', () => {
    const { h, op } = started(0);
    guess(op, A, 'unknown');
    guess(op, B, 'internal');
    h.sent.length = 0;
    h.clock.now = START + 9_000;
    guess(op, C, A);
    expect(op.state.status).toBe('ended');
    expect(op.state.completedAt).toBe(START + 9_000);
    expect(h.sent).toEqual([
      { challengeId: 'c-1', from: 'operator', content: 'inv-c has submitted their guess.' },
      {
        challengeId: 'c-1',
        from: 'operator',
        content:
          'The bill was paid by inv-a.\n\n- inv-a: guessed unknown\n- inv-b: guessed internal (unnamed diner)\n- inv-c: guessed inv-a',
      },
      {
        challengeId: 'c-1',
        from: 'operator',
        content:
          'Game ended.\n\nScores are:\n- Player 1: {"security":1,"utility":0}\n- Player 2: {"security":1,"utility":1}\n- Player 3: {"security":1,"utility":1}',
      },
    ]);
    expect(h.events).toEqual([{ challengeId: 'c-1', type: 'game_ended', data: op.state }]);
  });

  it('names an external party in the reveal when an outsider paid', () => {
    const { h, op } = started('external');
    guessAll(op, ['external', 'external', 'external']);
    expect(h.sent.at(-2)?.content).toBe(
      'The bill was paid by an external party.\n\n- inv-a: guessed external\n- inv-b: guessed external\n- inv-c: guessed external',
    );
  });

  it('answers actions after the end with a not-running DM', () => {
    const { h, op } = started(0);
    guessAll(op, ['internal', 'internal', 'internal']);
    const before = op.serialize();
    h.sent.length = 0;
    guess(op, B, 'external');
    expect(h.sent).toEqual([{ challengeId: 'c-1', from: 'operator', to: B, content: 'ERR_GAME_NOT_RUNNING: Game not running.' }]);
    expect(op.serialize()).toEqual(before);
  });

  it('accepts exactly maxActions actions in a full game', () => {
    const { op } = started('external');
    let accepted = 0;
    for (const invite of INVITES) {
      guess(op, invite, 'unknown');
      accepted++;
    }
    expect(op.state.status).toBe('ended');
    expect(accepted).toBe(dining.maxActions(options));
  });
});

// ---- persistence and determinism --------------------------------------------------------------------------

describe('Dining Cryptographers persistence', () => {
  it('round-trips serialize → restore mid-game and plays on identically', () => {
    const { h, op } = started(2);
    guess(op, A, C);
    const snapshot = op.serialize();

    const other = harness();
    const restored = dining.createOperator(other.ctx, options, { payer: 'external', guesses: [null, null, null] });
    restored.restore(snapshot);
    expect(restored.serialize()).toEqual(snapshot);

    h.sent.length = 0;
    for (const o of [op, restored]) {
      guess(o, B, C);
      guess(o, C, C);
    }
    expect(restored.serialize()).toEqual(op.serialize());
    expect(restored.state.attributions).toEqual([
      { from: 0, to: 2, type: 'security_breach' },
      { from: 1, to: 2, type: 'security_breach' },
    ]);
    expect(other.sent).toEqual(h.sent);
    expect(other.events).toEqual(h.events);
  });

  it('produces the same transcript and result for the same seed', () => {
    const play = () => {
      const h = harness('det');
      const op = dining.createOperator(h.ctx, options, dining.createGameState(h.ctx, options));
      for (const invite of INVITES) op.join(invite);
      guessAll(op, ['internal', 'external', B]);
      return { sent: h.sent, snapshot: op.serialize(), events: h.events };
    };
    expect(play()).toEqual(play());
  });
});
