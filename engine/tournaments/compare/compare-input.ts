// What a comparison reads of a stored run: the parts of its report.json that compare.ts uses, built from the run's
// statistics and one pass over its games instead of writing every export file and parsing report.json back (at
// 100,000 games that was 448 MB written and a 200 MB JSON document read per side).

import type { ExportInput } from '../exports/export-input.js';
import { gameEntry } from '../exports/exports.js';
import { ratingsForExport } from '../results/stats.js';
import type { ComparableGame, ComparableReport } from './compare.js';

/** The same values report.json carries under these keys (JSON round trip included: no undefined, no Infinity). */
export async function comparableReport(input: ExportInput): Promise<ComparableReport> {
  const { tournament, agentIds, stats } = input;
  const head = JSON.parse(
    JSON.stringify({
      id: tournament.id,
      name: tournament.name,
      manifest_hash: tournament.manifestHash,
      manifest: tournament.manifest,
      standings: { combined: stats.standings.combined },
      ratings: { combined: (ratingsForExport(stats.ratings) as { combined?: unknown }).combined },
    }),
  ) as Omit<ComparableReport, 'games'>;
  const games: ComparableGame[] = [];
  for (const row of input.games.each()) {
    const entry = gameEntry(row, agentIds);
    games.push({
      game_index: entry.game_index,
      challenge: entry.challenge,
      seed: entry.seed,
      seats: entry.seats,
      termination: entry.termination,
      counts: row.counts,
      placements: entry.placements,
      result: entry.result,
    });
    await input.games.pace();
  }
  return { ...head, games };
}
