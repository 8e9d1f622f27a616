// Ed25519 identities as SpecArena clients make them (spec §4.1): public key = hex of DER SPKI, signature = hex.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

export interface TestIdentity {
  publicKeyHex: string;
  privateKey: KeyObject;
  /** userId the server derives: hex(SHA-256(lower-case public-key hex)). */
  userId: string;
  sign(message: string): string;
}

export function newIdentity(): TestIdentity {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = publicKey.export({ type: 'spki', format: 'der' }).toString('hex');
  return {
    publicKeyHex,
    privateKey,
    userId: createHash('sha256').update(publicKeyHex.toLowerCase(), 'utf8').digest('hex'),
    sign: (message) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('hex'),
  };
}

/** Body of a signed auth-mode join. */
export function signedJoin(id: TestIdentity, invite: string, timestamp: number) {
  return { invite, publicKey: id.publicKeyHex, signature: id.sign(`arena:v1:join:${invite}:${timestamp}`), timestamp };
}

/** Body of a signed auth-mode profile update. */
export function signedUserUpdate(id: TestIdentity, timestamp: number, fields: { username?: string; model?: string } = {}) {
  return { ...fields, publicKey: id.publicKeyHex, signature: id.sign(`arena:v1:user-update:${timestamp}`), timestamp };
}
