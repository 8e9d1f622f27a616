// Browser sessions of the admin UI: trading a launch code also sets a short-lived cookie, so a second tab (or one
// reopened later) of the same engine gets in without a new link. The cookie is HttpOnly (page scripts never read it),
// SameSite=Strict (no other site can make the browser send it), scoped to the admin API path and named for the
// engine's port (cookies ignore ports; two engines must not overwrite each other's). Its value is a random id known
// only to this process's memory and bound to the Host it was issued for; it is never the admin token.
import { randomBytes } from 'node:crypto';
import { ADMIN_PREFIX } from '../contract/admin.js';

/** Idle time after which a session ends; each use (at most every ROTATE_MS) extends it. */
export const ADMIN_SESSION_IDLE_MS = 60 * 60 * 1000;
/** Hard end of a session however busy, so a cookie copied off the machine is useless by the next morning. */
export const ADMIN_SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** A value older than this is replaced on its next use; the old one keeps working for ROTATE_GRACE_MS (requests in flight). */
export const ADMIN_SESSION_ROTATE_MS = 10 * 60 * 1000;
const ROTATE_GRACE_MS = 30 * 1000;
/** Sessions kept at most (the oldest goes first), so a page trading codes in a loop cannot grow memory. */
const MAX_SESSIONS = 64;

interface Entry {
  host: string;
  createdAt: number;
  /** The session ends here (idle or hard end, whichever is sooner). */
  expiresAt: number;
  issuedAt: number;
  /** Set once rotated: the value dies here however it is used. */
  retiredAt?: number;
}

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

export function createAdminSessions(now: () => number = Date.now): AdminSessions {
  const live = new Map<string, Entry>();

  const cookie = (host: string, value: string, maxAgeMs: number, secure: boolean) =>
    `${adminCookieName(host)}=${value}; Path=${ADMIN_PREFIX}; Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}; HttpOnly; SameSite=Strict${
      secure ? '; Secure' : ''
    }`;

  const add = (host: string, createdAt: number) => {
    const t = now();
    const value = randomBytes(32).toString('base64url');
    const expiresAt = Math.min(t + ADMIN_SESSION_IDLE_MS, createdAt + ADMIN_SESSION_MAX_MS);
    live.set(value, { host, createdAt, expiresAt, issuedAt: t });
    while (live.size > MAX_SESSIONS) live.delete(live.keys().next().value as string);
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
      // Only this map knows valid values, so a lookup is the comparison; its timing says nothing about other values.
      const entry = live.get(value);
      if (!entry) return null;
      if (entry.expiresAt <= t || (entry.retiredAt !== undefined && entry.retiredAt <= t)) {
        live.delete(value);
        return null;
      }
      // Bound to the origin it was issued for: a cookie jar shared by another loopback name gets nothing.
      if (entry.host !== host) return null;
      if (entry.retiredAt !== undefined) return {};
      if (t - entry.issuedAt < ADMIN_SESSION_ROTATE_MS) {
        entry.expiresAt = Math.min(t + ADMIN_SESSION_IDLE_MS, entry.createdAt + ADMIN_SESSION_MAX_MS);
        return {};
      }
      entry.retiredAt = t + ROTATE_GRACE_MS;
      const next = add(host, entry.createdAt);
      return { setCookie: cookie(host, next.value, next.maxAgeMs, secure) };
    },
  };
}
