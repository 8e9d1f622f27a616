// The standard map's shape: counts, home centres, coasts, and borders that differ by unit type.
import { describe, expect, it } from 'vitest';
import {
  armyNeighbours,
  canReachProvince,
  convoyChains,
  convoyReach,
  fleetNeighbours,
  POWERS,
  PROVINCES,
  STARTING_UNITS,
} from '../../../games/diplomacy/map.js';

describe('standard map', () => {
  it('has 75 provinces, 19 seas, 34 supply centres and 22 home centres', () => {
    const all = [...PROVINCES.values()];
    expect(all.length).toBe(75);
    expect(all.filter((p) => p.kind === 'sea').length).toBe(19);
    expect(all.filter((p) => p.supplyCentre).length).toBe(34);
    const homes = Object.fromEntries(POWERS.map((power) => [power, all.filter((p) => p.home === power).length]));
    expect(homes).toEqual({ AUSTRIA: 3, ENGLAND: 3, FRANCE: 3, GERMANY: 3, ITALY: 3, RUSSIA: 4, TURKEY: 3 });
    expect(STARTING_UNITS.length).toBe(22);
  });

  it('keeps army and fleet borders apart and splits coasts', () => {
    expect(armyNeighbours('ROM').has('VEN')).toBe(true);
    expect(canReachProvince('F', 'ROM', 'VEN')).toBe(false);
    expect(fleetNeighbours('SPA/NC').has('LYO')).toBe(false);
    expect(fleetNeighbours('SPA/SC').has('LYO')).toBe(true);
    expect([...fleetNeighbours('BUL/EC')].sort()).toEqual(['BLA', 'CON', 'RUM']);
    expect([...fleetNeighbours('STP/NC')].sort()).toEqual(['BAR', 'NWY']);
    expect(armyNeighbours('NTH').size).toBe(0);
    for (const p of PROVINCES.values()) {
      const borders = p.kind === 'sea' ? fleetNeighbours(p.id).size : armyNeighbours(p.id).size + fleetNeighbours(p.id).size;
      if (p.coasts.length === 0) expect(borders, p.id).toBeGreaterThan(0);
    }
  });

  it('finds only chordless convoy chains (a fleet that could be skipped is on none)', () => {
    expect(convoyChains('MAR', 'SPA', new Set(['LYO', 'WES']))).toEqual([['LYO']]);
    expect(convoyChains('LON', 'TUN', new Set(['ENG', 'MAO', 'WES'])).length).toBe(1);
  });
});

describe('convoy reach', () => {
  it('agrees with the per-destination chain search on every army origin with all seas full', () => {
    const seas = new Set([...PROVINCES.values()].filter((p) => p.kind === 'sea').map((p) => p.id));
    const coastal = [...PROVINCES.values()].filter((p) => p.kind === 'coast').map((p) => p.id);
    for (const from of ['LON', 'NAF', 'SYR', 'STP', 'BUL']) {
      const reach = convoyReach(from, seas);
      for (const to of coastal) {
        const expected = new Set(convoyChains(from, to, seas).flat());
        expect([...(reach.get(to) ?? [])].sort(), `${from}-${to}`).toEqual([...expected].sort());
      }
    }
  });
});
