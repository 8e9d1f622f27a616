// Scoring strategies (spec §7) against hand-computed numbers. Every expected value below is worked out in the
// comment next to it, so a change in a formula shows up as a concrete mismatch.
import { describe, expect, it } from 'vitest';
import type { Attribution, GameResult } from '../../../engine/contract/specarena.js';
import {
  applyGame,
  challengeStrategies,
  defaultScoringConfig,
  entryKey,
  globalAverage,
  isSelfPlay,
  type ScoringConfig,
  type ScoringStoreLike,
  type StrategyEntry,
  strategiesFor,
} from '../../../engine/core/scoring/index.js';

type Slot = { user?: string; score?: [number, number] };

let gameCounter = 0;

/** Builds a GameResult: slot i gets invite `inv-i`, an identity when `user` is set and a score when `score` is set. */
function game(challengeType: string, slots: Slot[], breaches: Array<[number, number]> = [], extra: Attribution[] = []): GameResult {
  gameCounter += 1;
  const players = slots.map((_, i) => `g${gameCounter}-inv-${i}`);
  const playerIdentities: Record<string, string> = {};
  const scores: GameResult['scores'] = [];
  slots.forEach((slot, i) => {
    const invite = players[i] as string;
    if (slot.user !== undefined) playerIdentities[invite] = slot.user;
    // Scores are positional, so a missing score can only be the tail of the array.
    if (slot.score !== undefined) scores[i] = { security: slot.score[0], utility: slot.score[1] };
  });
  const attributions = [...breaches.map(([from, to]) => ({ from, to, type: 'security_breach' })), ...extra];
  return {
    gameId: `game-${gameCounter}`,
    challengeType,
    createdAt: 1_000 * gameCounter,
    completedAt: 1_000 * gameCounter + 500,
    scores,
    players,
    playerIdentities,
    ...(attributions.length > 0 ? { attributions } : {}),
  };
}

const p = (user: string | undefined, security?: number, utility?: number): Slot => ({
  ...(user !== undefined ? { user } : {}),
  ...(security !== undefined && utility !== undefined ? { score: [security, utility] as [number, number] } : {}),
});

type Store = Map<string, StrategyEntry>;

function run(games: GameResult[], config: ScoringConfig = defaultScoringConfig, store: Store = new Map()): Store {
  for (const result of games) applyGame(store, config, result);
  return store;
}

function entry(store: Store, type: string, strategy: string, user: string): StrategyEntry {
  const found = store.get(entryKey(type, strategy, user));
  if (found === undefined) throw new Error(`no entry for ${type}/${strategy}/${user}`);
  return found;
}

const globalEntry = (store: Store, user: string) => entry(store, '__global__', '__global__', user);

/** Exact key set, values compared to 12 decimals (thirds are not exact in binary). */
function expectMetrics(actual: StrategyEntry, gamesPlayed: number, metrics: Record<string, number>): void {
  expect(actual.gamesPlayed).toBe(gamesPlayed);
  expect(Object.keys(actual.metrics).sort()).toEqual(Object.keys(metrics).sort());
  for (const [key, value] of Object.entries(metrics)) expect(actual.metrics[key], key).toBeCloseTo(value, 12);
}

function rowsFor(store: Store, type: string, strategy: string): string[] {
  const prefix = `${type}\u0000${strategy}\u0000`;
  return [...store.keys()]
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length))
    .sort();
}

// ---- a millionaire series shared by several tests ------------------------------------------------------------

// M1: alice breaches bob.  M2: no breach.  M3: both breach each other.  M4: alice against an anonymous player.
function millionaireSeries(): GameResult[] {
  return [
    game('millionaire', [p('alice', 1, 1), p('bob', -1, -1)], [[0, 1]]),
    game('millionaire', [p('alice', 1, -1), p('bob', 1, 1)]),
    game(
      'millionaire',
      [p('alice', -1, 1), p('bob', -1, 1)],
      [
        [0, 1],
        [1, 0],
      ],
    ),
    game('millionaire', [p('alice', 1, 1), p(undefined, 1, 1)]),
  ];
}

