// The dependency-free agent client carries its own copy of the seeded RNG (agents run it without the engine's
// sources); this pins the copy to engine/core/rng.ts draw by draw, so the two cannot drift apart.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module without type declarations
import { createRng as createAgentRng } from '../../challenges/kit/agent-client.mjs';
import { createRng } from '../../engine/core/rng.js';

type AgentRng = { next(): number; nextInt(min: number, max: number): number; pick<T>(items: T[]): T };

describe('agent-client.mjs RNG', () => {
  it.each(['0', '42', 'psi:7:seat-1', 'ünïcødé seed', ''])('draws what engine/core/rng.ts draws for seed %j', (seed) => {
    const engine = createRng(seed);
    const agent = createAgentRng(seed) as AgentRng;
    for (let i = 0; i < 200; i++) expect(agent.next()).toBe(engine.next());
    for (let i = 0; i < 200; i++) expect(agent.nextInt(-5, 17)).toBe(engine.nextInt(-5, 17));
    const items = ['a', 'b', 'c', 'd', 'e'];
    for (let i = 0; i < 50; i++) expect(agent.pick(items)).toBe(engine.pick(items));
  });
});
