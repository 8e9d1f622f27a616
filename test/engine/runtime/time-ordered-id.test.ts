// Session ids are RFC 9562 version 7 UUIDs: ordered by creation time, unguessable in their 74 random bits.
import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '../../../engine/runtime/time-ordered-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2026, 11, 2, 12, 30, 0, 123);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by creation time, as text too (what the B-trees key on)', () => {
    const ids = [0, 1, 255, 256, 65_535, 2 ** 32, 2 ** 40, Date.now()].map((ms) => timeOrderedUuid(ms));
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats, and its random bits vary in every position, within one millisecond and across pool refills', () => {
    const at = Date.now();
    const ids = Array.from({ length: 2000 }, () => timeOrderedUuid(at));
    expect(new Set(ids).size).toBe(ids.length);
    const hex = ids.map((id) => id.replace(/-/g, ''));
    // Positions 13-15 (rand_a) and 17-31 (rand_b); 16 holds the variant bits plus two random ones.
    for (const pos of [13, 14, 15, 17, 20, 25, 31]) expect(new Set(hex.map((h) => h[pos])).size).toBeGreaterThan(12);
    for (const h of hex) expect(h.slice(0, 12)).toBe(hex[0]?.slice(0, 12));
  });
});
