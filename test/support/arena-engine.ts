// A SpecArena engine on a store the test opened, with a manual clock and a fixed seed: the engine without HTTP.
import { loadChallenges } from '../../engine/challenges/registry.js';
import { createManualClock } from '../../engine/core/clock.js';
import { createLiveBus } from '../../engine/core/live-bus.js';
import type { Store } from '../../engine/db/store.js';
import { createArenaEngine } from '../../engine/protocols/specarena/arena-engine.js';

export async function arenaEngineOn(store: Store, options: { staleAfterMs?: number } = {}) {
  const clock = createManualClock();
  const engine = createArenaEngine({
    store,
    challenges: await loadChallenges(),
    live: createLiveBus(),
    clock,
    seed: (purpose) => `test-seed:${purpose}`,
    staleAfterMs: options.staleAfterMs ?? 0,
  });
  return { engine, clock };
}
