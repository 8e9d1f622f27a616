// ClawArena store: agents, hashed tokens, lobby queue, matches, seats, event log, idempotency and decision-context
// cursors, one repo composed of a module per concern (their rows and shapes in clawarena-rows.ts).
import type Database from 'better-sqlite3';
import { createClawAgentRepo } from './clawarena-agents.js';
import { createClawContextRepo } from './clawarena-contexts.js';
import { createClawMatchRepo } from './clawarena-matches.js';

export type {
  ClawMatchStatus,
  StoredClawAgent,
  StoredClawContext,
  StoredClawEvent,
  StoredClawMatch,
  StoredClawSeat,
  StoredClawToken,
} from './clawarena-rows.js';

export function createClawArenaRepo(db: Database.Database) {
  return {
    ...createClawAgentRepo(db),
    ...createClawMatchRepo(db),
    ...createClawContextRepo(db),

    /** Deletes every ClawArena row (the test reset hook). */
    clear(): void {
      db.exec(`DELETE FROM clawarena_states; DELETE FROM clawarena_contexts; DELETE FROM clawarena_idempotency; DELETE FROM clawarena_events;
        DELETE FROM clawarena_seats; DELETE FROM clawarena_queue; DELETE FROM clawarena_matches; DELETE FROM clawarena_tokens;
        DELETE FROM clawarena_agents;`);
    },
  };
}

export type ClawArenaRepo = ReturnType<typeof createClawArenaRepo>;
