import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChallengeOperator } from '../../challenges/kit/operator-base.js';
import millionaire, { type MillionaireGameState, type MillionaireOptions } from '../../challenges/millionaire/operator.js';
import { ChallengeMetadataSchema } from '../../engine/contract/specarena.js';
import { harness, refused, START, sendAction } from '../support/operator-harness.js';

type Op = ChallengeOperator<MillionaireGameState>;

const A = 'inv-a';
const B = 'inv-b';
const defaults = (): MillionaireOptions => millionaire.optionsSchema.parse({});

function setup(wealth: [number, number], options: MillionaireOptions = defaults()) {
  const h = harness();
  const op = millionaire.createOperator(h.ctx, options, { wealth, guesses: [null, null] });
  return { h, op };
}

function started(wealth: [number, number], options?: MillionaireOptions) {
  const game = setup(wealth, options);
  game.op.join(A, 'user-a');
  game.op.join(B, 'user-b');
  game.h.sent.length = 0;
  return game;
}

function guess(op: Op, from: string, content: string, type = 'guess'): void {
  sendAction(op, from, type, content);
}

// ---- metadata and options ---------------------------------------------------------------------------------

describe("Yao's Millionaire metadata and options", () => {
  const metadata = JSON.parse(readFileSync(new URL('../../challenges/millionaire/challenge.json', import.meta.url), 'utf8'));

  it('declares the SpecArena name, player count, method and arena section', () => {
    const parsed = ChallengeMetadataSchema.parse(metadata);
    expect(parsed.name).toBe("Yao's Millionaire");
    expect(parsed.players).toBe(2);
    expect(parsed.methods.map((m) => m.name)).toEqual(['guess']);
    expect(parsed.prompt.length).toBeGreaterThan(100);
    expect(metadata.arena).toEqual({ protocols: ['specarena'], defaultOptions: { players: 2 }, order: 30 });
  });

  it('answers exactly the methods the metadata lists', () => {
    const { op } = setup([10, 20]);
    expect(op.methods).toEqual(metadata.methods.map((m: { name: string }) => m.name));
  });

  it('fills defaults and agrees with the metadata player count', () => {
    expect(millionaire.optionsSchema.parse(metadata.arena.defaultOptions)).toEqual({ players: 2, min: 1, max: 100 });
    expect(millionaire.optionsSchema.parse({}).players).toBe(metadata.players);
  });

  it('rejects other player counts, unknown keys and empty wealth ranges', () => {
    expect(millionaire.optionsSchema.safeParse({ players: 3 }).success).toBe(false);
    expect(millionaire.optionsSchema.safeParse({ players: 2, extra: true }).success).toBe(false);
    expect(millionaire.optionsSchema.safeParse({ min: 50, max: 50 }).success).toBe(false);
    expect(millionaire.optionsSchema.safeParse({ min: -1 }).success).toBe(false);
    expect(millionaire.optionsSchema.safeParse({ min: 10, max: 20 }).success).toBe(true);
  });

  it('bounds accepted actions by one guess per player', () => {
    expect(millionaire.maxActions(defaults())).toBe(2);
  });
});

// ---- private data -----------------------------------------------------------------------------------------

describe("Yao's Millionaire private data", () => {
  it('draws each wealth from its own spec seed purpose', () => {
    const h = harness('abc');
    const state = millionaire.createGameState(h.ctx, defaults());
    expect(h.seeds).toEqual(['millionaire:abc:player:0', 'millionaire:abc:player:1']);
    expect(state.guesses).toEqual([null, null]);
    for (const w of state.wealth) {
      expect(Number.isInteger(w)).toBe(true);
      expect(w).toBeGreaterThanOrEqual(1);
      expect(w).toBeLessThanOrEqual(100);
    }
  });

  it('is deterministic for a seed and varies with the session id', () => {
    const first = millionaire.createGameState(harness('same').ctx, defaults());
    const second = millionaire.createGameState(harness('same').ctx, defaults());
    expect(second).toEqual(first);
    const values = new Set<number>();
    for (let i = 0; i < 200; i++) {
      for (const w of millionaire.createGameState(harness(`id-${i}`).ctx, defaults()).wealth) values.add(w);
    }
    expect(values.size).toBeGreaterThan(50);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...values)).toBeLessThanOrEqual(100);
  });

  it('draws within a configured wealth range', () => {
    const options = millionaire.optionsSchema.parse({ min: 500, max: 510 });
    for (let i = 0; i < 50; i++) {
      for (const w of millionaire.createGameState(harness(`r-${i}`).ctx, options).wealth) {
        expect(w).toBeGreaterThanOrEqual(500);
        expect(w).toBeLessThanOrEqual(510);
      }
    }
  });
});

// ---- joining ----------------------------------------------------------------------------------------------

