// One-time launch codes: what `arena serve` puts in the link it opens or prints instead of the admin token. The page
// trades the code once for the token (POST, so the token never sits in a URL, argv, browser history or session
// file); a used or expired code is dead. Codes live only in this process's memory.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Long enough to click a link that was just opened or printed; short enough that an old one is useless. */
export const LAUNCH_CODE_TTL_MS = 2 * 60 * 1000;
/** Outstanding codes kept at most (the oldest goes first), so issuing cannot grow memory. */
const MAX_OUTSTANDING = 16;

export interface LaunchCodes {
  issue(ttlMs?: number): string;
  /** The admin token for a live code (which dies with this call), or null. */
  redeem(code: string): string | null;
}

export function createLaunchCodes(token: string, now: () => number = Date.now): LaunchCodes {
  const live = new Map<string, number>();
  return {
    issue(ttlMs = LAUNCH_CODE_TTL_MS) {
      const code = randomBytes(24).toString('base64url');
      live.set(code, now() + ttlMs);
      while (live.size > MAX_OUTSTANDING) live.delete(live.keys().next().value as string);
      return code;
    },
    redeem(code) {
      const t = now();
      let matched: string | null = null;
      for (const [candidate, expires] of live) {
        if (expires <= t) {
          live.delete(candidate);
          continue;
        }
        const a = Buffer.from(candidate);
        const b = Buffer.from(code);
        if (a.length === b.length && timingSafeEqual(a, b)) matched = candidate;
      }
      if (matched === null) return null;
      live.delete(matched);
      return token;
    },
  };
}
