// Time-ordered UUIDs (RFC 9562 version 7) for session ids: still UUIDs on the wire, with 74 random bits, but keyed by
// creation time first, so a new session's rows (its id index, its invites' session index, its chat) are appended at
// the right edge of each B-tree instead of splitting a random full leaf. Invites, which admit a player, stay random v4.
import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** Random bytes are drawn in batches: one getrandom call per 256 ids. */
const POOL = Buffer.alloc(16 * 256);
let offset = POOL.length;

function hex(bytes: Buffer, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += HEX[bytes[i] as number];
  return out;
}

/** A version 7 UUID for `nowMs` (milliseconds since the epoch): 48-bit time, then version, variant and random bits. */
export function timeOrderedUuid(nowMs: number = Date.now()): string {
  if (offset >= POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const bytes = POOL.subarray(offset, offset + 16);
  offset += 16;
  const ms = Math.max(0, Math.floor(nowMs));
  // 48 bits of time, big-endian: the high 16 bits and the low 32 bits written separately (no 64-bit integers needed).
  bytes.writeUInt16BE(Math.floor(ms / 2 ** 32) & 0xffff, 0);
  bytes.writeUInt32BE(ms % 2 ** 32, 2);
  bytes[6] = 0x70 | ((bytes[6] as number) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  return `${hex(bytes, 0, 4)}-${hex(bytes, 4, 6)}-${hex(bytes, 6, 8)}-${hex(bytes, 8, 10)}-${hex(bytes, 10, 16)}`;
}
