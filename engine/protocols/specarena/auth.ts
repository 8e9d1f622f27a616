// Auth mode (spec §4 with decision 11(f)): Ed25519-signed joins and profile updates, HMAC session keys with expiry.
import { createHash, createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { ArenaError } from './arena-error.js';

export const SIGNATURE_WINDOW_MS = 300_000;
export const DEFAULT_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface SignedFields {
  publicKey?: unknown;
  signature?: unknown;
  timestamp?: unknown;
}

/** userId = hex(SHA-256(lower-cased public-key hex)), so the hex case of a key never changes the identity. */
export function userIdForPublicKey(publicKeyHex: string): string {
  return createHash('sha256').update(publicKeyHex.toLowerCase(), 'utf8').digest('hex');
}

function verifyEd25519(publicKeyHex: string, message: string, signatureHex: string): boolean {
  try {
    if (!/^[0-9a-fA-F]+$/.test(publicKeyHex) || !/^[0-9a-fA-F]{128}$/.test(signatureHex)) return false;
    const key = createPublicKey({ key: Buffer.from(publicKeyHex, 'hex'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

/**
 * Checks presence, type, window (before the signature, as the reference does) and signature of a signed body.
 * `messageFor` builds the signed text from the timestamp as JavaScript renders the number.
 */
export function verifySignedBody(body: SignedFields, now: number, messageFor: (timestamp: number) => string): { userId: string } {
  const { publicKey, signature, timestamp } = body;
  if (!publicKey || !signature || !timestamp) throw new ArenaError(400, 'publicKey, signature, and timestamp are required');
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) throw new ArenaError(400, 'timestamp must be a number');
  if (typeof publicKey !== 'string' || typeof signature !== 'string') throw new ArenaError(401, 'Invalid signature');
  if (Math.abs(now - timestamp) > SIGNATURE_WINDOW_MS) throw new ArenaError(401, 'Timestamp expired');
  if (!verifyEd25519(publicKey, messageFor(timestamp), signature)) throw new ArenaError(401, 'Invalid signature');
  return { userId: userIdForPublicKey(publicKey) };
}

export const joinMessage = (invite: string) => (timestamp: number) => `arena:v1:join:${invite}:${timestamp}`;
export const userUpdateMessage = (timestamp: number) => `arena:v1:user-update:${timestamp}`;

function keyHmac(secret: Buffer, challengeId: string, index: number, exp: number): string {
  return createHmac('sha256', secret).update(`arena:v1:session:${challengeId}:${index}:${exp}`, 'utf8').digest('hex');
}

export function issueSessionKey(
  secret: Buffer,
  challengeId: string,
  playerIndex: number,
  now: number,
  lifetimeMs = DEFAULT_KEY_LIFETIME_MS,
): string {
  const exp = Math.floor((now + lifetimeMs) / 1000);
  return `s_${playerIndex}.${exp}.${keyHmac(secret, challengeId, playerIndex, exp)}`;
}

/** The player index a key grants in `challengeId`, or null for a malformed, foreign, forged or expired key. */
export function verifySessionKey(secret: Buffer, challengeId: string, key: string, now: number): number | null {
  if (!key.startsWith('s_')) return null;
  const parts = key.slice(2).split('.');
  if (parts.length !== 3) return null;
  const [indexText, expText, mac] = parts as [string, string, string];
  if (!/^\d{1,6}$/.test(indexText) || !/^\d{1,12}$/.test(expText) || !/^[a-f0-9]{64}$/.test(mac)) return null;
  const index = Number(indexText);
  const exp = Number(expText);
  const expected = Buffer.from(keyHmac(secret, challengeId, index, exp), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return null;
  if (exp * 1000 <= now) return null;
  return index;
}

function seatHmac(secret: Buffer, challengeId: string, slot: number, exp: number): string {
  return createHmac('sha256', secret).update(`arena:v1:seat:${challengeId}:${slot}:${exp}`, 'utf8').digest('hex');
}

/**
 * Seat keys (the agent launch contract's ARENA_SESSION_KEY): issued before anyone joins, bound to one invite slot
 * of one session, accepted in both modes. Shape `a_<slot>.<exp>.<hmac>`, parsed like session keys.
 */
export function issueSeatKey(secret: Buffer, challengeId: string, slot: number, now: number, lifetimeMs = DEFAULT_KEY_LIFETIME_MS): string {
  const exp = Math.floor((now + lifetimeMs) / 1000);
  return `a_${slot}.${exp}.${seatHmac(secret, challengeId, slot, exp)}`;
}

/**
 * Seat keys that passed their HMAC, per secret: an agent presents the same key on every request, and a key that once
 * matched a session's slot always will (its expiry is still checked each time). Forged keys are never remembered.
 * Bounded, emptied when full.
 */
const verifiedSeatKeys = new WeakMap<Buffer, Map<string, { slot: number; exp: number }>>();
const VERIFIED_SEAT_KEYS_MAX = 10_000;

export function verifySeatKey(secret: Buffer, challengeId: string, key: string, now: number): number | null {
  let verified = verifiedSeatKeys.get(secret);
  if (!verified) {
    verified = new Map();
    verifiedSeatKeys.set(secret, verified);
  }
  const memo = `${challengeId} ${key}`;
  let proof = verified.get(memo) ?? null;
  if (!proof) {
    proof = checkSeatKey(secret, challengeId, key);
    if (!proof) return null;
    if (verified.size >= VERIFIED_SEAT_KEYS_MAX) verified.clear();
    verified.set(memo, proof);
  }
  return proof.exp * 1000 <= now ? null : proof.slot;
}

/** The slot and expiry a seat key's HMAC proves for `challengeId`, or null for a malformed, foreign or forged key. */
function checkSeatKey(secret: Buffer, challengeId: string, key: string): { slot: number; exp: number } | null {
  if (!key.startsWith('a_')) return null;
  const parts = key.slice(2).split('.');
  if (parts.length !== 3) return null;
  const [slotText, expText, mac] = parts as [string, string, string];
  if (!/^\d{1,6}$/.test(slotText) || !/^\d{1,12}$/.test(expText) || !/^[a-f0-9]{64}$/.test(mac)) return null;
  const slot = Number(slotText);
  const exp = Number(expText);
  const expected = Buffer.from(seatHmac(secret, challengeId, slot, exp), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return null;
  return { slot, exp };
}
