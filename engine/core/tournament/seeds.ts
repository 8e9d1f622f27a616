// Per-game seeds come from the run seed and a label, never from a shared RNG stream, so a game's seed does not
// depend on how many other games were generated before it (§3: derived per game, not process-global).
import { createRng, type Rng } from '../rng.js';

/** 32 hex digits derived from `runSeed` and `label`; the same inputs always give the same string. */
export function deriveSeed(runSeed: string, label: string): string {
  // NUL cannot appear in YAML/JSON seeds typed by users, so "a" + "b:c" and "a:b" + "c" stay distinct.
  const rng = createRng(`${runSeed}\u0000${label}`);
  let out = '';
  for (let i = 0; i < 4; i++)
    out += Math.floor(rng.next() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return out;
}

/** An RNG for one scheduling decision (round order, swiss seat choice), independent of every other decision. */
export function derivedRng(runSeed: string, label: string): Rng {
  return createRng(deriveSeed(runSeed, label));
}

/** The opening seed of one meeting's opening; the label names everything that makes the opening distinct. */
export function openingSeed(runSeed: string, challenge: string, round: number, pairingIndex: number, opening: number): string {
  return deriveSeed(runSeed, `opening:${challenge}:${round}:${pairingIndex}:${opening}`);
}

/** Fisher–Yates in place with the given RNG. */
export function shuffleInPlace<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.nextInt(0, i);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}
