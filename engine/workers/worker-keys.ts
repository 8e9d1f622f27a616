// Signed game records: each worker holds an Ed25519 key pair (`arena worker init`) and signs every record it returns
// over the job id, the job's content and the record's canonical content. A coordinator accepts a record only with a
// valid signature by a key it trusts (`arena workers trust`, --trusted-workers FILE), so a process that can merely
// write to Redis cannot make a game's result. Public keys travel as `ed25519:<base64 of the 32 raw bytes>`.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../runtime/canonical-json.js';

export const KEY_FILE = 'worker-key.pem';
export const TRUSTED_FILE = 'trusted-workers.txt';
const PREFIX = 'ed25519:';
// SPKI DER of an Ed25519 key is this fixed header followed by the 32 raw bytes.
const SPKI_HEADER = Buffer.from('302a300506032b6570032100', 'hex');

export class WorkerKeyError extends Error {
  override name = 'WorkerKeyError';
}

export interface WorkerKey {
  privateKey: KeyObject;
  publicKey: string;
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

/** Creates the worker's key pair in its data folder (private key 0600), or keeps the one there; returns it. */
export function initWorkerKey(dataDir: string): { key: WorkerKey; created: boolean } {
  const file = path.join(dataDir, KEY_FILE);
  if (fs.existsSync(file)) return { key: loadWorkerKey(dataDir), created: false };
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  // 'wx': two inits at once never overwrite each other's key.
  fs.writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  return { key: loadWorkerKey(dataDir), created: true };
}

export function loadWorkerKey(dataDir: string): WorkerKey {
  const file = path.join(dataDir, KEY_FILE);
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch {
    throw new WorkerKeyError(
      `this worker has no key in ${dataDir}: run arena worker init --data-dir ${dataDir}, then register its public key with the coordinator (arena workers trust <key>)`,
    );
  }
  const mode = fs.statSync(file).mode & 0o077;
  if (mode !== 0) throw new WorkerKeyError(`${file} is readable by other users: chmod 600 it (or make a new key with arena worker init)`);
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new WorkerKeyError(`${file} is not an Ed25519 key`);
  return { privateKey, publicKey: publicKeyText(createPublicKey(privateKey)) };
}

/** sha256 of a job's canonical content: a job changed in Redis after the coordinator queued it does not verify. */
export function jobDigest(job: unknown): string {
  return createHash('sha256').update(canonicalJson(job)).digest('hex');
}

function signedBytes(jobId: string, job: string, record: Record<string, unknown>): Buffer {
  const { signature: _signature, ...content } = record;
  return Buffer.from(canonicalJson({ job_id: jobId, job_sha256: job, record: content }));
}

/** The record's signature (base64) over the job id, the job's digest and the record without its signature. */
export function signRecord(key: KeyObject, jobId: string, jobSha256: string, record: Record<string, unknown>): string {
  return sign(null, signedBytes(jobId, jobSha256, record), key).toString('base64');
}

export function recordSignatureValid(
  key: KeyObject,
  jobId: string,
  jobSha256: string,
  record: Record<string, unknown>,
  signature: string,
): boolean {
  try {
    return verify(null, signedBytes(jobId, jobSha256, record), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

export interface TrustedWorker {
  publicKey: string;
  /** When set, records signed by this key must name this worker id. */
  name: string | null;
  key: KeyObject;
}

/** A trusted-workers file: one `ed25519:<base64> [name]` a line; `#` starts a comment. */
export function readTrustedWorkers(file: string): TrustedWorker[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new WorkerKeyError(
      `cannot read the trusted workers file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const trusted: TrustedWorker[] = [];
  text.split('\n').forEach((line, i) => {
    const [keyText, name, extra] = (line.split('#')[0] ?? '').trim().split(/\s+/).filter(Boolean);
    if (!keyText) return;
    if (extra !== undefined) throw new WorkerKeyError(`${file} line ${i + 1}: expected "<public key> [name]"`);
    try {
      trusted.push({ publicKey: keyText, name: name ?? null, key: parsePublicKey(keyText) });
    } catch (error) {
      throw new WorkerKeyError(`${file} line ${i + 1}: ${(error as Error).message}`);
    }
  });
  return trusted;
}

/** Adds a key to the coordinator's trusted workers (its data folder); returns false when it was already there. */
export function trustWorker(dataDir: string, publicKey: string, name: string | null): boolean {
  parsePublicKey(publicKey);
  const file = path.join(dataDir, TRUSTED_FILE);
  const known = fs.existsSync(file) ? readTrustedWorkers(file) : [];
  if (known.some((t) => t.publicKey === publicKey && t.name === name)) return false;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.appendFileSync(file, `${publicKey}${name ? ` ${name}` : ''}\n`, { mode: 0o644 });
  return true;
}

/** The coordinator's trusted workers: its data folder's list plus any --trusted-workers files. */
export function trustedWorkers(dataDir: string, files: readonly string[]): TrustedWorker[] {
  const own = path.join(dataDir, TRUSTED_FILE);
  return [...(fs.existsSync(own) ? [own] : []), ...files].flatMap((f) => readTrustedWorkers(f));
}
