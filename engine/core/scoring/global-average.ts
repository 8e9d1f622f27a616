// `global-average` (spec §7.2): the unweighted mean over challenge types of each user's source-strategy metrics.
// The state keeps the latest source snapshot per type (`prevScores`). The spec describes the sums as updated
// incrementally (add on first sight, then add the difference); rebuilding them from the snapshots yields the same
// totals without accumulating rounding drift, so a replay and a long-running store agree to the last bit.

import { distinctIdentified, isRecord, num } from './game.js';
import type { GlobalScoringStrategy, StrategyEntry } from './types.js';

export const GLOBAL_PREFIX = 'global-average';

interface TypeSnapshot {
  metrics: Record<string, number>;
  gamesPlayed: number;
}

/** `average:security` → `global-average:security`; a key without a strategy prefix is kept whole as the metric. */
export function toGlobalKey(sourceKey: string): string {
  const colon = sourceKey.indexOf(':');
  return `${GLOBAL_PREFIX}:${colon === -1 ? sourceKey : sourceKey.slice(colon + 1)}`;
}

// Stored strings (types, metric keys) go through Maps and Object.fromEntries, so a key such as `__proto__`
// stays an ordinary own property instead of touching the prototype.
function readMetrics(value: unknown): Record<string, number> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, metric]) => [key, num(metric)]));
}

function readSnapshots(state: Record<string, unknown> | undefined): Map<string, TypeSnapshot> {
  const out = new Map<string, TypeSnapshot>();
  const raw = state?.prevScores;
  if (!isRecord(raw)) return out;
  for (const [type, snapshot] of Object.entries(raw)) {
    if (!isRecord(snapshot)) continue;
    out.set(type, { metrics: readMetrics(snapshot.metrics), gamesPlayed: num(snapshot.gamesPlayed) });
  }
  return out;
}

function build(playerId: string, prevScores: Map<string, TypeSnapshot>): StrategyEntry {
  const challengeCount = prevScores.size;
  const sums = new Map<string, number>();
  let gamesPlayed = 0;
  for (const snapshot of prevScores.values()) {
    gamesPlayed += snapshot.gamesPlayed;
    for (const [key, value] of Object.entries(snapshot.metrics)) {
      const globalKey = toGlobalKey(key);
      sums.set(globalKey, (sums.get(globalKey) ?? 0) + value);
    }
  }
  // A type lacking a key contributes 0 to it, as in the incremental form.
  const metrics = Object.fromEntries([...sums].map(([key, sum]) => [key, sum / challengeCount]));
  return {
    playerId,
    gamesPlayed,
    metrics,
    state: { prevScores: Object.fromEntries(prevScores), sums: Object.fromEntries(sums), challengeCount },
  };
}

export const globalAverage: GlobalScoringStrategy = {
  name: 'global-average',
  metrics: [
    { key: 'global-average:security', label: 'Security' },
    { key: 'global-average:utility', label: 'Utility' },
  ],
  update(result, read, sourceRead) {
    const out: StrategyEntry[] = [];
    for (const { userId } of distinctIdentified(result)) {
      const source = sourceRead(userId);
      if (source === undefined) continue;
      const prevScores = readSnapshots(read(userId)?.state);
      // Map.set keeps the first-seen position of an existing type, so key order is stable across updates.
      prevScores.set(result.challengeType, { metrics: readMetrics(source.metrics), gamesPlayed: num(source.gamesPlayed) });
      out.push(build(userId, prevScores));
    }
    return out;
  },
};
