// The audit bundle of a run (issue 15): one .tar.gz with the definition, the run manifest, the reports, the CSVs,
// events.jsonl and (optionally) every agent's manifest and entry file, indexed by bundle.json with the SHA-256 of each
// file. `verify` checks every hash, the run manifest's own hash, the agent files against the hashes the manifest
// recorded, recomputes the standings and ratings from the raw game records, and re-checks the signature of every game
// a worker played (bundle-signatures.ts), naming the file of any difference.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import YAML from 'yaml';
import { parseTournamentSpec } from '../../core/tournament/index.js';
import type { SignedGameRecord, StoredTournamentGame } from '../../db/store.js';
import { canonicalJson, sha256Hex } from '../../runtime/canonical-json.js';
import { APP_VERSION } from '../../runtime/version.js';
import { csvRecords } from '../exports/csv-read.js';
import { type RunStatistics, ratedJudge, runStatistics, type StandingRow } from '../results/stats.js';
import { checkWorkerSignatures, signatureFiles } from './bundle-signatures.js';

export const BUNDLE_FORMAT = 'local-arena-bundle';
export const BUNDLE_VERSION = 1;

export interface BundleIndex {
  format: typeof BUNDLE_FORMAT;
  version: number;
  app_version: string;
  tournament_id: string;
  manifest_hash: string;
  files: Array<{ path: string; sha256: string; bytes: number }>;
}

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

// ---- tar (POSIX ustar), enough for regular files with short names ---------------------------------------------

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(512, 0);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (cut < 0 || Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155) throw new RangeError(`path too long for tar: ${name}`);
  }
  h.write(base, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

export function writeTarGz(files: ReadonlyArray<{ path: string; data: Buffer }>): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(header(f.path, f.data.length), f.data);
    const pad = (512 - (f.data.length % 512)) % 512;
    if (pad > 0) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(1024, 0));
  // A fixed mtime and OS byte would make equal content give equal bytes; gzip's own header carries mtime 0 here.
  return zlib.gzipSync(Buffer.concat(parts), { level: 9 });
}

export function readTarGz(archive: Buffer): Map<string, Buffer> {
  let tar: Buffer;
  try {
    tar = zlib.gunzipSync(archive);
  } catch (error) {
    throw new Error(`not a gzip archive: ${(error as Error).message}`);
  }
  const out = new Map<string, Buffer>();
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const h = tar.subarray(offset, offset + 512);
    if (h.every((b) => b === 0)) break;
    const text = (start: number, length: number) =>
      h
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const name = text(0, 100);
    const prefix = text(345, 155);
    const size = Number.parseInt(text(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error(`bad tar header at byte ${offset}`);
    const type = text(156, 1) || '0';
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === '0') out.set(prefix ? `${prefix}/${name}` : name, Buffer.from(body));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

// ---- member names -------------------------------------------------------------------------------------------

/**
 * A member name as the bundle writes it: relative POSIX segments (backslashes read as separators), `.` and empty
 * segments dropped; null when it is absolute or any segment is `..`, so nothing extracted lands outside the folder.
 */
export function bundleMemberName(name: string): string | null {
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name) || name.includes('\0')) return null;
  const segments = name.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.includes('..')) return null;
  return segments.join('/');
}

// ---- building -----------------------------------------------------------------------------------------------

export interface BundleInput {
  tournamentId: string;
  manifestHash: string;
  manifest: Record<string, unknown>;
  /** The report folder's files by name (report.json, report.md, standings.csv, games.csv, manifest.json, events.jsonl). */
  reports: ReadonlyArray<{ name: string; data: Buffer }>;
  /** Each agent's manifest and entry file, when the bundle should carry them. */
  agentFiles?: ReadonlyArray<{ agent: string; name: string; data: Buffer }>;
  /** The signature of every worker-played attempt (bundle-signatures.ts); none for a run played locally. */
  signedRecords?: readonly SignedGameRecord[];
}

