// Shapes shared by the scoring strategies (spec §7). Pure data: the SQLite layer and the in-memory driver both
// build readers over their own storage and hand them to the same `update` functions.
import type { GameResult, MetricDescriptor, ScoringStrategyName } from '../../contract/specarena.js';

export type ChallengeStrategyName = Exclude<ScoringStrategyName, 'global-average'>;
export type GlobalStrategyName = Extract<ScoringStrategyName, 'global-average'>;

/** One row per (challengeType, strategy, userId). */
export interface StrategyEntry {
  /** Always a userId, never an invite. */
  playerId: string;
  gamesPlayed: number;
  /** Keyed `<strategy>:<metric>`, e.g. `average:security`. */
  metrics: Record<string, number>;
  /** Strategy-private, JSON-serialisable (sums, counts, prevScores...). */
  state: Record<string, unknown>;
}

export type EntryReader = (userId: string) => StrategyEntry | undefined;

export interface ChallengeScoringStrategy {
  name: ChallengeStrategyName;
  metrics: MetricDescriptor[];
  /** Returns the entries to write (new or updated) for this game. Never mutates what `read` returns. */
  update(result: GameResult, read: EntryReader): StrategyEntry[];
}

export interface GlobalScoringStrategy {
  name: GlobalStrategyName;
  metrics: MetricDescriptor[];
  /**
   * `sourceRead(userId)` returns that user's entry under the `globalSource` strategy for `result.challengeType`,
   * after the per-challenge strategies of this game were applied.
   */
  update(result: GameResult, read: EntryReader, sourceRead: EntryReader): StrategyEntry[];
}
