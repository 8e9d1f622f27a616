// A cap on sessions opened through the public API per client per minute (POST /api/challenges/:name), so one local
// program cannot flood the database with sessions. Every caller is on loopback, so the address alone names nobody:
// on Linux the client is the local user owning the connecting socket (from /proc/net/tcp), elsewhere its address.
// A token bucket per client: `perMinute` at once, then one more every 60/perMinute s. The engine's own sessions
// (tournaments, admin) do not pass through here.
import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';

/** The default: generous for a person or a script playing by hand, far below a flood (3,000 in 4 s was seen). */
export const DEFAULT_SESSIONS_PER_MINUTE = 600;
/** Overrides the default (`0` = no cap); read once at engine start. */
export const SESSION_CAP_ENV = 'ARENA_SESSIONS_PER_MINUTE';

const MAX_CLIENTS = 10_000;

export interface SessionCap {
  /** Takes one session for `client`; the seconds to wait when its budget is spent. */
  take(client: string, nowMs: number): { ok: true } | { ok: false; retryAfterSeconds: number };
}

export function createSessionCap(perMinute: number): SessionCap {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;
  return {
    take(client, nowMs) {
      if (perMinute <= 0) return { ok: true };
      const bucket = buckets.get(client) ?? { tokens: perMinute, at: nowMs };
      bucket.tokens = Math.min(perMinute, bucket.tokens + Math.max(0, nowMs - bucket.at) * perMs);
      bucket.at = nowMs;
      if (bucket.tokens < 1) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
      bucket.tokens -= 1;
      // A full bucket is the same as none: forget clients that stopped, so the map stays small.
      if (buckets.size >= MAX_CLIENTS)
        for (const [name, b] of buckets) if (b.tokens + (nowMs - b.at) * perMs >= perMinute) buckets.delete(name);
      buckets.set(client, bucket);
      return { ok: true };
    },
  };
}

/** The cap from the environment: a whole number of sessions per minute, 0 for none; anything else names the variable. */
export function sessionCapFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[SESSION_CAP_ENV];
  if (raw === undefined || raw === '') return DEFAULT_SESSIONS_PER_MINUTE;
  if (!/^\d{1,9}$/.test(raw.trim()))
    throw new Error(`${SESSION_CAP_ENV} must be a whole number of sessions per client per minute (0 = no cap), got ${JSON.stringify(raw)}`);
  return Number(raw.trim());
}

/** Who opened the connection: `uid:<n>` of the local user owning the peer socket (Linux, IPv4), else its address. */
export function clientOf(req: FastifyRequest): string {
  const socket = req.socket;
  const address = socket.remoteAddress ?? 'local';
  const uid = peerUid(address, socket.remotePort, socket.localAddress, socket.localPort);
  return uid === null ? `addr:${address}` : `uid:${uid}`;
}

function peerUid(remote: string, remotePort: number | undefined, local: string | undefined, localPort: number | undefined): number | null {
  if (process.platform !== 'linux' || remotePort === undefined || local === undefined || localPort === undefined) return null;
  const ipv4 = (a: string) => /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(a)?.[1];
  const peer = ipv4(remote);
  const self = ipv4(local);
  if (!peer || !self) return null;
  // The client's socket: its local end is the peer's address, its remote end ours.
  const wantLocal = `${hexAddress(peer)}:${hexPort(remotePort)}`;
  const wantRemote = `${hexAddress(self)}:${hexPort(localPort)}`;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const fields = line.trim().split(/\s+/);
      const [localField, remoteField] = [fields[1], fields[2]];
      if (localField === undefined || remoteField === undefined) continue;
      if (sameEnd(localField, wantLocal) && sameEnd(remoteField, wantRemote)) return Number(fields[7]);
    }
  }
  return null;
}

/** An address in /proc/net/tcp (IPv4: 8 hex digits) or tcp6 (an IPv4-mapped address ends in the same 8). */
function sameEnd(field: string, want: string): boolean {
  const [address, port] = field.split(':');
  const [wantAddress, wantPort] = want.split(':');
  return (
    port === wantPort &&
    address !== undefined &&
    wantAddress !== undefined &&
    address.endsWith(wantAddress) &&
    (address.length === 8 || address.startsWith('0000000000000000FFFF0000'))
  );
}

/** /proc/net/tcp prints an IPv4 address as one little-endian 32-bit word in hex. */
function hexAddress(ip: string): string {
  return ip
    .split('.')
    .reverse()
    .map((part) => Number(part).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function hexPort(port: number): string {
  return port.toString(16).padStart(4, '0').toUpperCase();
}
