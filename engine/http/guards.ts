// DNS-rebinding and CSRF defence plus the admin-token check for control routes.

import { timingSafeEqual } from 'node:crypto';
import { APP_ORIGIN } from '../contract/channels.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

const hostVerdicts = new Map<string, boolean>();

/** Accepts Host headers naming a loopback address (with or without port); anything else may be a rebinding attack. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  // Checked on every request, and a client sends the same few Host values, so verdicts are remembered (bounded).
  const known = hostVerdicts.get(host);
  if (known !== undefined) return known;
  const verdict = checkLoopbackHost(host);
  if (hostVerdicts.size >= 256) hostVerdicts.clear();
  hostVerdicts.set(host, verdict);
  return verdict;
}

function checkLoopbackHost(host: string): boolean {
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  if (!name) return false;
  const lower = name.toLowerCase();
  return LOOPBACK_NAMES.has(lower) || /^127(\.\d{1,3}){3}$/.test(lower) || lower.endsWith('.localhost');
}

/** Origins allowed to call the engine from a browser: the engine's own origin and the desktop shell. */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (origin === APP_ORIGIN) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.host) && url.host === host;
  } catch {
    return false;
  }
}

export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim();
}

export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
