// Runs the conformance kit for every challenge folder the registry discovers, plus broken toy challenges that prove
// each check can fail.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CheckName,
  type ConformanceHooks,
  type ConformanceTarget,
  checkBroadcastPrivacy,
  checkMethods,
  playGame,
  type Violation,
} from '../../challenges/kit/conformance.js';
import { ChallengeOperator, defineChallenge, type OperatorContext, OperatorError } from '../../challenges/kit/operator-base.js';
import { loadChallenges } from '../../engine/challenges/registry.js';
import { createRng } from '../../engine/core/rng.js';

// A fixed fast-check seed keeps runs reproducible; a failure message names the game seed to replay with playGame().
const FC = { seed: 0x5eed, numRuns: 30 } as const;
// Generous budgets: these run next to the agent games, which keep both cores busy.
const PROPERTY_TIMEOUT_MS = 90_000;
const seedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 }).map(String);

const SERIALIZATION: CheckName[] = ['json-safe', 'restore', 'replay', 'atomic-rejection', 'operator-crash'];
const TERMINATION: CheckName[] = ['ends', 'max-actions', 'end-state'];

function format(violations: readonly Violation[]): string {
  return violations.map((v) => `[${v.check}${v.step === undefined ? '' : ` @${v.step}`}] ${v.message}`).join('\n');
}

function only(violations: readonly Violation[], checks: readonly CheckName[]): Violation[] {
  return violations.filter((v) => checks.includes(v.check));
}

/** The optional `conformance` export of an operator module (see challenges/README.md). */
async function hooksOf(dir: string): Promise<ConformanceHooks | undefined> {
  const file = ['operator.ts', 'operator.js'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!file) return undefined;
  const mod = (await import(pathToFileURL(file).href)) as { conformance?: ConformanceHooks };
  return mod.conformance;
}

const registry = await loadChallenges();
const targets: ConformanceTarget[] = [];
for (const challenge of registry.values()) {
  const target: ConformanceTarget = {
    id: challenge.id,
    metadata: challenge.metadata,
    module: challenge.module,
    options: challenge.module.optionsSchema.parse(challenge.defaultOptions),
  };
  const hooks = await hooksOf(challenge.dir);
  if (hooks) target.hooks = hooks;
  targets.push(target);
}

it('discovers every challenge folder', () => {
  const root = path.resolve(import.meta.dirname, '../../challenges');
  const folders = fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, 'challenge.json')));
  expect(targets.map((t) => t.id).sort()).toEqual(folders.sort());
  expect(targets.length).toBeGreaterThanOrEqual(4);
});

