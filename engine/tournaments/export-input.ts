// What every export file is made from: the stored run, its statistics, and the local folders to keep out.

import type { Store, StoredTournament } from '../db/store.js';
import type { LocalRoot } from './path-redaction.js';
import type { RunStatistics } from './stats.js';

export interface ExportInput {
  store: Store;
  tournament: StoredTournament;
  agentIds: readonly string[];
  stats: RunStatistics;
  summary: Record<string, unknown> | null;
  /** Local folders to keep out of the files (see path-redaction.ts); none: written as they are. */
  roots?: readonly LocalRoot[];
}
