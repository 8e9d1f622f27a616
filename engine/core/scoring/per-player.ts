// Shared driver of the per-slot strategies (`average`, `win-rate`): every slot with an identity and a score
// counts as one game. Updates go through a working copy so a user seen twice builds on its own first update
// instead of the stale stored row (self-play never reaches here through the driver, but direct callers may).
import type { GameResult, Score } from '../../contract/specarena.js';
import { playerSlots } from './game.js';
import type { EntryReader, StrategyEntry } from './types.js';

export type SlotStep = (previous: StrategyEntry | undefined, userId: string, score: Score) => StrategyEntry;

export function updatePerScoredSlot(result: GameResult, read: EntryReader, step: SlotStep): StrategyEntry[] {
  const working = new Map<string, StrategyEntry>();
  for (const slot of playerSlots(result)) {
    if (slot.userId === undefined || slot.score === undefined) continue;
    const previous = working.get(slot.userId) ?? read(slot.userId);
    working.set(slot.userId, step(previous, slot.userId, slot.score));
  }
  return [...working.values()];
}