describe('configuration', () => {
  it('resolves unique(default ++ perChallenge) in order', () => {
    const names = (type: string, config = defaultScoringConfig) => strategiesFor(config, type).map((s) => s.name);
    expect(names('psi')).toEqual(['average', 'win-rate', 'red-team', 'consecutive']);
    expect(names('ultimatum')).toEqual(['average', 'win-rate', 'red-team', 'consecutive']);
    expect(names('millionaire')).toEqual(['average', 'win-rate', 'red-team', 'consecutive']);
    expect(names('dining-cryptographers')).toEqual(['average', 'win-rate', 'consecutive']);
    expect(names('not-configured')).toEqual(['average']);
    const custom: ScoringConfig = {
      ...defaultScoringConfig,
      default: ['average', 'win-rate'],
      perChallenge: { x: ['win-rate', 'consecutive', 'average'] },
    };
    expect(names('x', custom)).toEqual(['average', 'win-rate', 'consecutive']);
    // Inherited object keys are not challenge types.
    expect(names('toString')).toEqual(['average']);
  });

  it('rejects unknown strategy names, including the global one in a per-challenge list', () => {
    const bad = (list: string[]): ScoringConfig => ({ ...defaultScoringConfig, perChallenge: { psi: list } });
    expect(() => strategiesFor(bad(['elo']), 'psi')).toThrow(/Unknown scoring strategy "elo".*"psi"/);
    expect(() => strategiesFor(bad(['global-average']), 'psi')).toThrow(/"global-average"/);
    expect(() => strategiesFor({ ...defaultScoringConfig, default: ['constructor'] }, 'psi')).toThrow(/"constructor"/);
  });

  it('fails before writing anything when the configuration is bad', () => {
    const store: Store = new Map();
    const config: ScoringConfig = { ...defaultScoringConfig, perChallenge: { psi: ['win-rate', 'bogus'] } };
    expect(() => applyGame(store, config, game('psi', [p('alice', 1, 1), p('bob', 0, 0)]))).toThrow(/bogus/);
    expect(store.size).toBe(0);
    const badGlobal = { ...defaultScoringConfig, global: 'elo' } as unknown as ScoringConfig;
    expect(() => applyGame(store, badGlobal, game('psi', [p('alice', 1, 1), p('bob', 0, 0)]))).toThrow(/global/);
    expect(store.size).toBe(0);
  });

  it('exposes the metric keys and labels of the spec', () => {
    const described = Object.fromEntries([...Object.values(challengeStrategies), globalAverage].map((s) => [s.name, s.metrics]));
    expect(described).toEqual({
      average: [
        { key: 'average:security', label: 'Average Security' },
        { key: 'average:utility', label: 'Average Utility' },
      ],
      'win-rate': [
        { key: 'win-rate:security', label: 'Security Win Rate' },
        { key: 'win-rate:utility', label: 'Utility Win Rate' },
      ],
      'red-team': [
        { key: 'red-team:attack', label: 'Attack Rate' },
        { key: 'red-team:defend', label: 'Defend Rate' },
      ],
      consecutive: [
        { key: 'consecutive:security', label: 'Security Streak' },
        { key: 'consecutive:utility', label: 'Utility Streak' },
        { key: 'consecutive:attack', label: 'Attack Streak' },
      ],
      'global-average': [
        { key: 'global-average:security', label: 'Security' },
        { key: 'global-average:utility', label: 'Utility' },
      ],
    });
  });

  it('builds NUL-separated store keys', () => {
    expect(entryKey('psi', 'average', 'alice')).toBe('psi\u0000average\u0000alice');
  });
});

