// Units on the board and lookups by province.
import { type Power, provinceOf, type UnitType } from './map.js';

export interface Unit {
  power: Power;
  type: UnitType;
  /** Province id, or the coast (`STP/SC`) for a fleet in a split-coast province. */
  at: string;
}

export type UnitsByProvince = Map<string, Unit>;

export function indexUnits(units: readonly Unit[]): UnitsByProvince {
  const map: UnitsByProvince = new Map();
  for (const unit of sortUnits(units)) {
    const id = provinceOf(unit.at);
    if (map.has(id)) throw new Error(`two units in ${id}`);
    map.set(id, unit);
  }
  return map;
}

/** Units in a stable board order (by location), so results never depend on input order. */
export function sortUnits<T extends { at: string }>(units: readonly T[]): T[] {
  return [...units].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