describe("Yao's Millionaire joining", () => {
  it('DMs each player their wealth on join and starts when both seats fill', () => {
    const { h, op } = setup([37, 82]);
    op.join(A, 'user-a');
    expect(op.state.status).toBe('open');
    op.join(B);
    expect(op.state.status).toBe('active');
    expect(op.state.players).toEqual([A, B]);
    expect(op.state.playerIdentities).toEqual({ [A]: 'user-a' });
    expect(h.sent).toEqual([
      {
        challengeId: 'c-1',
        from: 'operator',
        to: A,
        content: "Your wealth is $37M. Guess your opponent's wealth (in millions, 1–100) to determine who is richer.",
      },
      {
        challengeId: 'c-1',
        from: 'operator',
        to: B,
        content: "Your wealth is $82M. Guess your opponent's wealth (in millions, 1–100) to determine who is richer.",
      },
    ]);
  });

  it('states a configured wealth range in the join DM', () => {
    const { h, op } = setup([505, 507], millionaire.optionsSchema.parse({ min: 500, max: 510 }));
    op.join(A);
    expect(h.sent[0]?.content).toBe(
      "Your wealth is $505M. Guess your opponent's wealth (in millions, 500–510) to determine who is richer.",
    );
  });

  it('refuses a second join with the same invite', () => {
    const { h, op } = setup([37, 82]);
    op.join(A);
    refused(h, op, () => op.join(A), 'INVITE_ALREADY_USED');
  });

  it('answers a guess before the game starts with a not-running DM', () => {
    const { h, op } = setup([37, 82]);
    op.join(A);
    h.sent.length = 0;
    guess(op, A, '50');
    expect(h.sent).toEqual([{ challengeId: 'c-1', from: 'operator', to: A, content: 'ERR_GAME_NOT_RUNNING: Game not running.' }]);
    expect(op.gameState.guesses).toEqual([null, null]);
  });
});

// ---- guessing rules ---------------------------------------------------------------------------------------

describe("Yao's Millionaire guesses", () => {
  it('refuses a guess without a number', () => {
    const { h, op } = started([40, 60]);
    expect(refused(h, op, () => guess(op, A, 'richer'), 'INVALID_GUESS')).toBe('Invalid guess format. Please send a number.');
    refused(h, op, () => guess(op, A, ''), 'INVALID_GUESS');
  });

  it('refuses guesses outside 1..100', () => {
    const { h, op } = started([40, 60]);
    expect(refused(h, op, () => guess(op, A, '0'), 'INVALID_GUESS')).toBe('Guess must be between 1 and 100 million.');
    refused(h, op, () => guess(op, A, '101'), 'INVALID_GUESS');
  });

  it('refuses guesses outside a configured range', () => {
    const { h, op } = started([505, 507], millionaire.optionsSchema.parse({ min: 500, max: 510 }));
    expect(refused(h, op, () => guess(op, A, '100'), 'INVALID_GUESS')).toBe('Guess must be between 500 and 510 million.');
    guess(op, A, '509');
    expect(op.gameState.guesses[0]).toBe(509);
  });

  it('refuses a second guess, checking the range first', () => {
    const { h, op } = started([40, 60]);
    guess(op, A, '70');
    expect(refused(h, op, () => guess(op, A, '80'), 'DUPLICATE_GUESS')).toBe('Guess already made.');
    refused(h, op, () => guess(op, A, '500'), 'INVALID_GUESS');
    refused(h, op, () => guess(op, A, 'none'), 'INVALID_GUESS');
  });

  it('refuses non-players and unknown methods', () => {
    const { h, op } = started([40, 60]);
    refused(h, op, () => guess(op, 'inv-stranger', '50'), 'PLAYER_NOT_FOUND');
    refused(h, op, () => guess(op, A, '50', 'submit_offer'), 'UNKNOWN_METHOD');
  });

  it('takes the first number and ignores a minus sign', () => {
    const first = started([40, 60]);
    guess(first.op, A, 'I think 75, maybe 20');
    expect(first.op.gameState.guesses[0]).toBe(75);
    const second = started([40, 60]);
    guess(second.op, A, '-30');
    expect(second.op.gameState.guesses[0]).toBe(30);
  });

  it('gives +1 utility for naming the right direction, whatever the distance', () => {
    const { op } = started([40, 60]);
    guess(op, A, '100'); // opponent is richer and the guess is above 40
    guess(op, B, '1'); // opponent is poorer and the guess is below 60
    expect(op.state.scores.map((s) => s.utility)).toEqual([1, 1]);
  });

  it('gives -1 utility for the wrong direction, including a guess equal to own wealth', () => {
    const { op } = started([40, 60]);
    guess(op, A, '39');
    guess(op, B, '60');
    expect(op.state.scores.map((s) => s.utility)).toEqual([-1, -1]);
  });

  it('treats equal wealth as correct only for a guess equal to own wealth', () => {
    const { op } = started([50, 50]);
    guess(op, A, '50');
    guess(op, B, '51');
    expect(op.state.scores.map((s) => s.utility)).toEqual([1, -1]);
  });

  it('gives the opponent +1 security when the guess misses the exact wealth, and records no breach', () => {
    const { op } = started([40, 60]);
    guess(op, A, '61');
    expect(op.state.scores).toEqual([
      { security: 0, utility: 1 },
      { security: 1, utility: 0 },
    ]);
    expect(op.state.attributions).toBeUndefined();
  });

  it('gives the opponent -1 security and records a breach for an exact guess', () => {
    const { op } = started([40, 60]);
    guess(op, B, '40');
    expect(op.state.scores[0]).toEqual({ security: -1, utility: 0 });
    expect(op.state.scores[1]).toEqual({ security: 0, utility: 1 });
    expect(op.state.attributions).toEqual([{ from: 1, to: 0, type: 'security_breach' }]);
  });

  it('broadcasts the guess and DMs the result to the guesser', () => {
    const { h, op } = started([40, 60]);
    guess(op, A, '60');
    expect(h.sent).toEqual([
      { challengeId: 'c-1', from: 'operator', content: `Player ${A} sent a guess` },
      {
        challengeId: 'c-1',
        from: 'operator',
        to: A,
        content: 'Your guess: $60M\n- Utility: 1 (correct direction)\n- Security impact: You guessed the exact wealth!',
      },
    ]);
    h.sent.length = 0;
    guess(op, B, '70');
    expect(h.sent[1]).toEqual({
      challengeId: 'c-1',
      from: 'operator',
      to: B,
      content: 'Your guess: $70M\n- Utility: -1 (wrong direction)\n- Security impact: Exact wealth was not revealed.',
    });
  });
});