describe('self-play', () => {
  it('detects a userId appearing twice among identified players only', () => {
    expect(isSelfPlay(game('psi', [p('alice', 1, 1), p('alice', 0, 0)]))).toBe(true);
    expect(isSelfPlay(game('psi', [p('alice', 1, 1), p('bob', 0, 0)]))).toBe(false);
    // Two anonymous players share no identity.
    expect(isSelfPlay(game('psi', [p(undefined, 1, 1), p(undefined, 0, 0)]))).toBe(false);
    expect(isSelfPlay(game('dining-cryptographers', [p('alice', 1, 1), p(undefined, 1, 1), p('alice', 1, 1)]))).toBe(true);
  });

  it('skips the whole game: no per-challenge and no global rows', () => {
    const store = run([game('psi', [p('alice', 1, 1), p('alice', -1, -1)], [[0, 1]])]);
    expect(store.size).toBe(0);
    expect(applyGame(store, defaultScoringConfig, game('millionaire', [p('bob', 1, 1), p('bob', 1, 1)]))).toEqual([]);
    expect(store.size).toBe(0);
  });

  it('leaves earlier rows untouched', () => {
    const store = run([game('psi', [p('alice', 1, 0), p('bob', 0, 1)])]);
    const before = structuredClone([...store]);
    run([game('psi', [p('alice', -1, -1), p('alice', -1, -1)])], defaultScoringConfig, store);
    expect([...store]).toEqual(before);
  });
});

describe('average and win-rate', () => {
  it('computes means and win shares over the millionaire series', () => {
    const store = run(millionaireSeries());
    // alice S: 1+1-1+1 = 2 over 4; U: 1-1+1+1 = 2 over 4.
    expectMetrics(entry(store, 'millionaire', 'average', 'alice'), 4, { 'average:security': 0.5, 'average:utility': 0.5 });
    // bob S: -1+1-1 = -1 over 3; U: -1+1+1 = 1 over 3.
    expectMetrics(entry(store, 'millionaire', 'average', 'bob'), 3, { 'average:security': -1 / 3, 'average:utility': 1 / 3 });
    // alice security wins in M1, M2, M4; utility wins in M1, M3, M4.
    expectMetrics(entry(store, 'millionaire', 'win-rate', 'alice'), 4, { 'win-rate:security': 0.75, 'win-rate:utility': 0.75 });
    // bob security win in M2 only; utility wins in M2, M3.
    expectMetrics(entry(store, 'millionaire', 'win-rate', 'bob'), 3, { 'win-rate:security': 1 / 3, 'win-rate:utility': 2 / 3 });
    expect(entry(store, 'millionaire', 'average', 'alice').state).toEqual({ securitySum: 2, utilitySum: 2, count: 4 });
  });

  it('never creates rows for anonymous players and skips identified players without a score', () => {
    // dave is identified but his score slot is missing.
    const store = run([game('psi', [p('carol', 1, 0.5), p('dave')]), game('psi', [p(undefined, 1, 1), p('carol', 0, 0)])]);
    expect(rowsFor(store, 'psi', 'average')).toEqual(['carol']);
    expect(rowsFor(store, 'psi', 'win-rate')).toEqual(['carol']);
    // carol: S (1+0)/2, U (0.5+0)/2; no win at 0.5.
    expectMetrics(entry(store, 'psi', 'average', 'carol'), 2, { 'average:security': 0.5, 'average:utility': 0.25 });
    expectMetrics(entry(store, 'psi', 'win-rate', 'carol'), 2, { 'win-rate:security': 0.5, 'win-rate:utility': 0 });
    expect([...store.keys()].some((key) => key.endsWith('\u0000undefined'))).toBe(false);
  });

  it('counts a tie as a win for both and treats exactly 1 as a win, just under 1 as not', () => {
    const store = run([game('psi', [p('alice', 1, 1), p('bob', 1, 1)]), game('psi', [p('alice', 0.999, 2), p('bob', 0.999, 1)])]);
    for (const user of ['alice', 'bob']) {
      // security wins 1 of 2 (0.999 misses); utility wins 2 of 2 (2 and 1 both count).
      expectMetrics(entry(store, 'psi', 'win-rate', user), 2, { 'win-rate:security': 0.5, 'win-rate:utility': 1 });
      expectMetrics(entry(store, 'psi', 'consecutive', user), 2, {
        'consecutive:security': 0,
        'consecutive:utility': 2,
        'consecutive:attack': 0,
      });
    }
    // alice U: (1+2)/2; bob U: (1+1)/2.
    expect(entry(store, 'psi', 'average', 'alice').metrics['average:utility']).toBe(1.5);
    expect(entry(store, 'psi', 'average', 'bob').metrics['average:utility']).toBe(1);
  });
});

