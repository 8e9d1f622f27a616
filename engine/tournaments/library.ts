// The tournaments list as a long study needs it (issue 16): search/filter/archive/delete, one game exported on its
// own or played again as a new one-game run, and a duration estimate before Start from measured game times.
import fs from 'node:fs';
import { DomainError } from '../contract/errors.js';
import type { RunEstimate, TournamentSummary } from '../contract/tournament.js';
import { inertJson } from '../core/inert-text.js';
import type { TournamentSpec } from '../core/tournament/index.js';
import { estimateDuration } from '../core/tournament/run-estimate.js';
import type { TournamentStatus } from '../db/store.js';
import { gameEvents } from './exports/export-events.js';
import { gameEntry, reportDir } from './exports/exports.js';
import { localRoots, pathRedactor } from './exports/path-redaction.js';
import type { TournamentService } from './service.js';
import { TournamentStateError } from './service.js';

export interface LibraryQuery {
  q?: string | undefined;
  status?: TournamentStatus | undefined;
  archived: 'exclude' | 'only' | 'include';
  limit: number;
  offset: number;
}

export function listTournaments(service: TournamentService, query: LibraryQuery): { tournaments: TournamentSummary[]; total: number } {
  const page = service.store.tournamentLibrary.search({
    ...(query.q === undefined ? {} : { text: query.q.trim() }),
    ...(query.status === undefined ? {} : { status: query.status }),
    archived: query.archived,
    limit: query.limit,
    offset: query.offset,
  });
  return { tournaments: page.items.map((t) => service.summary(t.id)), total: page.total };
}

/** A running run cannot be archived or deleted: pause or cancel it first. */
function notRunning(service: TournamentService, id: string, action: string): void {
  const t = service.get(id);
  if (service.summary(id).active || t.status === 'running')
    throw new TournamentStateError('conflict', `tournament ${id} is running; pause or cancel it before you ${action} it`);
}

export function archiveTournament(service: TournamentService, id: string, archived: boolean, now: number): TournamentSummary {
  notRunning(service, id, archived ? 'archive' : 'restore');
  service.store.tournamentLibrary.setArchived(id, archived ? now : null);
  return service.summary(id);
}

/** Deletes the run, its games and transcripts, and its report folder. */
export function deleteTournament(service: TournamentService, id: string): { deleted: string; reports_removed: boolean } {
  notRunning(service, id, 'delete');
  const dir = reportDir(service.dataDir, id);
  const hadReports = fs.existsSync(dir);
  service.store.tournamentLibrary.delete(id);
  if (hadReports) fs.rmSync(dir, { recursive: true, force: true });
  return { deleted: id, reports_removed: hadReports };
}

function storedGame(service: TournamentService, id: string, index: number) {
  service.get(id);
  const game = service.store.tournaments.game(id, index);
  if (!game) throw new DomainError('not_found', `No game ${index} in tournament ${id}`);
  return game;
}

/**
 * One game on its own, with local folders redacted as in the run's exports. JSON: the game's record (as games in
 * report.json) and its transcript. JSONL: the manifest line, then the game's lines exactly as events.jsonl has them.
 */
export function exportGame(
  service: TournamentService,
  id: string,
  index: number,
  format: 'json' | 'jsonl',
): { filename: string; type: string; body: string } {
  const game = storedGame(service, id, index);
  const { tournament, loaded } = service.statistics(id);
  const ids = loaded.agents.map((a) => a.id);
  const transcript = service.store.tournaments.transcript(id, game.seq);
  const redact = pathRedactor(localRoots({ agents: loaded.agents, specDir: tournament.specDir, dataDir: service.dataDir }));
  const stem = `${id}-game-${index}`;
  if (format === 'jsonl') {
    const lines = [{ event: 'manifest', tournament_id: id, manifest: tournament.manifest }, ...gameEvents(game, ids, transcript)];
    return {
      filename: `${stem}.jsonl`,
      type: 'application/x-ndjson',
      body: inertJson(redact(lines.map((l) => `${JSON.stringify(l)}\n`).join(''))),
    };
  }
  const doc = {
    tournament_id: id,
    tournament_name: tournament.name,
    manifest_hash: tournament.manifestHash,
    game: gameEntry(game, ids),
    transcript,
  };
  return { filename: `${stem}.json`, type: 'application/json', body: inertJson(redact(`${JSON.stringify(doc, null, 2)}\n`)) };
}

/**
 * The definition of a one-game run that plays a recorded game again: its challenge, opening seed and seat order, the
 * agents that sat in it (their entries as the original definition gave them), and the original limits and options.
 */
export function rerunDefinition(
  spec: Record<string, unknown>,
  game: { gameIndex: number; challenge: string; seed: string; seats: number[] },
  name: string,
): Record<string, unknown> {
  const entries = (spec.agents ?? []) as unknown[];
  const order = [...new Set(game.seats)];
  const agents = order.map((agent) => {
    const entry = entries[agent];
    if (entry === undefined) throw new DomainError('invalid', `the recorded game names agent ${agent}, which the definition does not have`);
    return entry;
  });
  const out: Record<string, unknown> = {
    name: `${name} · game ${game.gameIndex} again`,
    challenge: game.challenge,
    format: { kind: 'replay', seed: game.seed, seats: game.seats.map((a) => order.indexOf(a)) },
    games_per_pairing: 1,
    concurrency: 1,
    seed: game.seed,
    agents,
    limits: spec.limits,
  };
  for (const key of ['options', 'max_illegal_actions', 'max_restarts'] as const) if (spec[key] !== undefined) out[key] = spec[key];
  return out;
}

export function rerunGame(service: TournamentService, id: string, index: number, start: boolean): TournamentSummary {
  const game = storedGame(service, id, index);
  const t = service.get(id);
  const created = service.create(rerunDefinition(t.spec, game, t.name), t.specDir, `re-run of ${id} game ${index}`);
  if (start) void service.start(created.id).catch(() => {});
  return service.summary(created.id);
}

/**
 * How long the planned games take, from this data folder's measured game times: per challenge, the median of the
 * recent games in which only these agents (manifest ids) sat, else of any agents' games of the challenge, else only
 * the game limit bounds it (engine/core/tournament/run-estimate.ts).
 */
export function estimateRun(service: TournamentService, spec: TournamentSpec, planned: number, agents: readonly string[]): RunEstimate {
  const times = spec.challenges.map((challenge) => {
    const measured = service.store.tournamentLibrary.gameTimes(challenge, agents);
    return { challenge, agentGames: measured.agentDurations, allGames: measured.durations };
  });
  return estimateDuration({
    planned,
    concurrency: spec.concurrency,
    gamesPerPairing: spec.games_per_pairing,
    gameSeconds: spec.limits.game_seconds,
    times,
  });
}