export function buildBundle(input: BundleInput): Buffer {
  const spec = (input.manifest as { spec?: unknown }).spec ?? {};
  const files: Array<{ path: string; data: Buffer }> = [
    { path: 'definition.yaml', data: Buffer.from(YAML.stringify(spec, { lineWidth: 0 })) },
    ...input.reports.map((r) => ({ path: `reports/${r.name}`, data: r.data })),
    ...(input.agentFiles ?? []).map((f) => ({ path: `agents/${f.agent}/${f.name}`, data: f.data })),
    ...signatureFiles(input.signedRecords ?? []),
  ];
  for (const f of files) if (bundleMemberName(f.path) !== f.path) throw new RangeError(`bundle member name not allowed: ${f.path}`);
  const index: BundleIndex = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    app_version: APP_VERSION,
    tournament_id: input.tournamentId,
    manifest_hash: input.manifestHash,
    files: files.map((f) => ({ path: f.path, sha256: sha256(f.data), bytes: f.data.length })),
  };
  return writeTarGz([{ path: 'bundle.json', data: Buffer.from(`${JSON.stringify(index, null, 2)}\n`) }, ...files]);
}

// ---- verifying ----------------------------------------------------------------------------------------------

export interface Verification {
  ok: boolean;
  /** What was checked and held. */
  checks: string[];
  /** Each difference, starting with the file it is in. */
  problems: string[];
}

interface ReportGame {
  game_index: number;
  attempt: number;
  key: string;
  challenge: string;
  round: number;
  seats: string[];
  seed: string;
  swap_of: number | null;
  set_size: number;
  result: { placements: number[] | null; faulted_seats: number[] };
  scores: Array<{ security: number; utility: number }> | null;
  model_usage: Array<object | null> | null;
  termination: string;
  fault: string;
  detail: string;
  started_at: number;
  ended_at: number;
  /** Absent in bundles made before rated games were marked. */
  rated?: boolean;
  unrated_reason?: string | null;
  /** The game worker that played it, its key and signature (null or absent: played by the coordinator). */
  worker_id?: string | null;
  worker_key?: string | null;
  worker_signature?: string | null;
}

interface ManifestAgent {
  id: string;
  name?: string;
  manifest_sha256: string;
  entry_file: string | null;
  entry_sha256: string | null;
}

/** The stored rows a report.json's games stand for, in commit order, so the standings can be recomputed from them. */
export function rowsFromReport(games: readonly ReportGame[], agentIds: readonly string[]): StoredTournamentGame[] {
  return games.map((g, seq) => ({
    seq: seq + 1,
    tournamentId: '',
    gameKey: g.key,
    gameIndex: g.game_index,
    attempt: g.attempt,
    round: g.round,
    pairingIndex: 0,
    opening: 0,
    challenge: g.challenge,
    seats: g.seats.map((id) => agentIds.indexOf(id)),
    seed: g.seed,
    swapOf: g.swap_of,
    setSize: g.set_size,
    sessionId: null,
    invites: [],
    termination: g.termination,
    fault: g.fault,
    faultedSeats: g.result.faulted_seats,
    placements: g.result.placements,
    scores: g.scores,
    detail: g.detail,
    agentMs: 0,
    startedAt: g.started_at,
    endedAt: g.ended_at,
    usage: g.model_usage,
  }));
}

const STANDING_FIELDS: Array<keyof StandingRow> = [
  'rank',
  'games',
  'wins',
  'draws',
  'losses',
  'points',
  'rating',
  'rating_lower',
  'rating_upper',
  'rating_interval',
];

function sameNumber(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a));
  return a === b;
}

/**
 * Which games are rated, recomputed from the game records: the counts in report.json, the line in report.md, and
 * each game's mark in report.json and games.csv (bundles made before these existed carry none, and are not faulted).
 * Returns the number of differences, each added to `problems`.
 */
