// Scoring against the SQLite store: the pure strategies of engine/core/scoring run on entries read from and written to the database.
import type { GameResult, ScoringEntry, UserProfile } from '../../contract/specarena.js';
import { applyGame, defaultScoringConfig, type ScoringConfig, type ScoringStoreLike, strategiesFor } from '../../core/scoring/index.js';
import { GLOBAL_KEY, type Store, type StoredScoringEntry } from '../../db/store.js';
import { gameResultOf } from './game-result.js';

function storeAdapter(store: Store): ScoringStoreLike {
  return {
    get: (challengeType, strategy, userId) => store.scoring.get(challengeType, strategy, userId),
    put: (challengeType, strategy, entry) => store.scoring.put(challengeType, strategy, entry),
  };
}

/** Applies one finished game; must run inside the transaction that ended it. */
export function recordGameScores(store: Store, result: GameResult, config: ScoringConfig = defaultScoringConfig): void {
  applyGame(storeAdapter(store), config, result);
}

/** Rebuilds every metric from the stored ended sessions, in completion order, in one transaction. */
export function recomputeScores(store: Store, config: ScoringConfig = defaultScoringConfig): { games: number } {
  return store.transaction(() => {
    store.scoring.clear();
    let games = 0;
    for (const session of store.sessions.endedInCompletionOrder()) {
      applyGame(storeAdapter(store), config, gameResultOf(session));
      games++;
    }
    return { games };
  });
}

function enrich(entry: StoredScoringEntry, profiles: Record<string, UserProfile>): ScoringEntry {
  const out: ScoringEntry = { playerId: entry.playerId, gamesPlayed: entry.gamesPlayed, metrics: entry.metrics };
  const profile = profiles[entry.playerId];
  if (profile?.username !== undefined) out.username = profile.username;
  if (profile?.model !== undefined) out.model = profile.model;
  if (profile?.isBenchmark !== undefined) out.isBenchmark = profile.isBenchmark;
  return out;
}

export function createScoringReader(store: Store, config: ScoringConfig = defaultScoringConfig) {
  const withProfiles = (entries: StoredScoringEntry[]) => {
    const profiles = store.users.getMany(entries.map((e) => e.playerId));
    return entries.map((e) => enrich(e, profiles));
  };
  return {
    global(): ScoringEntry[] {
      return withProfiles(store.scoring.list(GLOBAL_KEY, GLOBAL_KEY));
    },
    byType(challengeType: string): Record<string, ScoringEntry[]> {
      const out: Record<string, ScoringEntry[]> = {};
      for (const strategy of strategiesFor(config, challengeType)) {
        const entries = store.scoring.list(challengeType, strategy.name);
        if (entries.length > 0) out[strategy.name] = withProfiles(entries);
      }
      return out;
    },
    forUser(userId: string): { global: ScoringEntry | null; challenges: Record<string, Record<string, ScoringEntry>> } {
      const profiles = store.users.getMany([userId]);
      let global: ScoringEntry | null = null;
      const challenges: Record<string, Record<string, ScoringEntry>> = {};
      for (const row of store.scoring.forPlayer(userId)) {
        const entry = enrich(row.entry, profiles);
        if (row.challengeType === GLOBAL_KEY) global = entry;
        else {
          const perType = challenges[row.challengeType] ?? {};
          perType[row.strategy] = entry;
          challenges[row.challengeType] = perType;
        }
      }
      return { global, challenges };
    },
  };
}

export type ScoringReader = ReturnType<typeof createScoringReader>;