describe('red-team', () => {
  it('computes attack and defend over the millionaire series, skipping the game with an anonymous player', () => {
    const store = run(millionaireSeries());
    // M4 is skipped: alice has n = 3. alice breaches: M1, M3 (B = 2); breached in M3 (V = 1).
    expectMetrics(entry(store, 'millionaire', 'red-team', 'alice'), 3, { 'red-team:attack': 2 / 3, 'red-team:defend': 2 / 3 });
    // bob B = 1 (M3), V = 2 (M1, M3).
    expectMetrics(entry(store, 'millionaire', 'red-team', 'bob'), 3, { 'red-team:attack': 1 / 3, 'red-team:defend': 1 / 3 });
    expect(entry(store, 'millionaire', 'red-team', 'bob').state).toEqual({ breaches: 1, breached: 2, count: 3 });
  });

  it('counts every breach attribution, so defend goes negative; other attribution types are ignored', () => {
    const store = run([
      game(
        'psi',
        [p('alice', 1, 1), p('bob', -1, 0)],
        [
          [0, 1],
          [0, 1],
          [0, 1],
        ],
        [{ from: 1, to: 0, type: 'hint' }],
      ),
    ]);
    // alice B = 3 over 1 game; bob V = 3 → 1 − 3/1 = −2. The `hint` does not count for bob.
    expectMetrics(entry(store, 'psi', 'red-team', 'alice'), 1, { 'red-team:attack': 3, 'red-team:defend': 1 });
    expectMetrics(entry(store, 'psi', 'red-team', 'bob'), 1, { 'red-team:attack': 0, 'red-team:defend': -2 });
    run([game('psi', [p('bob', 1, 1), p('alice', 1, 1)])], defaultScoringConfig, store);
    // One quiet game later: alice 3/2; bob 1 − 3/2.
    expectMetrics(entry(store, 'psi', 'red-team', 'alice'), 2, { 'red-team:attack': 1.5, 'red-team:defend': 1 });
    expectMetrics(entry(store, 'psi', 'red-team', 'bob'), 2, { 'red-team:attack': 0, 'red-team:defend': -0.5 });
  });

  it('skips games with fewer than two players or any anonymous player, but not players without a score', () => {
    const store = run([
      game('psi', [p('alice', 1, 1)]),
      game('psi', [p('alice', 1, 1), p(undefined, 1, 1)], [[0, 1]]),
      game('psi', [p('alice', 1, 1), p('dave')], [[0, 1]]),
    ]);
    // Only the third game counts; dave has an identity, so he is in it although unscored.
    expectMetrics(entry(store, 'psi', 'red-team', 'alice'), 1, { 'red-team:attack': 1, 'red-team:defend': 1 });
    expectMetrics(entry(store, 'psi', 'red-team', 'dave'), 1, { 'red-team:attack': 0, 'red-team:defend': 0 });
    // The single-player game still counts for average.
    expect(entry(store, 'psi', 'average', 'alice').gamesPlayed).toBe(3);
  });

  it('is not applied to dining-cryptographers under the default configuration', () => {
    const store = run([
      game(
        'dining-cryptographers',
        [p('alice', 1, -1), p('bob', 1, -1), p('carol', -1, 1)],
        [
          [0, 2],
          [1, 2],
        ],
      ),
    ]);
    expect(rowsFor(store, 'dining-cryptographers', 'red-team')).toEqual([]);
    expect(rowsFor(store, 'dining-cryptographers', 'consecutive')).toEqual(['alice', 'bob', 'carol']);
  });
});

