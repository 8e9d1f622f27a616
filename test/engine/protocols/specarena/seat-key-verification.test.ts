// Seat-key verification remembers keys whose HMAC matched; remembering must never widen what a key grants: expiry is
// still checked, the key still names one session and one slot, and a forged key or another installation's secret
// gets nothing.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueSeatKey, verifySeatKey } from '../../../../engine/protocols/specarena/auth.js';

const NOW = 1_800_000_000_000;
const LIFETIME = 60_000;

describe('seat-key verification', () => {
  it('accepts a key again while it is valid and refuses it once expired', () => {
    const secret = randomBytes(32);
    const key = issueSeatKey(secret, 'session-a', 1, NOW, LIFETIME);
    expect(verifySeatKey(secret, 'session-a', key, NOW)).toBe(1);
    expect(verifySeatKey(secret, 'session-a', key, NOW + 1000)).toBe(1);
    expect(verifySeatKey(secret, 'session-a', key, NOW + LIFETIME + 1000)).toBeNull();
  });

  it('refuses a remembered key for another session', () => {
    const secret = randomBytes(32);
    const key = issueSeatKey(secret, 'session-a', 0, NOW, LIFETIME);
    expect(verifySeatKey(secret, 'session-a', key, NOW)).toBe(0);
    expect(verifySeatKey(secret, 'session-b', key, NOW)).toBeNull();
  });

  it('refuses a forged key after the genuine one was accepted', () => {
    const secret = randomBytes(32);
    const key = issueSeatKey(secret, 'session-a', 0, NOW, LIFETIME);
    expect(verifySeatKey(secret, 'session-a', key, NOW)).toBe(0);
    const [head, mac] = [key.slice(0, key.lastIndexOf('.') + 1), key.slice(key.lastIndexOf('.') + 1)];
    const flipped = `${head}${mac.slice(0, -1)}${mac.endsWith('0') ? '1' : '0'}`;
    expect(verifySeatKey(secret, 'session-a', flipped, NOW)).toBeNull();
    // Another slot with the same MAC is a forgery too.
    expect(verifySeatKey(secret, 'session-a', key.replace(/^a_0\./, 'a_1.'), NOW)).toBeNull();
    // A later expiry with the same MAC (an agent extending its own key) is refused.
    const [, exp] = key.slice(2).split('.');
    expect(verifySeatKey(secret, 'session-a', key.replace(`.${exp}.`, `.${Number(exp) + 3600}.`), NOW)).toBeNull();
  });

  it("refuses a key another installation's secret accepted", () => {
    const ours = randomBytes(32);
    const theirs = randomBytes(32);
    const key = issueSeatKey(theirs, 'session-a', 0, NOW, LIFETIME);
    expect(verifySeatKey(theirs, 'session-a', key, NOW)).toBe(0);
    expect(verifySeatKey(ours, 'session-a', key, NOW)).toBeNull();
  });
});
