// Whether a session only its seat keys may join and play (runner-launched agents). Asked on every request that
// names a session; a flag is fixed at creation, and ids and invites are random UUIDs nobody can name before they
// exist, so answers can be kept (in a bounded map, emptied when full).
import type { Store } from '../../db/store.js';

const SEAT_KEY_CACHE_SIZE = 10_000;

export function createSeatKeyFlags(store: Store) {
  const seatKeyFlags = new Map<string, boolean>();

  function remembered(key: string, look: () => boolean): boolean {
    const known = seatKeyFlags.get(key);
    if (known !== undefined) return known;
    const required = look();
    if (seatKeyFlags.size >= SEAT_KEY_CACHE_SIZE) seatKeyFlags.clear();
    seatKeyFlags.set(key, required);
    return required;
  }

  return {
    /** True when `invite` belongs to a session that only its seat keys may play. */
    seatKeysRequired(invite: string): boolean {
      return remembered(`i:${invite}`, () => store.sessions.seatKeysRequiredForInvite(invite));
    },

    /** True when session `id` (a bare id) was created with seat keys. */
    seatKeysRequiredForSession(id: string): boolean {
      return remembered(`s:${id}`, () => store.sessions.seatKeysRequiredForSession(id));
    },
  };
}
