// One registry of playable entries: every challenge folder and every ClawArena game registers exactly once, with its
// protocol, seats, folder and an options check; the first registration of an id wins.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadChallenges, specArenaPlayables } from '../../../engine/challenges/registry.js';
import { PlayableRegistry } from '../../../engine/core/playables.js';
import { clawArenaPlayables } from '../../../engine/protocols/clawarena/playables.js';
import { GAMES } from '../../../games/index.js';

describe('the playable registry', () => {
  it('holds every challenge and every ClawArena game once, each with a real folder', async () => {
    const challenges = await loadChallenges();
    const registry = new PlayableRegistry([...specArenaPlayables(challenges), ...clawArenaPlayables(GAMES)]);
    const ids = registry.values().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of challenges.keys()) expect(registry.get(id)?.protocol).toBe('specarena');
    for (const id of GAMES.keys()) expect(registry.get(id)?.protocol).toBe('clawarena');
    expect(ids).toHaveLength(challenges.size + GAMES.size);
    for (const entry of registry.values()) {
      expect(fs.statSync(entry.dir).isDirectory(), entry.id).toBe(true);
      expect(entry.seats.min).toBeLessThanOrEqual(entry.seats.default);
      expect(entry.seats.default).toBeLessThanOrEqual(entry.seats.max);
      expect(entry.optionsProblem(entry.defaultOptions), entry.id).toBeNull();
    }
  });

  it('reports bad options in the playable’s own words', async () => {
    const registry = new PlayableRegistry([...specArenaPlayables(await loadChallenges()), ...clawArenaPlayables(GAMES)]);
    expect(registry.get('psi')?.optionsProblem({ setSize: 0 })).toMatch(/^setSize: /);
    expect(registry.get('liars_dice')?.optionsProblem({ players: 40 })).toBe('players must be 2-2');
  });

  it('keeps the first entry of an id', () => {
    const base = {
      name: 'x',
      description: '',
      seats: { min: 2, max: 2, default: 2 },
      defaultOptions: {},
      dir: '.',
      optionsProblem: () => null,
    };
    const registry = new PlayableRegistry([
      { ...base, id: 'same', protocol: 'specarena' },
      { ...base, id: 'same', protocol: 'clawarena' },
    ]);
    expect(registry.values()).toHaveLength(1);
    expect(registry.get('same')?.protocol).toBe('specarena');
  });
});
