// Scoring module (spec §7): the strategy registry, the configuration and a pure in-memory driver. The SQLite
// layer reuses the same pieces with readers over its tables, so every rule lives here.
import type { GameResult } from '../../contract/specarena.js';
import { average } from './average.js';
import { consecutive } from './consecutive.js';
import { isSelfPlay } from './game.js';
import { globalAverage } from './global-average.js';
import { redTeam } from './red-team.js';
import type { ChallengeScoringStrategy, ChallengeStrategyName, EntryReader, StrategyEntry } from './types.js';
import { winRate } from './win-rate.js';

export type {
  ChallengeScoringStrategy,
  ChallengeStrategyName,
  EntryReader,
  GlobalScoringStrategy,
  GlobalStrategyName,
  StrategyEntry,
} from './types.js';
export { globalAverage, isSelfPlay };

export const challengeStrategies: Record<ChallengeStrategyName, ChallengeScoringStrategy> = {
  average,
  'win-rate': winRate,
  'red-team': redTeam,
  consecutive,
};

/** Global rows are stored under this challenge type and strategy name (spec §5.5). */
export const GLOBAL_KEY = '__global__';

export interface ScoringConfig {
  default: string[];
  global: 'global-average';
  globalSource: 'average';
  perChallenge: Record<string, string[]>;
}

export const defaultScoringConfig: ScoringConfig = {
  default: ['average'],
  global: 'global-average',
  globalSource: 'average',
  perChallenge: {
    psi: ['win-rate', 'red-team', 'consecutive'],
    ultimatum: ['win-rate', 'red-team', 'consecutive'],
    millionaire: ['win-rate', 'red-team', 'consecutive'],
    'dining-cryptographers': ['win-rate', 'consecutive'],
  },
};

function isChallengeStrategyName(name: string): name is ChallengeStrategyName {
  return Object.hasOwn(challengeStrategies, name);
}

/** `unique(default ++ perChallenge[type])` in that order; a name that is not a per-challenge strategy is a config error. */
export function strategiesFor(config: ScoringConfig, challengeType: string): ChallengeScoringStrategy[] {
  const own = Object.hasOwn(config.perChallenge, challengeType) ? (config.perChallenge[challengeType] ?? []) : [];
  const names = [...new Set([...config.default, ...own])];
  return names.map((name) => {
    if (!isChallengeStrategyName(name)) {
      const known = Object.keys(challengeStrategies).join(', ');
      throw new Error(`Unknown scoring strategy "${name}" for challenge type "${challengeType}" (known: ${known})`);
    }
    return challengeStrategies[name];
  });
}

export function entryKey(challengeType: string, strategy: string, userId: string): string {
  return `${challengeType}\u0000${strategy}\u0000${userId}`;
}

export interface WrittenEntry {
  challengeType: string;
  strategy: string;
  entry: StrategyEntry;
}

/** Storage seen by the driver: the SQLite repository implements this directly; a Map is adapted below. */
export interface ScoringStoreLike {
  get(challengeType: string, strategy: string, userId: string): StrategyEntry | undefined;
  put(challengeType: string, strategy: string, entry: StrategyEntry): void;
}

function mapStore(map: Map<string, StrategyEntry>): ScoringStoreLike {
  return {
    get: (challengeType, strategy, userId) => map.get(entryKey(challengeType, strategy, userId)),
    put: (challengeType, strategy, entry) => {
      map.set(entryKey(challengeType, strategy, entry.playerId), entry);
    },
  };
}

function readerOver(store: ScoringStoreLike, challengeType: string, strategy: string): EntryReader {
  return (userId) => store.get(challengeType, strategy, userId);
}

/**
 * Applies one game to `target` (spec §7.1 `recordGame`): self-play is skipped entirely; otherwise each challenge
 * strategy runs in configured order, then the global strategy, which reads the source rows just written.
 * `target` is either an in-memory Map keyed by `entryKey` or a store with get/put (the database).
 * Returns the written entries in write order; global rows carry challengeType = strategy = `__global__`.
 */
export function applyGame(
  target: Map<string, StrategyEntry> | ScoringStoreLike,
  config: ScoringConfig,
  result: GameResult,
): WrittenEntry[] {
  const store = target instanceof Map ? mapStore(target) : target;
  // Resolve first so a bad configuration fails before anything is written, self-play or not.
  // The config may come from a user file, so its literal types are not a guarantee.
  if (config.global !== 'global-average') throw new Error(`Unknown global scoring strategy "${String(config.global)}"`);
  const strategies = strategiesFor(config, result.challengeType);
  if (isSelfPlay(result)) return [];
  const written: WrittenEntry[] = [];
  const write = (challengeType: string, strategy: string, entry: StrategyEntry): void => {
    store.put(challengeType, strategy, entry);
    written.push({ challengeType, strategy, entry });
  };
  for (const strategy of strategies) {
    const entries = strategy.update(result, readerOver(store, result.challengeType, strategy.name));
    for (const entry of entries) write(result.challengeType, strategy.name, entry);
  }
  const globalEntries = globalAverage.update(
    result,
    readerOver(store, GLOBAL_KEY, GLOBAL_KEY),
    readerOver(store, result.challengeType, config.globalSource),
  );
  for (const entry of globalEntries) write(GLOBAL_KEY, GLOBAL_KEY, entry);
  return written;
}
