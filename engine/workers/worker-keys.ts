// Signed game records: each worker holds an Ed25519 key pair (`arena worker init`) and signs every record it returns
// (what the signature covers: engine/tournaments/bundle/record-signature.ts). A coordinator accepts a record only with a
// valid signature by a key it trusts (`arena workers trust`, --trusted-workers FILE), so a process that can merely
// write to Redis cannot make a game's result.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parsePublicKey, publicKeyText, WorkerKeyError } from '../tournaments/bundle/record-signature.js';

// The signing format lives with the bundle verifier that re-checks it; the worker's side re-exports it.
export {
  attestationSignatureValid,
  jobDigest,
  parsePublicKey,
  publicKeyText,
  type RecordAttestation,
  recordAttestation,
  signRecord,
  WorkerKeyError,
} from '../tournaments/bundle/record-signature.js';

export const KEY_FILE = 'worker-key.pem';
export const TRUSTED_FILE = 'trusted-workers.txt';

export interface WorkerKey {
  privateKey: KeyObject;
  publicKey: string;
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
