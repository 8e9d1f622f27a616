// Scoring against the SQLite store: the pure strategies of engine/core/scoring run on entries read from and written to the database.
import type { GameResult, ScoringEntry, UserProfile } from '../../contract/specarena.js';
import {
  applyGame,
  defaultScoringConfig,
  entryKey,
  type ScoringConfig,
  type ScoringStoreLike,
  strategiesFor,
} from '../../core/scoring/index.js';
import { GLOBAL_KEY, type Store, type StoredScoringEntry } from '../../db/store.js';
import { gameResultOf } from './game-result.js';

function storeAdapter(store: Store): ScoringStoreLike {
  return {
    get: (challengeType, strategy, userId) => store.scoring.get(challengeType, strategy, userId),
    put: (challengeType, strategy, entry) => store.scoring.put(challengeType, strategy, entry),
  };
}

/**
 * Applies one finished game; must run inside the transaction that ended it. The players' rows are read in one
 * statement and the game's entries written in one, not one of each per strategy and player (bench:api).
 */
export function recordGameScores(store: Store, result: GameResult, config: ScoringConfig = defaultScoringConfig): void {
  const players = [...new Set(Object.values(result.playerIdentities).filter((id) => typeof id === 'string' && id.length > 0))];
  const types = [result.challengeType, GLOBAL_KEY] as const;
  const known = new Map<string, StoredScoringEntry>();
  for (const row of store.scoring.ofPlayers(types, players))
    known.set(entryKey(row.challengeType, row.strategy, row.entry.playerId), row.entry);
  const prefetched = (challengeType: string, userId: string) => types.includes(challengeType) && players.includes(userId);
  const pending: Array<{ challengeType: string; strategy: string; entry: StoredScoringEntry }> = [];
  applyGame(
    {
      // A row outside the prefetched players and types (no strategy reads one today) is still read from the store.
      get: (challengeType, strategy, userId) =>
        prefetched(challengeType, userId)
          ? known.get(entryKey(challengeType, strategy, userId))
          : store.scoring.get(challengeType, strategy, userId),
      put: (challengeType, strategy, entry) => {
        known.set(entryKey(challengeType, strategy, entry.playerId), entry);
        pending.push({ challengeType, strategy, entry });
      },
    },
    config,
    result,
  );
  store.scoring.putMany(pending);
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
