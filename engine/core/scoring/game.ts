// Reading a GameResult the way every strategy needs it: slot i belongs to players[i], its identity comes from
// playerIdentities and its score from scores[i] (spec §7.1).
import type { GameResult, Score } from '../../contract/specarena.js';

export interface PlayerSlot {
  index: number;
  invite: string;
  userId: string | undefined;
  score: Score | undefined;
}

export const SECURITY_BREACH = 'security_breach';

/** The identity of the player at `index`; own keys only, so an invite like "constructor" cannot hit the prototype. */
export function userIdAt(result: GameResult, index: number): string | undefined {
  const invite = result.players[index];
  if (invite === undefined || !Object.hasOwn(result.playerIdentities, invite)) return undefined;
  const userId = result.playerIdentities[invite];
  // An empty id is treated as anonymous, like the reference's falsy check.
  return typeof userId === 'string' && userId.length > 0 ? userId : undefined;
}

export function playerSlots(result: GameResult): PlayerSlot[] {
  return result.players.map((invite, index) => ({
    index,
    invite,
    userId: userIdAt(result, index),
    score: result.scores[index],
  }));
}

/** Self-play: some userId appears more than once among the identified players. */
export function isSelfPlay(result: GameResult): boolean {
  const seen = new Set<string>();
  for (const slot of playerSlots(result)) {
    if (slot.userId === undefined) continue;
    if (seen.has(slot.userId)) return true;
    seen.add(slot.userId);
  }
  return false;
}

/** The red-team / consecutive gate: at least two players and every one of them identified. */
export function fullyIdentified(result: GameResult): boolean {
  if (result.players.length < 2) return false;
  return playerSlots(result).every((slot) => slot.userId !== undefined);
}

export type IdentifiedSlot = PlayerSlot & { userId: string };

/** Distinct userIds in slot order (the first slot of a user wins). */
export function distinctIdentified(result: GameResult): IdentifiedSlot[] {
  const seen = new Set<string>();
  const out: IdentifiedSlot[] = [];
  for (const slot of playerSlots(result)) {
    const { userId } = slot;
    if (userId === undefined || seen.has(userId)) continue;
    seen.add(userId);
    out.push({ ...slot, userId });
  }
  return out;
}

export interface BreachCounts {
  caused: Map<string, number>;
  suffered: Map<string, number>;
}

/** Counts `security_breach` attributions per userId; indices that map to no identity are ignored on that side. */
export function breachCounts(result: GameResult): BreachCounts {
  const caused = new Map<string, number>();
  const suffered = new Map<string, number>();
  for (const attribution of result.attributions ?? []) {
    if (attribution.type !== SECURITY_BREACH) continue;
    const from = userIdAt(result, attribution.from);
    const to = userIdAt(result, attribution.to);
    if (from !== undefined) caused.set(from, (caused.get(from) ?? 0) + 1);
    if (to !== undefined) suffered.set(to, (suffered.get(to) ?? 0) + 1);
  }
  return { caused, suffered };
}

/** State comes back from JSON storage, so anything that is not a finite number counts as 0. */
export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
