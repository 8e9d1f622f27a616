// The exports of a run in <data-dir>/reports/<tournament-id>/ (issue 5 §6, issue 15): report.md, report.json,
// standings.csv, games.csv, manifest.json and events.jsonl. The JSON files and report.md carry the run manifest; the
// CSVs start with their header row (the manifest is in manifest.json beside them). No file names a local folder.
// The per-game parts are streamed from a cursor, a game at a time, so a 100,000-game run exports in bounded memory.
import path from 'node:path';
import { inertJson, inertText } from '../../core/inert-text.js';
import type { StoredTournamentGame } from '../../db/store.js';
import { ensurePrivateDir, writePrivateFile } from '../../runtime/private-files.js';
import type { AgentUsage } from '../results/model-usage.js';
import { countedResult, type RunStatistics, ratedJudge, ratingsForExport } from '../results/stats.js';
import { standingsCsv, writeGamesCsv } from './export-csv.js';
import { writeEventsJsonl } from './export-events.js';
import type { ExportInput } from './export-input.js';
import { reportMarkdown } from './export-markdown.js';
import { streamFile, sweepStalePartials } from './export-stream.js';
import { pathRedactor } from './path-redaction.js';

export type { ExportInput } from './export-input.js';

export function reportDir(dataDir: string, tournamentId: string): string {
  return path.join(dataDir, 'reports', tournamentId);
}

export function gameEntry(row: StoredTournamentGame, agentIds: readonly string[]) {
  return {
    id: `${row.tournamentId}/${row.gameIndex}`,
    game_index: row.gameIndex,
    attempt: row.attempt,
    key: row.gameKey,
    challenge: row.challenge,
    round: row.round,
    seats: row.seats.map((a) => agentIds[a] ?? String(a)),
    seed: row.seed,
    swap_of: row.swapOf,
    set_size: row.setSize,
    session_id: row.sessionId,
    /** What the game counts as (a forfeit: faulted seats last), as the standings and every view read it. */
    placements: countedResult(row).placements,
    forfeit: countedResult(row).forfeit,
    /** The raw record: what the challenge reported and who was at fault. */
    result: { placements: row.placements, faulted_seats: row.faultedSeats },
    scores: row.scores,
    model_usage: row.usage ?? null,
    isolation: row.isolation ?? null,
    termination: row.termination,
    fault: row.fault,
    detail: row.detail,
    started_at: row.startedAt,
    ended_at: row.endedAt,
    /** The game worker that played the attempt (null: the coordinator did), its public key and record signature. */
    worker_id: row.workerId ?? null,
    worker_key: row.workerKey ?? null,
    worker_signature: row.workerSignature ?? null,
  };
}

/**
 * report.json as JSON.stringify(report, null, 2) would print it, with `games` (the last key) written one game at a
 * time: each entry is printed on its own and indented to its depth, which is exactly how the whole would print.
 * Resolves to the most seats any attempt had (games.csv's columns), seen on the way instead of in a pass of its own.
 */
async function writeReportJson(file: string, input: ExportInput, redact: (text: string) => string): Promise<number> {
  const { tournament, agentIds, stats, lifecycles } = input;
  const head = JSON.stringify(
    {
      id: tournament.id,
      name: tournament.name,
      status: tournament.status,
      stop_reason: tournament.stopReason || null,
      // The definition as the run manifest holds it (portable manifest paths), not as this machine stored it.
      spec: (tournament.manifest as { spec?: unknown }).spec ?? null,
      manifest: tournament.manifest,
      manifest_hash: tournament.manifestHash,
      // Warm agents' processes, restarts and retirement over the whole run (resumes included); absent without any.
      ...(lifecycles ? { agent_lifecycles: lifecycles } : {}),
      // Model servers' calls, queueing and utilisation (engine/tournaments/results/model-server-use.ts); absent without any.
      ...(input.modelServers ? { model_servers: input.modelServers } : {}),
      standings: withUsage(stats.standings, agentIds, input.usage),
      ratings: { ...ratingsForExport(stats.ratings), sprt: stats.sprt, format: input.summary },
      terminations: stats.terminations,
      // Which finished games are rated, and why the others are not; each game below carries its own `rated`.
      rated_games: stats.rated_games,
      warnings: stats.warnings,
      games: [],
    },
    null,
    2,
  );
  const EMPTY_TAIL = '[]\n}';
  if (!head.endsWith(EMPTY_TAIL)) throw new Error('report.json: games must be the last key');
  let widest = 0;
  const judge = ratedJudge(stats);
  await streamFile(file, redact, async (write) => {
    let first = true;
    for (const row of input.games.each()) {
      widest = Math.max(widest, row.seats.length);
      const unrated = judge(row);
      const entry = JSON.stringify(
        { ...gameEntry(row, agentIds), counts: row.counts, rated: unrated === null, unrated_reason: unrated },
        null,
        2,
      ).replaceAll('\n', '\n    ');
      write(first ? `${head.slice(0, -EMPTY_TAIL.length)}[\n    ${entry}` : `,\n    ${entry}`);
      first = false;
      await input.games.pace();
    }
    write(first ? `${head}\n` : '\n  ]\n}\n');
  });
  return widest;
}

/** Adds each agent's model-usage totals (every attempt it sat in: void games cost too) to the combined standings. */
function withUsage(standings: RunStatistics['standings'], agentIds: readonly string[], usage: ReadonlyArray<AgentUsage | null>) {
  if (usage.every((u) => u === null)) return standings;
  const byId = new Map(agentIds.map((id, i) => [id, usage[i] ?? null]));
  return { ...standings, combined: standings.combined.map((row) => ({ ...row, model_usage: byId.get(row.agent) ?? null })) };
}

/** manifest.json: the run manifest and its hash, beside the CSVs (they carry no comment lines). */
export function manifestJson(input: ExportInput): string {
  const t = input.tournament;
  return `${JSON.stringify({ tournament_id: t.id, manifest_hash: t.manifestHash, manifest: t.manifest }, null, 2)}\n`;
}

/** Writes every export file of `input` into the run's report folder; resolves to the folder. */
export async function writeExports(dataDir: string, input: ExportInput): Promise<string> {
  const dir = reportDir(dataDir, input.tournament.id);
  ensurePrivateDir(path.dirname(dir));
  ensurePrivateDir(dir);
  sweepStalePartials(dir);
  const redact = pathRedactor(input.roots ?? []);
  // Output is inert (core/inert-text.ts): JSON keeps its values, escaped; markdown shows escapes; CSV does it per cell.
  const json = (text: string) => inertJson(redact(text));
  const write = (name: string, text: string) => writePrivateFile(path.join(dir, name), text);
  const widest = await writeReportJson(path.join(dir, 'report.json'), input, json);
  await writeEventsJsonl(path.join(dir, 'events.jsonl'), input, json);
  write('report.md', inertText(redact(await reportMarkdown(input))));
  write('standings.csv', redact(standingsCsv(input)));
  await writeGamesCsv(path.join(dir, 'games.csv'), input, redact, widest);
  write('manifest.json', json(manifestJson(input)));
  return dir;
}
