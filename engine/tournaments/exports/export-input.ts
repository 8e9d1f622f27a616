// What every export file is made from: the stored run, its statistics, its games as of one moment, and the local
// folders to keep out.

import type { Store, StoredAgentLifecycle, StoredTournament, StoredTournamentGame } from '../../db/store.js';
import { runTally } from '../results/game-commit.js';
import { type ModelServerUse, runModelServerUse } from '../results/model-server-use.js';
import { type AgentUsage, agentUsageOf } from '../results/model-usage.js';
import type { RunStatistics } from '../results/stats.js';
import type { LocalRoot } from './path-redaction.js';

/** The run's games, read one at a time. */
export interface ExportGames {
  /** Every committed attempt in commit order; `counts`: it is its game's latest attempt. */
  each(): Iterable<StoredTournamentGame & { counts: boolean }>;
  /** The same with each attempt's parsed transcript. */
  eachWithTranscript(): Iterable<StoredTournamentGame & { transcript: unknown[] }>;
  /** Awaited between games: lets the rest of the engine run now and then during a long export. */
  pace(): Promise<void> | undefined;
}

export interface ExportInput {
  tournament: StoredTournament;
  agentIds: readonly string[];
  stats: RunStatistics;
  summary: Record<string, unknown> | null;
  /** Each agent's model usage over every attempt it sat in (void ones too: they were paid for). */
  usage: ReadonlyArray<AgentUsage | null>;
  /** Warm agents' processes, restarts and retirement over the run; null without any. */
  lifecycles: StoredAgentLifecycle[] | null;
  games: ExportGames;
  /** Each model server's calls, queueing and utilisation over the run (model-server-use.ts); null without any. */
  modelServers?: ModelServerUse[] | null;
  /** Local folders to keep out of the files (see path-redaction.ts); none: written as they are. */
  roots?: readonly LocalRoot[];
}

/** How long an export holds the event loop before it lets other work run (agents' requests, the UI, timers). */
const SLICE_MS = 10;

/**
 * The export input of a tournament as it stands now: everything read in this one synchronous step, the games from a
 * snapshot of the database (so games committed while the files are written stay out of all of them, as they stay out
 * of the statistics). `close` must be called when the files are written. Without a snapshot (an in-memory database)
 * the games are read from the store itself, and the export never pauses: nothing else may run on that connection
 * while its cursor is open.
 */
export function exportInput(
  store: Store,
  base: Pick<ExportInput, 'tournament' | 'agentIds' | 'stats' | 'summary' | 'roots'>,
): { input: ExportInput; close(): void } {
  const id = base.tournament.id;
  const usage = agentUsageOf(runTally(store, id).usage);
  const lifecycles = store.lifecycles.get(id);
  const servers = runModelServerUse(store, id);
  const snapshot = store.readSnapshot();
  const source = snapshot?.tournaments ?? store.tournaments;
  let since = performance.now();
  const games: ExportGames = {
    each: () => source.eachGame(id),
    eachWithTranscript: () => source.eachGameWithTranscript(id),
    pace() {
      if (snapshot === null || performance.now() - since < SLICE_MS) return undefined;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          since = performance.now();
          resolve();
        }),
      );
    },
  };
  return {
    input: { ...base, usage, lifecycles, games, modelServers: servers.length > 0 ? servers : null },
    close: () => snapshot?.close(),
  };
}
