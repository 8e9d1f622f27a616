// Calls the Reports area makes: governance matches (list, detail, raw files, run a scenario) and tournament games
// with their exports.
import { z } from 'zod';
import { ADMIN_PREFIX } from '../../../../engine/contract/admin.js';
import { type BundleVerification, BundleVerificationSchema } from '../../../../engine/contract/audit-bundle.js';
import {
  type GOVERNANCE_FILES,
  type GovernanceClientChoice,
  type GovernanceMatchDetail,
  GovernanceMatchDetailSchema,
  GovernanceMatchListResponseSchema,
  GovernanceRunResponseSchema,
  GovernanceScenarioListResponseSchema,
} from '../../../../engine/contract/governance-admin.js';
import { type EXPORT_FILES, TournamentGamesResponseSchema, TournamentListResponseSchema } from '../../../../engine/contract/tournament.js';
import type { ArenaClient } from '../../arena-client/client.js';

export type GovernanceFile = (typeof GOVERNANCE_FILES)[number];
export type TournamentExportFile = (typeof EXPORT_FILES)[number];

const governance = `${ADMIN_PREFIX}/governance`;
const tournament = (id: string) => `${ADMIN_PREFIX}/tournaments/${encodeURIComponent(id)}`;

export function listGovernanceMatches(client: ArenaClient, limit: number, offset: number, signal?: AbortSignal) {
  return client.call(GovernanceMatchListResponseSchema, `${governance}/matches?limit=${limit}&offset=${offset}`, { admin: true, signal });
}

export function governanceMatch(client: ArenaClient, id: string, signal?: AbortSignal): Promise<GovernanceMatchDetail> {
  return client.call(GovernanceMatchDetailSchema, `${governance}/matches/${encodeURIComponent(id)}`, { admin: true, signal });
}

export function governanceFile(client: ArenaClient, id: string, file: GovernanceFile, signal?: AbortSignal): Promise<string> {
  return client.text(`${governance}/matches/${encodeURIComponent(id)}/files/${file}`, signal);
}

export function listScenarios(client: ArenaClient, signal?: AbortSignal) {
  return client.call(GovernanceScenarioListResponseSchema, `${governance}/scenarios`, { admin: true, signal }).then((r) => r.scenarios);
}

export function runScenario(
  client: ArenaClient,
  scenario: string,
  agents: string[] | undefined,
  decider: GovernanceClientChoice = { kind: 'expected' },
) {
  return client.call(GovernanceRunResponseSchema, `${governance}/matches`, {
    method: 'POST',
    admin: true,
    body: { scenario, ...(agents ? { agents } : {}), client: decider },
  });
}

export function listTournaments(client: ArenaClient, signal?: AbortSignal) {
  return client.call(TournamentListResponseSchema, `${ADMIN_PREFIX}/tournaments?limit=500`, { admin: true, signal });
}

/** Games are filtered in the page; a tournament rarely has more than this, and the page says when it does. */
export const GAMES_PAGE = 1000;

export function listGames(client: ArenaClient, id: string, signal?: AbortSignal) {
  return client.call(TournamentGamesResponseSchema, `${tournament(id)}/games?limit=${GAMES_PAGE}`, { admin: true, signal });
}

const ExportsResponseSchema = z.object({ report_dir: z.string(), files: z.array(z.string()) });

/** Writes fresh exports (a running tournament gets a snapshot), then reads the one asked for. */
export async function tournamentExport(client: ArenaClient, id: string, file: TournamentExportFile): Promise<string> {
  await client.call(ExportsResponseSchema, `${tournament(id)}/exports`, { method: 'POST', admin: true, body: {} });
  return client.text(`${tournament(id)}/exports/${file}`);
}

/** A run's audit bundle (a .tar.gz), fresh from the engine; with `withFiles` it carries every agent's files. */
export function tournamentBundle(client: ArenaClient, id: string, withFiles: boolean): Promise<Uint8Array> {
  return client.bytes(`${tournament(id)}/bundle${withFiles ? '?with_files=true' : ''}`);
}

/** The engine's verdict on a bundle file, as `arena verify --json` gives it; a file that is not a bundle is a 400. */
export function verifyBundleFile(client: ArenaClient, file: Blob): Promise<BundleVerification> {
  return client.upload(BundleVerificationSchema, `${ADMIN_PREFIX}/bundles/verify`, file);
}
