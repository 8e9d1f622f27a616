// Finds the engine: the desktop shell hands the connection over IPC; in a browser it is this origin plus the admin
// token, which the page gets by trading the one-time code of the link `arena serve` opened or printed (#code=…) in a
// POST, so the token itself is never in a URL. The fragment leaves the address bar before anything else happens.
// A `#token=` fragment (scripts that hold the token from `arena serve --json`) is still read, and removed the same way.
// The trade also sets the engine's HttpOnly session cookie, so a tab without a token (a second tab, one reopened
// later) still gets in: its connection has no token and the admin calls carry the cookie instead.
import {
  ADMIN_SESSION_PATH,
  AdminSessionStatusSchema,
  LAUNCH_CODE_PATH,
  LaunchCodeExchangeResponseSchema,
} from '../../../engine/contract/admin.js';
import { type ArenaApi, EngineConnectionSchema } from '../../../engine/contract/channels.js';

/** Per-tab storage only: a reload keeps working; other tabs rely on the session cookie. */
export const TOKEN_STORAGE_KEY = 'local-arena.admin-token';
/** The route a tab asked for before it had access, restored after the link that gives access is pasted in. */
export const RETURN_ROUTE_KEY = 'local-arena.return-route';

export interface Connection {
  baseUrl: string;
  /** Null in a browser tab that relies on the engine's session cookie. */
  token: string | null;
  mode: 'electron' | 'browser';
}

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Everything bootstrap touches, passed in, so it is tested without a DOM. */
export interface BootstrapEnv {
  arena?: Pick<ArenaApi, 'connection'> | undefined;
  location: { origin: string; pathname: string; search: string; hash: string };
  history: { replaceState(data: unknown, unused: string, url?: string): void };
  storage: KeyValueStore | null;
  /** Trades a launch code for the token (exchangeLaunchCode in the page); rejects when the code is dead. */
  exchangeCode?: (code: string) => Promise<string>;
  /** Whether the engine's session cookie is live (probeAdminSession in the page). */
  probeSession?: () => Promise<boolean>;
}

export type AccessProblem = { reason: 'no-token' | 'code-failed'; message: string };

export type BootstrapResult =
  /** `unverified`: no token; the session cookie may still let the tab in, and this says why not when it does not. */
  { ok: true; connection: Connection; unverified?: AccessProblem } | { ok: false; reason: 'code-failed' | 'shell-failed'; message: string };

/** The page's exchange: one POST to this origin; the engine answers 401 for a used, unknown or expired code. */
export async function exchangeLaunchCode(origin: string, code: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const res = await fetchImpl(`${origin}${LAUNCH_CODE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  if (!res.ok)
    throw new Error(res.status === 401 ? 'This link was already used or has expired.' : `The engine answered HTTP ${res.status}.`);
  return LaunchCodeExchangeResponseSchema.parse(await res.json()).token;
}

/** Asks the engine whether this browser's session cookie is live; the answer is never a 401. */
export async function probeAdminSession(origin: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const res = await fetchImpl(`${origin}${ADMIN_SESSION_PATH}`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!res.ok) return false;
  return AdminSessionStatusSchema.parse(await res.json()).signed_in;
}

/**
 * Splits `#name=abc` (or `#/route&name=abc`) into the value and the fragment that should remain; every `token=` and
 * `code=` part is removed from the rest. An empty value is removed but yields nothing.
 */
function extractFromHash(hash: string, name: 'token' | 'code'): { value: string | null; rest: string } {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (fragment === '') return { value: null, rest: '' };
  let found: string | null = null;
  const kept: string[] = [];
  for (const part of fragment.split('&')) {
    if (part.startsWith(`${name}=`)) {
      let value = part.slice(name.length + 1);
      try {
        value = decodeURIComponent(value);
      } catch {
        // keep the raw value; the engine will reject it if it is wrong
      }
      value = value.trim();
      if (value !== '') found = value;
    } else if (part !== '' && !part.startsWith('token=') && !part.startsWith('code=')) {
      kept.push(part);
    }
  }
  return { value: found, rest: kept.join('&') };
}

export function extractTokenFromHash(hash: string): { token: string | null; rest: string } {
  const { value, rest } = extractFromHash(hash, 'token');
  return { token: value, rest };
}

export function extractCodeFromHash(hash: string): { code: string | null; rest: string } {
  const { value, rest } = extractFromHash(hash, 'code');
  return { code: value, rest };
}

function safeStorage<T>(action: () => T): T | null {
  try {
    return action();
  } catch {
    // Storage can be disabled (privacy settings); the token then lives only in memory for this page.
    return null;
  }
}

export async function bootstrapConnection(env: BootstrapEnv): Promise<BootstrapResult> {
  if (env.arena) {
    try {
      const connection = EngineConnectionSchema.parse(await env.arena.connection());
      return { ok: true, connection: { ...connection, mode: 'electron' } };
    } catch (error) {
      return { ok: false, reason: 'shell-failed', message: error instanceof Error ? error.message : String(error) };
    }
  }

  const hash = env.location.hash;
  const { token: tokenFromHash, rest: kept } = extractTokenFromHash(hash);
  const { code } = extractCodeFromHash(hash);
  let rest = kept;
  if (hash.includes('token=') || hash.includes('code=')) {
    // A bare link pasted into a tab that had asked for a page: back to that page.
    const wanted = safeStorage(() => env.storage?.getItem(RETURN_ROUTE_KEY) ?? null);
    if (rest === '' && wanted?.startsWith('#/')) rest = wanted.slice(1);
    safeStorage(() => env.storage?.removeItem(RETURN_ROUTE_KEY));
    // Out of the address bar, the history entry, bookmarks and screenshots, before the code is even used.
    env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}${rest === '' ? '' : `#${rest}`}`);
  }
  const browser = (token: string | null, unverified?: AccessProblem): BootstrapResult => ({
    ok: true,
    connection: { baseUrl: env.location.origin, token, mode: 'browser' },
    ...(unverified ? { unverified } : {}),
  });
  let fromHash = tokenFromHash;
  if (code !== null && fromHash === null) {
    if (!env.exchangeCode) return { ok: false, reason: 'code-failed', message: 'This page cannot trade its launch code here.' };
    try {
      fromHash = await env.exchangeCode(code);
    } catch (error) {
      // A reload of a page whose code was already traded still has the token of this tab, or the cookie of an earlier trade.
      const stored = safeStorage(() => env.storage?.getItem(TOKEN_STORAGE_KEY) ?? null);
      if (stored) return browser(stored);
      return browser(null, { reason: 'code-failed', message: error instanceof Error ? error.message : String(error) });
    }
  }
  if (fromHash !== null) safeStorage(() => env.storage?.setItem(TOKEN_STORAGE_KEY, fromHash));
  const token = fromHash ?? safeStorage(() => env.storage?.getItem(TOKEN_STORAGE_KEY) ?? null);
  if (!token)
    return browser(null, {
      reason: 'no-token',
      message: 'This page needs a link from the running engine. Open the link printed by arena serve.',
    });
  return browser(token);
}

/** A tab refused access remembers the page it asked for, so the link pasted in next leads back there. */
export function rememberReturnRoute(env: Pick<BootstrapEnv, 'location' | 'storage'>): void {
  const hash = env.location.hash;
  if (hash.startsWith('#/') && hash.length > 2) safeStorage(() => env.storage?.setItem(RETURN_ROUTE_KEY, hash));
}

/** After the engine refused the token: a stale token must not be retried on every reload. */
export function forgetToken(storage: KeyValueStore | null): void {
  safeStorage(() => storage?.removeItem(TOKEN_STORAGE_KEY));
}