function ratedGameProblems(
  stats: RunStatistics,
  rows: readonly StoredTournamentGame[],
  report: { rated_games?: Record<string, unknown>; games: ReportGame[] },
  files: ReadonlyMap<string, Buffer>,
  problems: string[],
): number {
  const before = problems.length;
  const counts = stats.rated_games;
  if (report.rated_games !== undefined) {
    const { rule: _rule, ...stated } = report.rated_games;
    const { rule: _ours, ...recomputed } = counts;
    if (canonicalJson(stated) !== canonicalJson(recomputed))
      problems.push(`reports/report.json: rated_games says "${String(stated.text)}", the game records give "${counts.text}"`);
    const md = files.get('reports/report.md')?.toString('utf8');
    if (md !== undefined && !md.includes(`- Rated: ${counts.text};`))
      problems.push(`reports/report.md: its rated-games line is not "${counts.text}"`);
  }
  const judge = ratedJudge(stats);
  const reasons = rows.map((row) => judge(row));
  report.games.forEach((g, i) => {
    if (g.rated === undefined) return;
    const reason = reasons[i] ?? null;
    if (g.rated !== (reason === null) || (g.unrated_reason ?? null) !== reason)
      problems.push(
        `reports/report.json: game ${g.game_index} attempt ${g.attempt} is marked ${g.rated ? 'rated' : `unrated (${g.unrated_reason})`}, the game records give ${reason === null ? 'rated' : `unrated (${reason})`}`,
      );
  });
  const csv = files.get('reports/games.csv')?.toString('utf8');
  if (csv !== undefined) {
    const [cols = [], ...lines] = csvRecords(csv);
    const at = cols.indexOf('rated');
    const why = cols.indexOf('unrated_reason');
    if (at >= 0) {
      if (lines.length !== reasons.length)
        problems.push(`reports/games.csv: ${lines.length} rows, report.json has ${reasons.length} game records`);
      else
        lines.forEach((cells, i) => {
          const reason = reasons[i] ?? null;
          if (cells[at] !== String(reason === null) || (cells[why] ?? '') !== (reason ?? ''))
            problems.push(
              `reports/games.csv: row ${i + 1} says rated=${cells[at]}, the game records give ${reason === null ? 'rated' : `unrated (${reason})`}`,
            );
        });
    }
  }
  return problems.length - before;
}

export interface VerifyOptions {
  /**
   * Public keys the reader trusts (the lab's published trusted-workers list): a worker-played game signed by any other
   * key fails, even when the bundle lists that key.
   */
  trustedKeys?: ReadonlySet<string>;
}

/** What the checks of one bundle share: its files, and the lists they add to. */
interface BundleCheck {
  files: Map<string, Buffer>;
  checks: string[];
  problems: string[];
}

interface RunManifestFile {
  manifest_hash: string;
  manifest: Record<string, unknown>;
}

interface BundleReport {
  spec: unknown;
  manifest: Record<string, unknown>;
  manifest_hash: string;
  standings: { combined: StandingRow[] };
  rated_games?: Record<string, unknown>;
  games: ReportGame[];
}

/** The bundle's files and its index, or null with the reason in `problems` when it cannot be read safely at all. */
function openBundle(archive: Buffer, problems: string[]): { files: Map<string, Buffer>; index: BundleIndex } | null {
  let files: Map<string, Buffer>;
  try {
    files = readTarGz(archive);
  } catch (error) {
    problems.push(`bundle: ${(error as Error).message}`);
    return null;
  }
  // Refused outright: whoever unpacks the bundle would write outside its folder.
  const climbing = [...files.keys()].filter((name) => bundleMemberName(name) !== name);
  if (climbing.length > 0) {
    for (const name of climbing)
      problems.push(`${name}: member name is not a plain relative path (absolute, '..' or unnormalised); the bundle is refused`);
    return null;
  }
  const indexData = files.get('bundle.json');
  if (!indexData) {
    problems.push('bundle.json: missing');
    return null;
  }
  try {
    return { files, index: JSON.parse(indexData.toString('utf8')) as BundleIndex };
  } catch {
    problems.push('bundle.json: not valid JSON');
    return null;
  }
}

/** 1. Every listed file is there, byte for byte; nothing unlisted rides along. */
function checkListedFiles({ files, checks, problems }: BundleCheck, index: BundleIndex): void {
  for (const f of index.files ?? []) {
    const data = files.get(f.path);
    if (!data) problems.push(`${f.path}: missing from the bundle`);
    else if (sha256(data) !== f.sha256)
      problems.push(`${f.path}: content changed (sha256 ${sha256(data).slice(0, 12)}… ≠ ${f.sha256.slice(0, 12)}…)`);
  }
  for (const name of files.keys())
    if (name !== 'bundle.json' && !(index.files ?? []).some((f) => f.path === name)) problems.push(`${name}: not listed in bundle.json`);
  if (problems.length === 0) checks.push(`${index.files.length} files match their SHA-256 in bundle.json`);
}

