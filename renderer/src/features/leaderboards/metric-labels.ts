// Column labels and ordering for scoring tables, taken from the scoring strategies' own metric descriptors.
import type { ScoringEntry } from '../../../../engine/contract/specarena.js';
import { challengeStrategies, globalAverage } from '../../../../engine/core/scoring/index.js';
import { humanizeKey } from '../../ui/format.js';

const DESCRIPTORS = [...Object.values(challengeStrategies), globalAverage].flatMap((strategy) => strategy.metrics);
const LABELS = new Map(DESCRIPTORS.map((d) => [d.key, d.label]));
const ORDER = new Map(DESCRIPTORS.map((d, i) => [d.key, i]));

const STRATEGY_LABELS: Record<string, string> = {
  average: 'Average scores',
  'win-rate': 'Win rates',
  'red-team': 'Red team',
  consecutive: 'Streaks',
  'global-average': 'Overall',
};

export function metricLabel(key: string): string {
  return LABELS.get(key) ?? humanizeKey(key);
}

export function strategyLabel(name: string): string {
  return STRATEGY_LABELS[name] ?? humanizeKey(name);
}

/** Every metric present in the entries, known ones in descriptor order, unknown ones after them alphabetically. */
export function metricColumns(entries: readonly ScoringEntry[]): string[] {
  const keys = new Set(entries.flatMap((e) => Object.keys(e.metrics)));
  return [...keys].sort(
    (a, b) => (ORDER.get(a) ?? Number.MAX_SAFE_INTEGER) - (ORDER.get(b) ?? Number.MAX_SAFE_INTEGER) || a.localeCompare(b),
  );
}

/** Highest first on the chosen metric; ties by games played, then name, so the order is stable between refreshes. */
export function rankEntries(entries: readonly ScoringEntry[], sortKey: string | undefined): ScoringEntry[] {
  return [...entries].sort((a, b) => {
    const av = sortKey ? (a.metrics[sortKey] ?? Number.NEGATIVE_INFINITY) : 0;
    const bv = sortKey ? (b.metrics[sortKey] ?? Number.NEGATIVE_INFINITY) : 0;
    return bv - av || b.gamesPlayed - a.gamesPlayed || a.playerId.localeCompare(b.playerId);
  });
}