describe('consecutive', () => {
  it('grows and resets streaks over the millionaire series', () => {
    const series = millionaireSeries();
    const store = run(series.slice(0, 2));
    // After M1 (alice 1/1 + breach) and M2 (alice 1/−1, no breach).
    expectMetrics(entry(store, 'millionaire', 'consecutive', 'alice'), 2, {
      'consecutive:security': 2,
      'consecutive:utility': 0,
      'consecutive:attack': 0,
    });
    run(series.slice(2), defaultScoringConfig, store);
    // M3: alice −1/1 and breaches → security resets, utility and attack restart at 1. M4 (anonymous) is skipped.
    expectMetrics(entry(store, 'millionaire', 'consecutive', 'alice'), 3, {
      'consecutive:security': 0,
      'consecutive:utility': 1,
      'consecutive:attack': 1,
    });
    // bob: M1 −1/−1 → 0/0; M2 1/1 → 1/1; M3 −1/1 + breach → 0/2/1.
    expectMetrics(entry(store, 'millionaire', 'consecutive', 'bob'), 3, {
      'consecutive:security': 0,
      'consecutive:utility': 2,
      'consecutive:attack': 1,
    });
  });

  it('extends attack streaks per game, not per breach, and credits each breaching diner', () => {
    const store = run([
      game(
        'dining-cryptographers',
        [p('alice', 1, 1), p('bob', 1, 1), p('carol', -1, 1)],
        [
          [0, 2],
          [1, 2],
        ],
      ),
      game(
        'dining-cryptographers',
        [p('alice', 1, 1), p('bob', 1, -1), p('carol', -1, 1)],
        [
          [0, 2],
          [0, 2],
          [1, 2],
        ],
      ),
    ]);
    expectMetrics(entry(store, 'dining-cryptographers', 'consecutive', 'alice'), 2, {
      'consecutive:security': 2,
      'consecutive:utility': 2,
      'consecutive:attack': 2,
    });
    expectMetrics(entry(store, 'dining-cryptographers', 'consecutive', 'bob'), 2, {
      'consecutive:security': 2,
      'consecutive:utility': 0,
      'consecutive:attack': 2,
    });
    expectMetrics(entry(store, 'dining-cryptographers', 'consecutive', 'carol'), 2, {
      'consecutive:security': 0,
      'consecutive:utility': 2,
      'consecutive:attack': 0,
    });
  });

  it('skips an identified player without a score but still counts the others', () => {
    const store = run([game('psi', [p('alice', 1, 1), p('dave')])]);
    expect(rowsFor(store, 'psi', 'consecutive')).toEqual(['alice']);
    expectMetrics(entry(store, 'psi', 'consecutive', 'alice'), 1, {
      'consecutive:security': 1,
      'consecutive:utility': 1,
      'consecutive:attack': 0,
    });
  });
});

describe('ultimatum deadlock', () => {
  it('scores zeros as real games: means 0, no wins, no streaks, defend 1', () => {
    const store = run([game('ultimatum', [p('alice', 0, 0), p('bob', 0, 0)])]);
    for (const user of ['alice', 'bob']) {
      expectMetrics(entry(store, 'ultimatum', 'average', user), 1, { 'average:security': 0, 'average:utility': 0 });
      expectMetrics(entry(store, 'ultimatum', 'win-rate', user), 1, { 'win-rate:security': 0, 'win-rate:utility': 0 });
      expectMetrics(entry(store, 'ultimatum', 'red-team', user), 1, { 'red-team:attack': 0, 'red-team:defend': 1 });
      expectMetrics(entry(store, 'ultimatum', 'consecutive', user), 1, {
        'consecutive:security': 0,
        'consecutive:utility': 0,
        'consecutive:attack': 0,
      });
      expectMetrics(globalEntry(store, user), 1, { 'global-average:security': 0, 'global-average:utility': 0 });
    }
  });
});