/** A JSON file of the bundle: null when absent, or (with a problem) when it does not parse. */
function bundleJson<T>({ files, problems }: BundleCheck, name: string): T | null {
  const data = files.get(name);
  if (!data) return null;
  try {
    return JSON.parse(data.toString('utf8')) as T;
  } catch {
    problems.push(`${name}: not valid JSON`);
    return null;
  }
}

/** 2. The run manifest hashes to the run id the reports name. */
function checkRunManifest(ctx: BundleCheck, index: BundleIndex): RunManifestFile | null {
  const manifestFile = bundleJson<RunManifestFile>(ctx, 'reports/manifest.json');
  if (!manifestFile) {
    ctx.problems.push('reports/manifest.json: missing');
    return null;
  }
  const hash = `sha256:${sha256Hex(canonicalJson(manifestFile.manifest))}`;
  if (hash !== manifestFile.manifest_hash)
    ctx.problems.push(`reports/manifest.json: the manifest hashes to ${hash}, the file says ${manifestFile.manifest_hash}`);
  else if (hash !== index.manifest_hash)
    ctx.problems.push(`bundle.json: manifest_hash ${index.manifest_hash} ≠ the run manifest's ${hash}`);
  else ctx.checks.push(`run manifest hashes to ${hash}`);
  return manifestFile;
}

/** 3. Agent files carried in the bundle match the hashes the run manifest recorded when the run started. */
function checkAgentFiles({ files, checks, problems }: BundleCheck, agents: readonly ManifestAgent[]): void {
  for (const a of agents) {
    const manifestPath = `agents/${a.id}/agent.yaml`;
    const m = files.get(manifestPath);
    if (m) {
      if (sha256(m) !== a.manifest_sha256)
        problems.push(`${manifestPath}: differs from the manifest the run used (sha256 ${a.manifest_sha256.slice(0, 12)}…)`);
      else checks.push(`${manifestPath} is the manifest the run used`);
    }
    if (a.entry_file && a.entry_sha256) {
      const entryPath = `agents/${a.id}/${a.entry_file}`;
      const e = files.get(entryPath);
      if (e) {
        if (sha256(e) !== a.entry_sha256)
          problems.push(`${entryPath}: differs from the entry file the run used (sha256 ${a.entry_sha256.slice(0, 12)}…)`);
        else checks.push(`${entryPath} is the entry file the run used`);
      }
    }
  }
}

/** The standings report.json states against the recomputed ones; returns the number of differences. */
function standingProblems(stats: RunStatistics, report: BundleReport, problems: string[]): number {
  let differences = 0;
  for (const row of stats.standings.combined) {
    const stated = report.standings.combined.find((r) => r.agent === row.agent);
    if (!stated) {
      problems.push(`reports/report.json: no standing for ${row.agent}`);
      differences++;
      continue;
    }
    for (const field of STANDING_FIELDS) {
      if (!sameNumber(stated[field], row[field])) {
        problems.push(
          `reports/report.json: ${row.agent} ${field} is ${JSON.stringify(stated[field])}, the game records give ${JSON.stringify(row[field])}`,
        );
        differences++;
      }
    }
  }
  return differences;
}

/** The counts standings.csv states against the recomputed ones; returns the number of differences. */
function standingsCsvProblems(stats: RunStatistics, files: ReadonlyMap<string, Buffer>, problems: string[]): number {
  const csv = files.get('reports/standings.csv')?.toString('utf8');
  if (csv === undefined) return 0;
  let differences = 0;
  const [cols = [], ...lines] = csvRecords(csv);
  for (const row of stats.standings.combined) {
    const cells = lines.find((l) => l[0] === 'combined' && l[cols.indexOf('agent')] === row.agent) ?? [];
    for (const field of ['games', 'wins', 'draws', 'losses'] as const) {
      if (cells[cols.indexOf(field)] !== String(row[field])) {
        problems.push(
          `reports/standings.csv: ${row.agent} ${field} is ${cells[cols.indexOf(field)] ?? '(missing)'}, the game records give ${row[field]}`,
        );
        differences++;
      }
    }
  }
  return differences;
}

