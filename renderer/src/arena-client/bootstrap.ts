// Finds the engine: the desktop shell hands the connection over IPC; in a browser it is this origin plus the
// token from the link `arena serve` printed (#token=…), which is then removed from the address bar.
import { type ArenaApi, EngineConnectionSchema } from '../../../engine/contract/channels.js';

/** Per-tab storage only: a reload keeps working, a new tab or a restart needs the link again. */
export const TOKEN_STORAGE_KEY = 'local-arena.admin-token';

export interface Connection {
  baseUrl: string;
  token: string;
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
}

export type BootstrapResult = { ok: true; connection: Connection } | { ok: false; reason: 'no-token' | 'shell-failed'; message: string };

/**
 * Splits `#token=abc` (or `#/route&token=abc`) into the token and the fragment that should remain.
 * An empty `token=` is removed but yields no token.
 */
export function extractTokenFromHash(hash: string): { token: string | null; rest: string } {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (fragment === '') return { token: null, rest: '' };
  let token: string | null = null;
  const kept: string[] = [];
  for (const part of fragment.split('&')) {
    if (part.startsWith('token=')) {
      let value = part.slice('token='.length);
      try {
        value = decodeURIComponent(value);
      } catch {
        // keep the raw value; the engine will reject it if it is wrong
      }
      value = value.trim();
      if (value !== '') token = value;
    } else if (part !== '') {
      kept.push(part);
    }
  }
  return { token, rest: kept.join('&') };
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

  const { token: fromHash, rest } = extractTokenFromHash(env.location.hash);
  if (env.location.hash.includes('token=')) {
    if (fromHash !== null) safeStorage(() => env.storage?.setItem(TOKEN_STORAGE_KEY, fromHash));
    // Out of the address bar, the history entry, bookmarks and screenshots.
    env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}${rest === '' ? '' : `#${rest}`}`);
  }
  const token = fromHash ?? safeStorage(() => env.storage?.getItem(TOKEN_STORAGE_KEY) ?? null);
  if (!token) {
    return {
      ok: false,
      reason: 'no-token',
      message: 'This page needs the admin token of the running engine. Open the link printed by arena serve.',
    };
  }
  return { ok: true, connection: { baseUrl: env.location.origin, token, mode: 'browser' } };
}

/** After the engine refused the token: a stale token must not be retried on every reload. */
export function forgetToken(storage: KeyValueStore | null): void {
  safeStorage(() => storage?.removeItem(TOKEN_STORAGE_KEY));
}