describe('global-average', () => {
  it('is the unweighted mean over challenge types of the average metrics', () => {
    const store: Store = new Map();
    run([game('millionaire', [p('alice', 1, 1), p('bob', -1, -1)])], defaultScoringConfig, store);
    expectMetrics(globalEntry(store, 'alice'), 1, { 'global-average:security': 1, 'global-average:utility': 1 });

    run([game('psi', [p('alice', 1, 0), p('bob', 1, 1)])], defaultScoringConfig, store);
    // alice: millionaire (1, 1), psi (1, 0) → (1, 0.5); bob: (−1, −1), (1, 1) → (0, 0).
    expectMetrics(globalEntry(store, 'alice'), 2, { 'global-average:security': 1, 'global-average:utility': 0.5 });
    expectMetrics(globalEntry(store, 'bob'), 2, { 'global-average:security': 0, 'global-average:utility': 0 });

    run([game('millionaire', [p('alice', -1, 1), p('bob', 1, -1)])], defaultScoringConfig, store);
    // alice millionaire average becomes (0, 1) over 2 games; psi stays (1, 0).
    // Unweighted: ((0+1)/2, (1+0)/2) = (0.5, 0.5); a per-game mean would give security 1/3.
    expectMetrics(globalEntry(store, 'alice'), 3, { 'global-average:security': 0.5, 'global-average:utility': 0.5 });
    // bob millionaire (0, −1), psi (1, 1) → (0.5, 0).
    expectMetrics(globalEntry(store, 'bob'), 3, { 'global-average:security': 0.5, 'global-average:utility': 0 });

    run([game('psi', [p('alice', 1, 1), p(undefined, 1, 1)])], defaultScoringConfig, store);
    // alice psi average (1, 0.5) over 2; millionaire (0, 1) → (0.5, 0.75), games 2 + 2.
    expectMetrics(globalEntry(store, 'alice'), 4, { 'global-average:security': 0.5, 'global-average:utility': 0.75 });
    expect(globalEntry(store, 'alice').state.challengeCount).toBe(2);
    expect(rowsFor(store, '__global__', '__global__')).toEqual(['alice', 'bob']);
  });

  it('skips identified players that have no source entry for the type', () => {
    const store = run([game('psi', [p('alice', 1, 1), p('dave')])]);
    expect(rowsFor(store, '__global__', '__global__')).toEqual(['alice']);
    // dave exists under red-team (identified) but not under average, so no global row.
    expect(rowsFor(store, 'psi', 'red-team')).toEqual(['alice', 'dave']);
  });

  it('reads the source rows of this game, written before the global update', () => {
    const store: Store = new Map();
    const written = applyGame(store, defaultScoringConfig, game('millionaire', [p('alice', 1, 1), p('bob', -1, -1)], [[0, 1]]));
    expect(written.map((w) => `${w.challengeType}/${w.strategy}/${w.entry.playerId}`)).toEqual([
      'millionaire/average/alice',
      'millionaire/average/bob',
      'millionaire/win-rate/alice',
      'millionaire/win-rate/bob',
      'millionaire/red-team/alice',
      'millionaire/red-team/bob',
      'millionaire/consecutive/alice',
      'millionaire/consecutive/bob',
      '__global__/__global__/alice',
      '__global__/__global__/bob',
    ]);
    for (const w of written) expect(store.get(entryKey(w.challengeType, w.strategy, w.entry.playerId))).toBe(w.entry);
    expectMetrics(globalEntry(store, 'bob'), 1, { 'global-average:security': -1, 'global-average:utility': -1 });
  });

  it('only uses the configured source strategy', () => {
    // A config without `average` writes no source rows, so the global strategy has nothing to read.
    const config: ScoringConfig = { ...defaultScoringConfig, default: [], perChallenge: { psi: ['win-rate'] } };
    const store = run([game('psi', [p('alice', 1, 1), p('bob', 0, 0)])], config);
    expect(rowsFor(store, 'psi', 'win-rate')).toEqual(['alice', 'bob']);
    expect(rowsFor(store, '__global__', '__global__')).toEqual([]);
  });
});

