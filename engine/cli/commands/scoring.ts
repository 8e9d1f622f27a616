// `arena scoring recompute`: rebuilds all metrics from stored results (must equal the incremental numbers).
import path from 'node:path';
import { openStore } from '../../db/store.js';
import { recomputeScores } from '../../protocols/specarena/scoring-service.js';
import { resolveDataDir } from '../../runtime/data-dir.js';
import { parseFlags, UsageError } from '../args.js';

export const SCORING_HELP = `Usage: arena scoring recompute [--data-dir DIR] [--json]

Rebuild every leaderboard metric from the stored game results (the same numbers the engine keeps up as games end).

Options:
  --data-dir DIR   data directory (default: $ARENA_DATA_DIR, else the OS user-data folder)
  --json           print one JSON line {"event":"recomputed","games":N}
`;

export async function scoringCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, { 'data-dir': 'string', json: 'boolean', help: 'boolean' });
  if (flags.help) {
    process.stdout.write(SCORING_HELP);
    return 0;
  }
  if (positionals[0] !== 'recompute' || positionals.length > 1)
    throw new UsageError('usage: arena scoring recompute [--data-dir DIR] [--json]');
  const dataDir = resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined);
  const store = openStore({ file: path.join(dataDir, 'arena.sqlite') });
  try {
    const { games } = recomputeScores(store);
    process.stdout.write(
      flags.json ? `${JSON.stringify({ event: 'recomputed', games })}\n` : `Recomputed scoring from ${games} ended games.\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}
