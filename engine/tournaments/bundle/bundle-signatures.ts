// The worker signatures of an audit bundle (issue 47): `workers/signed-records.jsonl` holds, for every game attempt a
// game worker played, its signature and what the signature covers (the attestation: job, scheduled game, result,
// digest of the full record); `workers/trusted-keys.json` the public keys that signed, with the worker ids each
// signed as. `arena verify` re-checks each signature with those keys alone (offline, no coordinator database) and
// compares the signed game and result with the game record report.json states.
import { gameJobId } from '../../contract/game-job.js';
import type { SignedGameRecord } from '../../db/store.js';
import { canonicalJson } from '../../runtime/canonical-json.js';
import { attestationSignatureValid, parsePublicKey, type RecordAttestation } from './record-signature.js';

export const SIGNED_RECORDS_FILE = 'workers/signed-records.jsonl';
export const TRUSTED_KEYS_FILE = 'workers/trusted-keys.json';

interface SignedLine {
  game_index: number;
  attempt: number;
  signature: string;
  attestation: RecordAttestation | null;
}

interface TrustedKeys {
  keys: Array<{ public_key: string; workers: string[] }>;
}

/** The two files a bundle carries for a run with worker-played games; none for a run played locally. */
export function signatureFiles(records: readonly SignedGameRecord[]): Array<{ path: string; data: Buffer }> {
  if (records.length === 0) return [];
  const lines = records.map((r) =>
    JSON.stringify({
      game_index: r.gameIndex,
      attempt: r.attempt,
      signature: r.signature,
      attestation: r.attestation === null ? null : JSON.parse(r.attestation),
    } satisfies SignedLine),
  );
  // Every key that signed an accepted record was trusted by the coordinator when the record arrived.
  const workersOf = new Map<string, Set<string>>();
  for (const r of records) workersOf.set(r.workerKey, (workersOf.get(r.workerKey) ?? new Set()).add(r.workerId));
  const trusted: TrustedKeys = {
    keys: [...workersOf].map(([key, ids]) => ({ public_key: key, workers: [...ids].sort() })),
  };
  return [
    { path: SIGNED_RECORDS_FILE, data: Buffer.from(`${lines.join('\n')}\n`) },
    { path: TRUSTED_KEYS_FILE, data: Buffer.from(`${JSON.stringify(trusted, null, 2)}\n`) },
  ];
}

/** The fields of a report.json game the signature check reads. */
export interface SignedReportGame {
  game_index: number;
  attempt: number;
  challenge: string;
  seats: string[];
  seed: string;
  result: { placements: number[] | null; faulted_seats: number[] };
  scores: unknown;
  termination: string;
  started_at: number;
  ended_at: number;
  worker_id?: string | null;
  worker_key?: string | null;
  worker_signature?: string | null;
}

export interface SignatureCheckInput {
  files: ReadonlyMap<string, Buffer>;
  tournamentId: string;
  manifestHash: string;
  games: readonly SignedReportGame[];
  /** The reader's own trusted keys (`arena verify --trusted-workers FILE`): a signing key must also be among them. */
  readerKeys?: ReadonlySet<string>;
}

/**
 * Re-checks every worker-played game's signature; each failure names the game and why, starting with the file it is
 * in. Games played locally have no signature and are counted, not faulted.
 */
export function checkWorkerSignatures(input: SignatureCheckInput, checks: string[], problems: string[]): void {
  const before = problems.length;
  const trusted = trustedKeys(input.files, problems);
  const records = signedLines(input.files, problems);
  let local = 0;
  let signed = 0;
  const seenKeys = new Set<string>();
  for (const g of input.games) {
    const at = `${g.game_index}/${g.attempt}`;
    const line = records.get(at);
    records.delete(at);
    const name = `game ${g.game_index} attempt ${g.attempt}`;
    if ((g.worker_id ?? null) === null && (g.worker_signature ?? null) === null) {
      if (line)
        problems.push(
          `reports/report.json: ${name} says it was played locally, but ${SIGNED_RECORDS_FILE} has a worker's signed record of it`,
        );
      else local++;
      continue;
    }
    const who = `${name} (worker ${JSON.stringify(g.worker_id ?? null)})`;
    const problem = gameProblem(input, g, who, line, trusted);
    if (problem !== null) problems.push(problem);
    else {
      signed++;
      seenKeys.add(String(line?.attestation?.result.worker_key));
    }
  }
  for (const at of records.keys())
    problems.push(
      `${SIGNED_RECORDS_FILE}: a signed record of game ${at.replace('/', ' attempt ')}, which reports/report.json does not list`,
    );
  if (problems.length > before) return;
  if (signed > 0) {
    const keys = [...seenKeys].map((k) => `${trusted.get(k)?.join('/') ?? '?'} ${k.slice(0, 20)}…`).join(', ');
    const whose = input.readerKeys ? 'keys in the trusted workers file given' : 'trusted worker key(s) the bundle lists';
    checks.push(
      `${signed} worker-played game records carry valid signatures of what report.json states, by ${seenKeys.size} ${whose}: ${keys}`,
    );
  }
  if (local > 0)
    checks.push(`${local} game record(s) were made by the coordinator itself (played locally, or refused): no worker signature to check`);
}