describe('replay', () => {
  function allGames(): GameResult[] {
    return [
      ...millionaireSeries(),
      game(
        'psi',
        [p('alice', 1, 1), p('bob', -1, 0)],
        [
          [0, 1],
          [0, 1],
        ],
      ),
      game('psi', [p('carol', 1, 1), p('carol', 1, 1)]),
      game('ultimatum', [p('bob', 0, 0), p('carol', 0, 0)]),
      game('ultimatum', [p('bob', 0, 0.25), p('carol', 0, 0.35)]),
      game(
        'dining-cryptographers',
        [p('alice', 1, 1), p('bob', 1, -1), p('carol', -1, 0)],
        [
          [0, 2],
          [1, 2],
        ],
      ),
      game('psi', [p('carol', 1, 0.1), p('alice', -1, 0.7)], [[1, 0]]),
    ];
  }

  it('gives identical rows in a fresh store, and through a JSON round trip as the database does', () => {
    const games = allGames();
    const first = run(games);
    const second = run(games);
    expect(first.size).toBeGreaterThan(0);
    expect(Object.fromEntries(second)).toEqual(Object.fromEntries(first));

    // Simulate SQLite: every written row is serialised and parsed back before the next game reads it.
    const viaJson: Store = new Map();
    for (const result of games) {
      for (const w of applyGame(viaJson, defaultScoringConfig, result)) {
        viaJson.set(entryKey(w.challengeType, w.strategy, w.entry.playerId), JSON.parse(JSON.stringify(w.entry)));
      }
    }
    expect(Object.fromEntries(viaJson)).toEqual(Object.fromEntries(first));
    // Bit-identical numbers, not merely close ones.
    for (const [key, row] of first) expect(viaJson.get(key)?.metrics).toStrictEqual({ ...row.metrics });
  });

  it('drives a get/put store (the database shape) to the same rows, holding only JSON text', () => {
    const games = allGames();
    const rows = new Map<string, string>();
    const puts: string[] = [];
    const sqlLike: ScoringStoreLike = {
      get: (type, strategy, userId) => {
        const text = rows.get(entryKey(type, strategy, userId));
        return text === undefined ? undefined : (JSON.parse(text) as StrategyEntry);
      },
      put: (type, strategy, row) => {
        puts.push(`${type}/${strategy}/${row.playerId}`);
        rows.set(entryKey(type, strategy, row.playerId), JSON.stringify(row));
      },
    };
    let written = 0;
    for (const result of games) written += applyGame(sqlLike, defaultScoringConfig, result).length;
    const reference = run(games);
    expect(puts.length).toBe(written);
    expect(new Set(rows.keys())).toEqual(new Set(reference.keys()));
    for (const [key, text] of rows) expect(JSON.parse(text)).toEqual(reference.get(key));
  });

  it('does not mutate the rows it reads', () => {
    const games = allGames();
    const store = run(games.slice(0, 3));
    const snapshot = structuredClone(Object.fromEntries(store));
    const held = Object.fromEntries(store);
    run(games.slice(3), defaultScoringConfig, store);
    expect(held).toEqual(snapshot);
    // Sanity: the later games did change the store.
    expect(Object.fromEntries(store)).not.toEqual(snapshot);
  });
});
