// Browser sessions of the admin UI: trading a launch code also sets a cookie, so a second tab (or one reopened later)
// of the same engine gets in without a new link, and so does an open tab after the engine restarts on the same data
// folder and port (`arena serve` takes the port it had last: EngineOptions.reuseLastPort). The cookie is HttpOnly (page scripts
// never read it), SameSite=Strict (no other site can make the browser send it), scoped to the admin API path and named
// for the engine's port (cookies ignore ports; two engines must not overwrite each other's). Its value is a random id
// bound to the Host it was issued for; it is never the admin token. Only its SHA-256 is kept (the data folder's
// database, migration 0340), so the database file alone lets nobody in.
// Ends: idle for ADMIN_SESSION_IDLE_MS, ADMIN_SESSION_MAX_MS after the link was traded however busy, a rotated value
// ROTATE_GRACE_MS after its successor was issued, and all at once with `arena serve --end-ui-sessions`.
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_PREFIX } from '../contract/admin.js';

/** Idle time after which a session ends; each use (at most every ROTATE_MS) extends it. */
export const ADMIN_SESSION_IDLE_MS = 60 * 60 * 1000;
/** Hard end of a session however busy, so a cookie copied off the machine is useless by the next morning. */
export const ADMIN_SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** A value older than this is replaced on its next use; the old one keeps working for ROTATE_GRACE_MS (requests in flight). */
export const ADMIN_SESSION_ROTATE_MS = 10 * 60 * 1000;
const ROTATE_GRACE_MS = 30 * 1000;
/** Sessions kept at most (the oldest goes first), so a page trading codes in a loop cannot grow the store. */
export const MAX_ADMIN_SESSIONS = 64;
/** A use moves the idle end only when it moves by at least this much, so busy pages do not write on every request. */
const EXTEND_STEP_MS = 60 * 1000;

export interface SessionEntry {
  host: string;
  createdAt: number;
  issuedAt: number;
  /** The session ends here (idle or hard end, whichever is sooner). */
  expiresAt: number;
  /** Set once rotated: the value dies here however it is used. */
  retiredAt: number | null;
}

/** Where sessions live, by the SHA-256 of their value: the data folder's database (store.adminSessions). */
export interface SessionBook {
  put(hash: string, entry: SessionEntry, keep: number): void;
  get(hash: string): SessionEntry | undefined;
  extend(hash: string, expiresAt: number): void;
  retire(hash: string, at: number): void;
  delete(hash: string): void;
}

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

export interface AdminSessions {
  /** A new session for the page on `host`; the Set-Cookie header value to answer with. */
  issue(host: string, secure: boolean): string;
  /**
   * Checks the request's cookie: null when it carries no live session for this host, otherwise whether it is valid
   * and, when the value was rotated, the Set-Cookie header to answer with.
   */
  check(cookieHeader: string | undefined, host: string, secure: boolean): { setCookie?: string } | null;
}

/** The cookie's name for the engine behind `host` (e.g. arena_admin_43117). */
export function adminCookieName(host: string): string {
  const port = /:(\d+)$/.exec(host)?.[1] ?? 'default';
  return `arena_admin_${port}`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createAdminSessions(now: () => number, book: SessionBook): AdminSessions {
  const cookie = (host: string, value: string, maxAgeMs: number, secure: boolean) =>
    `${adminCookieName(host)}=${value}; Path=${ADMIN_PREFIX}; Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}; HttpOnly; SameSite=Strict${
      secure ? '; Secure' : ''
    }`;

  const add = (host: string, createdAt: number) => {
    const t = now();
    const value = randomBytes(32).toString('base64url');
    const expiresAt = Math.min(t + ADMIN_SESSION_IDLE_MS, createdAt + ADMIN_SESSION_MAX_MS);
    book.put(hashOf(value), { host, createdAt, expiresAt, issuedAt: t, retiredAt: null }, MAX_ADMIN_SESSIONS);
    return { value, maxAgeMs: expiresAt - t };
  };

  return {
    issue(host, secure) {
      const { value, maxAgeMs } = add(host, now());
      return cookie(host, value, maxAgeMs, secure);
    },
    check(header, host, secure) {
      const value = readCookie(header, adminCookieName(host));
      if (value === undefined) return null;
      const t = now();
      // Looked up by the hash of the value: only issued values have a row, so the lookup is the comparison.
      const hash = hashOf(value);
      const entry = book.get(hash);
      if (!entry) return null;
      if (entry.expiresAt <= t || (entry.retiredAt !== null && entry.retiredAt <= t)) {
        book.delete(hash);
        return null;
      }
      // Bound to the origin it was issued for: a cookie jar shared by another loopback name gets nothing.
      if (entry.host !== host) return null;
      if (entry.retiredAt !== null) return {};
      if (t - entry.issuedAt < ADMIN_SESSION_ROTATE_MS) {
        const expiresAt = Math.min(t + ADMIN_SESSION_IDLE_MS, entry.createdAt + ADMIN_SESSION_MAX_MS);
        if (expiresAt - entry.expiresAt >= EXTEND_STEP_MS) book.extend(hash, expiresAt);
        return {};
      }
      book.retire(hash, t + ROTATE_GRACE_MS);
      const next = add(host, entry.createdAt);
      return { setCookie: cookie(host, next.value, next.maxAgeMs, secure) };
    },
  };
}