/** 4. The standings and ratings follow from the raw game records. */
function checkStandings(
  { files, checks, problems }: BundleCheck,
  report: BundleReport,
  manifestFile: RunManifestFile | null,
  agents: readonly ManifestAgent[],
): void {
  if (manifestFile && canonicalJson(report.manifest) !== canonicalJson(manifestFile.manifest))
    problems.push('reports/report.json: its run manifest differs from reports/manifest.json');
  const parsed = parseTournamentSpec((report.manifest as { spec?: unknown }).spec);
  const ids = agents.map((a) => a.id);
  if (!parsed.ok) {
    problems.push(`reports/report.json: the definition in the run manifest does not parse: ${parsed.errors.join('; ')}`);
    return;
  }
  const rows = rowsFromReport(report.games, ids);
  const stats = runStatistics(
    parsed.spec,
    ids,
    rows,
    agents.map((a) => a.name ?? a.id),
  );
  const differences =
    ratedGameProblems(stats, rows, report, files, problems) +
    standingProblems(stats, report, problems) +
    standingsCsvProblems(stats, files, problems);
  if (differences === 0)
    checks.push(
      `standings and ratings of ${stats.standings.combined.length} agents recomputed from ${report.games.length} game records agree (${stats.rated_games.text})`,
    );
}

/** 6. The event log tells the same story as the game records. */
function checkEventLog({ files, checks, problems }: BundleCheck, report: BundleReport): void {
  const events = files.get('reports/events.jsonl')?.toString('utf8');
  if (events === undefined) return;
  const ended = new Map<string, Record<string, unknown>>();
  events.split('\n').forEach((line, n) => {
    if (line.trim() === '') return;
    try {
      const e = JSON.parse(line) as Record<string, unknown>;
      if (e.event === 'game_ended') ended.set(`${e.game_index}/${e.attempt}`, e);
    } catch {
      problems.push(`reports/events.jsonl: line ${n + 1} is not valid JSON`);
    }
  });
  let mismatches = 0;
  for (const g of report.games) {
    const e = ended.get(`${g.game_index}/${g.attempt}`);
    const same =
      e !== undefined &&
      e.termination === g.termination &&
      canonicalJson(e.placements ?? null) === canonicalJson(g.result.placements ?? null) &&
      canonicalJson(e.faulted_seats ?? []) === canonicalJson(g.result.faulted_seats ?? []);
    if (!same) {
      problems.push(
        `reports/events.jsonl: game ${g.game_index} attempt ${g.attempt} ${e ? 'ends differently than' : 'is missing from the log, but is in'} reports/report.json`,
      );
      mismatches++;
    }
  }
  if (mismatches === 0) checks.push(`events.jsonl agrees with the ${report.games.length} game records`);
}

export function verifyBundle(archive: Buffer, options: VerifyOptions = {}): Verification {
  const checks: string[] = [];
  const problems: string[] = [];
  const done = (): Verification => ({ ok: problems.length === 0, checks, problems });
  const opened = openBundle(archive, problems);
  if (!opened) return done();
  const { files, index } = opened;
  const ctx: BundleCheck = { files, checks, problems };
  if (index.format !== BUNDLE_FORMAT) problems.push(`bundle.json: format is ${String(index.format)}, expected ${BUNDLE_FORMAT}`);
  checkListedFiles(ctx, index);
  const manifestFile = checkRunManifest(ctx, index);
  const agents = ((manifestFile?.manifest as { agents?: ManifestAgent[] } | undefined)?.agents ?? []) as ManifestAgent[];
  checkAgentFiles(ctx, agents);
  const report = bundleJson<BundleReport>(ctx, 'reports/report.json');
  if (!report) {
    problems.push('reports/report.json: missing');
    return done();
  }
  checkStandings(ctx, report, manifestFile, agents);
  // 5. Every worker-played game carries a valid signature, by a key the bundle lists, of what report.json states.
  checkWorkerSignatures(
    {
      files,
      tournamentId: String(index.tournament_id),
      manifestHash: String(index.manifest_hash),
      games: report.games,
      ...(options.trustedKeys ? { readerKeys: options.trustedKeys } : {}),
    },
    checks,
    problems,
  );
  checkEventLog(ctx, report);
  return done();
}
