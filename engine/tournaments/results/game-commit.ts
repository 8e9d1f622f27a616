// The one place a finished game attempt is committed: its row, the tournament's counts and the run tally go into
// the database in one transaction, so whatever executes games (the local executor, a queue of workers) keeps the
// standings, SPRT state and charts right, and a kill -9 between two commits leaves all of them consistent.
import type { ModelCallRecord } from '../../contract/model-call.js';
import type { NewTournamentGame, Store, StoredTournamentGame } from '../../db/store.js';
import { cacheAnswers } from '../model-cache.js';
import { emptyRunTally, foldAttempt, isSettled, RUN_TALLY_VERSION, type RunTally, tallyOfOrderedRows } from './run-tally.js';

/** Parsed tallies per store and tournament, reused while the stored one covers the same attempts. */
const cache = new WeakMap<Store, Map<string, RunTally>>();

function cached(store: Store): Map<string, RunTally> {
  let map = cache.get(store);
  if (!map) {
    map = new Map();
    cache.set(store, map);
  }
  return map;
}

/** Writes the tally: the chart's trace goes in its own column, and only when a sample was taken (`withTrace`). */
function save(store: Store, tournamentId: string, t: RunTally, withTrace: boolean): void {
  const state = JSON.stringify({ ...t, chart: { ...t.chart, trace: [] } });
  store.tournaments.saveTally(tournamentId, t.attempts, state, withTrace ? JSON.stringify(t.chart.trace) : undefined);
}

function agentCountOf(store: Store, tournamentId: string): number {
  const t = store.tournaments.get(tournamentId);
  if (!t) throw new Error(`no tournament ${tournamentId}`);
  return Array.isArray(t.spec.agents) ? t.spec.agents.length : 0;
}

/**
 * The run tally as committed, current with every attempt: from the cache when the stored tally covers the attempts
 * the cache does, parsed when another writer moved it on, rebuilt from the games (once, from a cursor) when it is
 * missing, of another version, or behind the tournament's attempt count (rows stored before tallies existed).
 */
export function runTally(store: Store, tournamentId: string): RunTally {
  return store.transaction(() => {
    const attempts = store.tournaments.gameAttempts(tournamentId);
    const map = cached(store);
    const hit = map.get(tournamentId);
    const stored = store.tournaments.tallyAttempts(tournamentId);
    if (hit && hit.attempts === attempts && stored === attempts) return hit;
    let tally: RunTally | null = null;
    if (stored === attempts) {
      const row = store.tournaments.tally(tournamentId);
      const parsed = row ? (JSON.parse(row.state) as RunTally) : null;
      if (row && parsed && parsed.version === RUN_TALLY_VERSION && parsed.attempts === attempts) {
        parsed.chart.trace = JSON.parse(row.trace) as RunTally['chart']['trace'];
        tally = parsed;
      }
    }
    if (!tally) {
      const count = agentCountOf(store, tournamentId);
      tally = attempts === 0 ? emptyRunTally(count) : tallyOfOrderedRows(store.tournaments.eachGame(tournamentId), count);
      save(store, tournamentId, tally, true);
    }
    map.set(tournamentId, tally);
    return tally;
  });
}

/**
 * Commits one finished attempt with its counts and its fold into the run tally, in one transaction; a refusal
 * (a duplicate attempt, a full disk) rolls all of it back and is rethrown. Returns the stored row.
 */
export function commitGame(
  store: Store,
  record: NewTournamentGame,
  modelCalls?: ReadonlyArray<readonly ModelCallRecord[] | null> | null,
): StoredTournamentGame {
  const map = cached(store);
  try {
    return store.transaction(() => {
      const tally = runTally(store, record.tournamentId);
      const { seq, previous } = store.tournaments.insertGame(record, isSettled(record));
      modelCalls?.forEach((calls, seat) => {
        if (!calls || calls.length === 0) return;
        store.modelCalls.add(record.tournamentId, record.gameIndex, record.attempt, seat, calls);
        // Stamped with the game's end on the run's clock (the engine's injected one), not the wall clock.
        cacheAnswers(store, record.tournamentId, calls, record.endedAt);
      });
      const { transcript: _transcript, ...stored } = record;
      const row: StoredTournamentGame = { ...stored, seq };
      const trace = tally.chart.trace;
      const sampled = trace.length;
      foldAttempt(tally, row, previous?.termination ?? null);
      // A sample taken (or the trace thinned) changes the trace; otherwise only the small state is written.
      save(store, record.tournamentId, tally, tally.chart.trace !== trace || tally.chart.trace.length !== sampled);
      return row;
    });
  } catch (error) {
    // The cached tally may hold the fold of the attempt that was rolled back.
    map.delete(record.tournamentId);
    throw error;
  }
}