describe.each(targets)('$id', (target) => {
  // One random game per seed serves both per-step property groups.
  const plays = new Map<string, ReturnType<typeof playGame>>();
  const play = (seed: string) => {
    const cached = plays.get(seed);
    if (cached) return cached;
    const record = playGame(target, seed);
    plays.set(seed, record);
    return record;
  };

  it('has a handler for every metadata method and a metadata entry for every handler', () => {
    expect(format(checkMethods(target))).toBe('');
  });

  it(
    'restore(serialize(x)) equals x at every step of random legal and illegal play',
    () => {
      fc.assert(
        fc.property(seedArb, (seed) => {
          const found = only(play(seed).violations, SERIALIZATION);
          if (found.length > 0) throw new Error(`seed ${seed}:\n${format(found)}`);
        }),
        FC,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'always ends within maxActions(options) accepted actions',
    () => {
      const maxActions = target.module.maxActions(target.options);
      fc.assert(
        fc.property(seedArb, (seed) => {
          const record = play(seed);
          const found = only(record.violations, TERMINATION);
          if (found.length > 0) throw new Error(`seed ${seed}:\n${format(found)}`);
          expect(record.ended).toBe(true);
          expect(record.accepted).toBeLessThanOrEqual(maxActions);
        }),
        FC,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('exercises refusals as well as accepted actions (the random play is not vacuous)', () => {
    const outcomes = Array.from({ length: 10 }, (_, i) => play(`coverage-${i}`)).flatMap((r) => r.outcomes);
    expect(outcomes.some((o) => o.accepted)).toBe(true);
    expect(outcomes.some((o) => !o.ok)).toBe(true);
  });

  it(
    'broadcasts no private data before the game ends',
    () => {
      fc.assert(
        fc.property(seedArb, (seed) => {
          const found = checkBroadcastPrivacy(target, seed);
          if (found.length > 0) throw new Error(`seed ${seed}:\n${format(found)}`);
        }),
        { ...FC, numRuns: 12 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

// ---- the checks can fail: deliberately broken toy challenges ---------------------------------------------------

const ToyOptions = z.object({ players: z.literal(2).default(2) }).strict();
type ToyOptions = z.infer<typeof ToyOptions>;
interface ToyState {
  secrets: number[];
  guesses: (number | null)[];
}

type Flaw = 'leak' | 'hidden-state' | 'mutate-then-throw' | 'never-ends' | 'set-in-state' | 'crash';

class ToyOperator extends ChallengeOperator<ToyState> {
  private guessCount = 0;

  constructor(
    ctx: OperatorContext,
    gameState: ToyState,
    private readonly flaw: Flaw | null,
  ) {
    super(ctx, 2, gameState);
    this.handle('guess', (message, sender) => this.guess(message.content, sender));
  }

  protected override onPlayerJoin(invite: string, index: number): void {
    const secret = this.gameState.secrets[index];
    if (this.flaw === 'leak') this.broadcast(`${invite} joined holding ${secret}`);
    else this.send(`Your secret is ${secret}.`, invite);
  }

  private guess(content: string, sender: number): void {
    const match = /\d+/.exec(content);
    if (this.flaw === 'crash' && content.trim() === '') throw new TypeError('boom');
    if (this.flaw === 'mutate-then-throw') this.gameState.guesses[sender] = -1;
    if (!match) throw new OperatorError('INVALID_GUESS', 'send a number');
    if (this.flaw !== 'never-ends' && this.gameState.guesses[sender] !== null && this.gameState.guesses[sender] !== -1) {
      throw new OperatorError('DUPLICATE_GUESS', 'already guessed');
    }
    this.gameState.guesses[sender] = Number(match[0]);
    this.guessCount++;
    this.broadcast(`Player ${sender + 1} guessed.`);
    const done =
      this.flaw === 'hidden-state'
        ? this.guessCount >= 2
        : this.flaw === 'never-ends'
          ? false
          : this.gameState.guesses.every((g) => g !== null && g !== -1);
    if (done) this.endGame();
  }

  override serialize() {
    const snapshot = super.serialize();
    if (this.flaw === 'set-in-state') (snapshot.gameState as unknown as { seen: Set<number> }).seen = new Set([1]);
    return snapshot;
  }
}

function toy(flaw: Flaw | null, methods: string[] = ['guess']): ConformanceTarget {
  const module = defineChallenge<ToyOptions, ToyState>({
    optionsSchema: ToyOptions as z.ZodType<ToyOptions>,
    maxActions: () => 2,
    createGameState: (ctx) => ({
      secrets: [0, 1].map((i) => createRng(ctx.seed(`toy:${ctx.challengeId}:${i}`)).nextInt(100, 999)),
      guesses: [null, null],
    }),
    createOperator: (ctx, _options, gameState) => new ToyOperator(ctx, gameState, flaw),
  });
  return {
    id: `toy-${flaw ?? 'sound'}`,
    metadata: { players: 2, methods: methods.map((name) => ({ name, description: 'Send a number, e.g. "42".' })) },
    module: module as unknown as ConformanceTarget['module'],
    options: ToyOptions.parse({}),
  };
}

function checksFailing(target: ConformanceTarget, seeds = 20): Set<CheckName> {
  const out = new Set<CheckName>();
  for (let s = 0; s < seeds; s++) {
    for (const v of [...playGame(target, String(s)).violations, ...checkBroadcastPrivacy(target, String(s))]) out.add(v.check);
  }
  for (const v of checkMethods(target)) out.add(v.check);
  return out;
}

describe('the kit catches broken challenges', () => {
  it('passes a sound toy challenge', () => {
    expect([...checksFailing(toy(null))]).toEqual([]);
  });

  it.each<[Flaw | 'missing-handler', CheckName[]]>([
    ['leak', ['non-interference', 'private-strings']],
    ['hidden-state', ['replay']],
    ['mutate-then-throw', ['atomic-rejection']],
    ['never-ends', ['max-actions']],
    ['set-in-state', ['json-safe']],
    ['crash', ['operator-crash']],
    ['missing-handler', ['methods']],
  ])('%s → %j', (flaw, expected) => {
    const target = flaw === 'missing-handler' ? toy(null, ['guess', 'fold']) : toy(flaw);
    const failing = checksFailing(target);
    for (const check of expected) expect(failing, `expected ${check} among ${[...failing].join(', ')}`).toContain(check);
  });
});
