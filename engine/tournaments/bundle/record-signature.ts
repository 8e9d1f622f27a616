// What a game worker's signature covers and how it is checked (issue 47): the worker signs an attestation of each
// record it returns (the job id and digest, the game the job scheduled, the record's result and the digest of the
// whole record) with its Ed25519 key. The coordinator checks it when the record arrives (engine/workers), and
// `arena verify` again from an audit bundle, which carries the attestations and keys but no transcript.
// Public keys travel as `ed25519:<base64 of the 32 raw bytes>`.
import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import type { GameJob } from '../../contract/game-job.js';
import { canonicalJson, sha256Hex } from '../../runtime/canonical-json.js';

const PREFIX = 'ed25519:';
// SPKI DER of an Ed25519 key is this fixed header followed by the 32 raw bytes.
const SPKI_HEADER = Buffer.from('302a300506032b6570032100', 'hex');

export class WorkerKeyError extends Error {
  override name = 'WorkerKeyError';
}

export function publicKeyText(key: KeyObject): string {
  const der = key.export({ format: 'der', type: 'spki' });
  return PREFIX + der.subarray(SPKI_HEADER.length).toString('base64');
}

/** The key object of `ed25519:<base64>`, or why the text is no such key. */
export function parsePublicKey(text: string): KeyObject {
  const raw = text.startsWith(PREFIX) ? Buffer.from(text.slice(PREFIX.length), 'base64') : null;
  if (raw?.length !== 32 || raw.toString('base64') !== text.slice(PREFIX.length))
    throw new WorkerKeyError(
      `not a worker public key: ${text.slice(0, 80)} (expected ed25519:<base64 of 32 bytes>, as arena worker init prints)`,
    );
  return createPublicKey({ key: Buffer.concat([SPKI_HEADER, raw]), format: 'der', type: 'spki' });
}

/** sha256 of a job's canonical content: a job changed in Redis after the coordinator queued it does not verify. */
export function jobDigest(job: unknown): string {
  return createHash('sha256').update(canonicalJson(job)).digest('hex');
}

/**
 * What a worker's signature covers: the job (id and digest), the scheduled game it named, the record's result and the
 * digest of the whole record. An audit bundle carries this (no transcript, no worker folder, no secret), so a game's
 * signature is re-checked offline (`arena verify`) against the result the reports state.
 */
export interface RecordAttestation {
  job_id: string;
  job_sha256: string;
  /** The game the job scheduled, seats by agent id; null for a job that did not parse (the worker refused it). */
  game: {
    tournament_id: string;
    manifest_hash: string;
    game_index: number;
    attempt: number;
    challenge: string;
    seed: string;
    seats: string[];
  } | null;
  /** The record's result fields, as report.json shows them. */
  result: Record<(typeof RESULT_FIELDS)[number], unknown>;
  /** sha256 of the record's canonical JSON without its signature: transcript, detail, usage, isolation and the rest. */
  record_sha256: string;
}

const RESULT_FIELDS = [
  'worker_id',
  'worker_key',
  'termination',
  'faulted_seats',
  'placements',
  'scores',
  'started_at',
  'ended_at',
] as const;

export function recordAttestation(jobId: string, job: unknown, record: Record<string, unknown>): RecordAttestation {
  const { signature: _signature, ...content } = record;
  const game = scheduledGame(job);
  const result = Object.fromEntries(RESULT_FIELDS.map((f) => [f, content[f] ?? null])) as RecordAttestation['result'];
  return { job_id: jobId, job_sha256: jobDigest(job), game, result, record_sha256: sha256Hex(canonicalJson(content)) };
}

/**
 * The game a job scheduled, read field by field rather than through the job schema, so that a worker of another
 * release (which refuses the job) and the coordinator still derive the same attestation; null when a field is missing.
 */
function scheduledGame(job: unknown): RecordAttestation['game'] {
  const j = (job ?? {}) as Partial<GameJob>;
  const g = (j.game ?? {}) as Partial<GameJob['game']>;
  const agents = Array.isArray(j.agents) ? j.agents : [];
  const seats = Array.isArray(g.seats) ? g.seats.map((i) => agents[i]?.id) : null;
  const text = (v: unknown) => typeof v === 'string';
  const whole = (v: unknown) => Number.isInteger(v);
  if (!text(j.tournament_id) || !text(j.manifest_hash) || !whole(j.attempt) || !whole(g.gameIndex) || !text(g.challenge) || !text(g.seed))
    return null;
  if (!seats?.every(text)) return null;
  return {
    tournament_id: j.tournament_id as string,
    manifest_hash: j.manifest_hash as string,
    game_index: g.gameIndex as number,
    attempt: j.attempt as number,
    challenge: g.challenge as string,
    seed: g.seed as string,
    seats: seats as string[],
  };
}

/** The record's signature (base64): over its attestation (the job, the game, the result, the record's digest). */
export function signRecord(key: KeyObject, jobId: string, job: unknown, record: Record<string, unknown>): string {
  return sign(null, Buffer.from(canonicalJson(recordAttestation(jobId, job, record))), key).toString('base64');
}

export function attestationSignatureValid(key: KeyObject, attestation: unknown, signature: string): boolean {
  try {
    return verify(null, Buffer.from(canonicalJson(attestation)), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