/** Why one worker-played game's signature does not hold for the game report.json states (null: it holds). */
function gameProblem(
  input: SignatureCheckInput,
  g: SignedReportGame,
  who: string,
  line: SignedLine | undefined,
  trusted: ReadonlyMap<string, string[]>,
): string | null {
  if (!line)
    return `${SIGNED_RECORDS_FILE}: ${who} has no signed record (its signature was removed, or the bundle predates signed records)`;
  const att = line.attestation;
  if (att === null || typeof att !== 'object' || typeof att.result !== 'object' || att.result === null)
    return `${SIGNED_RECORDS_FILE}: ${who} carries a signature but not what it covers (recorded before attestations were kept): it cannot be re-checked`;
  const key = String(att.result.worker_key);
  const ids = trusted.get(key);
  if (!ids) return `${TRUSTED_KEYS_FILE}: ${who} is signed by ${key.slice(0, 20)}…, a key not among the bundle's trusted workers`;
  if (input.readerKeys && !input.readerKeys.has(key))
    return `${TRUSTED_KEYS_FILE}: ${who} is signed by ${key.slice(0, 20)}…, a key not in the trusted workers file given to verify`;
  if (!ids.includes(String(att.result.worker_id)))
    return `${TRUSTED_KEYS_FILE}: ${who} is signed by the key of worker(s) ${ids.join(', ')}, not ${JSON.stringify(att.result.worker_id)}`;
  if (typeof line.signature !== 'string' || !attestationSignatureValid(parsePublicKey(key), att, line.signature))
    return `${SIGNED_RECORDS_FILE}: ${who}: the signature does not match the signed record (altered after signing, or not signed by this key)`;
  const jobId = gameJobId(input.tournamentId, g.game_index, g.attempt);
  const expected = {
    job_id: jobId,
    tournament_id: input.tournamentId,
    manifest_hash: input.manifestHash,
    game_index: g.game_index,
    attempt: g.attempt,
    challenge: g.challenge,
    seed: g.seed,
    seats: g.seats,
  };
  const signedGame = { job_id: att.job_id, ...(att.game ?? {}) };
  for (const [field, value] of Object.entries(expected)) {
    const theirs = (signedGame as Record<string, unknown>)[field];
    if (canonicalJson(theirs ?? null) !== canonicalJson(value))
      return `reports/report.json: ${who}: ${field} is ${JSON.stringify(value)}, the worker signed a record of ${JSON.stringify(theirs ?? null)} (signed for another game or run)`;
  }
  // report.json's worker_key and worker_signature are copies for readers: its path redaction may rewrite a '/tmp'
  // inside base64, so the copy in the signed-records file is the one checked.
  const stated: Record<string, unknown> = {
    worker_id: g.worker_id ?? null,
    termination: g.termination,
    placements: g.result.placements,
    faulted_seats: g.result.faulted_seats,
    scores: g.scores,
    started_at: g.started_at,
    ended_at: g.ended_at,
  };
  for (const [field, value] of Object.entries(stated)) {
    const theirs = (att.result as Record<string, unknown>)[field];
    if (canonicalJson(theirs ?? null) !== canonicalJson(value ?? null))
      return `reports/report.json: ${who}: ${field} is ${JSON.stringify(value)}, the worker's signed record says ${JSON.stringify(theirs ?? null)}`;
  }
  if ((g.worker_signature ?? null) === null) return `reports/report.json: ${who}: its worker_signature was removed`;
  return null;
}

/** Public key → the worker ids it signed as, from the bundle's trusted-keys file (empty when there is none). */
function trustedKeys(files: ReadonlyMap<string, Buffer>, problems: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const data = files.get(TRUSTED_KEYS_FILE);
  if (!data) return out;
  let parsed: TrustedKeys;
  try {
    parsed = JSON.parse(data.toString('utf8')) as TrustedKeys;
  } catch {
    problems.push(`${TRUSTED_KEYS_FILE}: not valid JSON`);
    return out;
  }
  for (const entry of Array.isArray(parsed?.keys) ? parsed.keys : []) {
    try {
      parsePublicKey(String(entry.public_key));
    } catch (error) {
      problems.push(`${TRUSTED_KEYS_FILE}: ${(error as Error).message}`);
      continue;
    }
    out.set(String(entry.public_key), Array.isArray(entry.workers) ? entry.workers.map(String) : []);
  }
  return out;
}

/** `game_index/attempt` → its signed line. */
function signedLines(files: ReadonlyMap<string, Buffer>, problems: string[]): Map<string, SignedLine> {
  const out = new Map<string, SignedLine>();
  const data = files.get(SIGNED_RECORDS_FILE);
  if (!data) return out;
  data
    .toString('utf8')
    .split('\n')
    .forEach((text, n) => {
      if (text.trim() === '') return;
      try {
        const line = JSON.parse(text) as SignedLine;
        out.set(`${line.game_index}/${line.attempt}`, line);
      } catch {
        problems.push(`${SIGNED_RECORDS_FILE}: line ${n + 1} is not valid JSON`);
      }
    });
  return out;
}