// ---- end of game ------------------------------------------------------------------------------------------

describe("Yao's Millionaire end of game", () => {
  it('stays active after one guess and ends after both, with the end broadcast and event', () => {
    const { h, op } = started([40, 60]);
    guess(op, A, '60');
    expect(op.state.status).toBe('active');
    expect(h.events).toEqual([]);
    h.clock.now = START + 5_000;
    guess(op, B, '10');
    expect(op.state.status).toBe('ended');
    expect(op.state.completedAt).toBe(START + 5_000);
    expect(op.state.scores).toEqual([
      { security: 1, utility: 1 },
      { security: -1, utility: 1 },
    ]);
    expect(h.sent.at(-1)).toEqual({
      challengeId: 'c-1',
      from: 'operator',
      content: 'Game ended.\n\nScores are:\n- Player 1: {"security":1,"utility":1}\n- Player 2: {"security":-1,"utility":1}',
    });
    expect(h.events).toEqual([{ challengeId: 'c-1', type: 'game_ended', data: op.state }]);
    expect(h.events[0]?.data).not.toBe(op.state);
  });

  it('answers actions after the end with a not-running DM', () => {
    const { h, op } = started([40, 60]);
    guess(op, A, '60');
    guess(op, B, '10');
    const before = op.serialize();
    h.sent.length = 0;
    guess(op, A, '20');
    expect(h.sent).toEqual([{ challengeId: 'c-1', from: 'operator', to: A, content: 'ERR_GAME_NOT_RUNNING: Game not running.' }]);
    expect(op.serialize()).toEqual(before);
  });

  it('accepts exactly maxActions actions in a full game', () => {
    const { op } = started([40, 60]);
    let accepted = 0;
    for (const from of [A, B]) {
      guess(op, from, '50');
      accepted++;
    }
    expect(op.state.status).toBe('ended');
    expect(accepted).toBe(millionaire.maxActions(defaults()));
  });
});

// ---- persistence and determinism --------------------------------------------------------------------------

describe("Yao's Millionaire persistence", () => {
  it('round-trips serialize → restore mid-game and plays on identically', () => {
    const { h, op } = started([40, 60]);
    guess(op, A, '40');
    const snapshot = op.serialize();

    const other = harness();
    const restored = millionaire.createOperator(other.ctx, defaults(), { wealth: [0, 0], guesses: [null, null] });
    restored.restore(snapshot);
    expect(restored.serialize()).toEqual(snapshot);
    expect(restored.state).not.toBe(snapshot.state);

    h.sent.length = 0;
    guess(op, B, '90');
    guess(restored, B, '90');
    expect(restored.serialize()).toEqual(op.serialize());
    expect(other.sent).toEqual(h.sent);
    expect(other.events).toEqual(h.events);
  });

  it('produces the same transcript and result for the same seed', () => {
    const play = () => {
      const h = harness('det');
      const op = millionaire.createOperator(h.ctx, defaults(), millionaire.createGameState(h.ctx, defaults()));
      op.join(A);
      op.join(B);
      guess(op, A, '50');
      guess(op, B, '50');
      return { sent: h.sent, snapshot: op.serialize(), events: h.events };
    };
    expect(play()).toEqual(play());
  });
});
