// Queries over the standard map: which unit type may stand where, who borders whom, and potential convoy routes.
import { ARMY_EDGE_LIST, FLEET_EDGE_LIST, POWERS, type Power, PROVINCES, type ProvinceInfo, STARTING_UNITS } from './map-data.js';

export type { Power, ProvinceInfo };
export { POWERS, PROVINCES, STARTING_UNITS };

export type UnitType = 'A' | 'F';

/** `STP/NC` → `STP`; a plain province id is returned unchanged. */
export function provinceOf(location: string): string {
  const slash = location.indexOf('/');
  return slash < 0 ? location : location.slice(0, slash);
}

export function province(id: string): ProvinceInfo {
  const info = PROVINCES.get(id);
  if (!info) throw new Error(`unknown province ${id}`);
  return info;
}

export function isProvince(id: string): boolean {
  return PROVINCES.has(id);
}

function adjacency(edges: readonly [string, string][]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    if (!map.has(a)) map.set(a, new Set());
    if (!map.has(b)) map.set(b, new Set());
    map.get(a)?.add(b);
    map.get(b)?.add(a);
  }
  return map;
}

const ARMY_ADJ = adjacency(ARMY_EDGE_LIST);
const FLEET_ADJ = adjacency(FLEET_EDGE_LIST);
const EMPTY: ReadonlySet<string> = new Set();

/** Locations a fleet at `location` (a coast where the province has two) can move to. */
export function fleetNeighbours(location: string): ReadonlySet<string> {
  return FLEET_ADJ.get(location) ?? EMPTY;
}

/** Provinces an army in `provinceId` can walk to. */
export function armyNeighbours(provinceId: string): ReadonlySet<string> {
  return ARMY_ADJ.get(provinceId) ?? EMPTY;
}

/** Whether a unit of this type may stand at the location (`STP` alone is not a fleet location). */
export function canOccupy(type: UnitType, location: string): boolean {
  const id = provinceOf(location);
  const info = PROVINCES.get(id);
  if (!info) return false;
  if (type === 'A') return info.kind !== 'sea' && location === id;
  if (info.kind === 'land') return false;
  if (info.coasts.length > 0) return info.coasts.includes(location);
  return location === id;
}

/** Whether a unit at `from` can move without convoy into province `toProvince` (any coast). */
export function canReachProvince(type: UnitType, from: string, toProvince: string): boolean {
  if (type === 'A') return armyNeighbours(provinceOf(from)).has(toProvince);
  for (const loc of fleetNeighbours(from)) if (provinceOf(loc) === toProvince) return true;
  return false;
}

/** The fleet locations of `toProvince` reachable from `from`. */
export function fleetTargets(from: string, toProvince: string): string[] {
  return [...fleetNeighbours(from)].filter((loc) => provinceOf(loc) === toProvince);
}

/** All province ids bordering `provinceId` for any unit type (civil-disorder distance counts these). */
export function anyNeighbours(provinceId: string): Set<string> {
  const out = new Set<string>(armyNeighbours(provinceId));
  const info = province(provinceId);
  const locations = info.coasts.length > 0 ? info.coasts : [provinceId];
  for (const loc of locations) for (const n of fleetNeighbours(loc)) out.add(provinceOf(n));
  return out;
}

export function isSea(provinceId: string): boolean {
  return PROVINCES.get(provinceId)?.kind === 'sea';
}

export function isCoastal(provinceId: string): boolean {
  return PROVINCES.get(provinceId)?.kind === 'coast';
}

/** Sea provinces adjacent (for fleets) to a province, on any of its coasts. */
function seasTouching(provinceId: string): string[] {
  const info = province(provinceId);
  const locations = info.coasts.length > 0 ? info.coasts : [provinceId];
  const out = new Set<string>();
  for (const loc of locations) for (const n of fleetNeighbours(loc)) if (isSea(n)) out.add(n);
  return [...out];
}

/**
 * Every chordless chain of sea provinces (each in `fleetSeas`) that carries an army from `from` to `to`: consecutive
 * seas border each other, the first touches `from`, the last touches `to`, and no sea of the chain could be skipped.
 * A fleet is "necessary for a convoy route" exactly when it lies on one of these chains (DATC 4.E.1, 6.G.19).
 */
export function convoyChains(from: string, to: string, fleetSeas: ReadonlySet<string>, containing?: string): string[][] {
  if (!isCoastal(from) || !isCoastal(to) || from === to) return [];
  const startSeas = new Set(seasTouching(from));
  const endSeas = new Set(seasTouching(to));
  const chains: string[][] = [];
  const path: string[] = [];
  const onPath = new Set<string>();
  const seaAdj = (a: string, b: string) => fleetNeighbours(a).has(b);
  const visit = (sea: string) => {
    if (containing !== undefined && chains.length > 0) return;
    // Chordless: the new sea may only border the previous one; and only the first may touch the origin.
    for (let i = 0; i < path.length - 1; i += 1) if (seaAdj(path[i] as string, sea)) return;
    if (path.length > 0 && startSeas.has(sea)) return;
    path.push(sea);
    onPath.add(sea);
    if (endSeas.has(sea)) {
      if (containing === undefined || onPath.has(containing)) chains.push([...path]);
    } else {
      for (const n of fleetNeighbours(sea)) if (isSea(n) && fleetSeas.has(n) && !onPath.has(n)) visit(n);
    }
    path.pop();
    onPath.delete(sea);
  };
  for (const sea of startSeas) if (fleetSeas.has(sea)) visit(sea);
  return chains;
}

/**
 * For an army in `from`: every coastal province it could be convoyed to through the given seas, with the seas that lie
 * on some chordless chain to it (one search for all destinations; same chains as `convoyChains`).
 */
export function convoyReach(from: string, fleetSeas: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (!isCoastal(from)) return out;
  const startSeas = new Set(seasTouching(from));
  const path: string[] = [];
  const onPath = new Set<string>();
  const touchedBefore = new Map<string, number>();
  const coastsOf = (sea: string) => [...fleetNeighbours(sea)].map(provinceOf).filter((p) => isCoastal(p));
  const visit = (sea: string) => {
    for (let i = 0; i < path.length - 1; i += 1) if (fleetNeighbours(path[i] as string).has(sea)) return;
    if (path.length > 0 && startSeas.has(sea)) return;
    path.push(sea);
    onPath.add(sea);
    const coasts = coastsOf(sea);
    for (const dest of coasts) {
      if (dest === from || (touchedBefore.get(dest) ?? 0) > 0) continue;
      const set = out.get(dest) ?? new Set<string>();
      for (const s of path) set.add(s);
      out.set(dest, set);
    }
    for (const dest of coasts) touchedBefore.set(dest, (touchedBefore.get(dest) ?? 0) + 1);
    for (const n of fleetNeighbours(sea)) if (isSea(n) && fleetSeas.has(n) && !onPath.has(n)) visit(n);
    for (const dest of coasts) touchedBefore.set(dest, (touchedBefore.get(dest) ?? 0) - 1);
    path.pop();
    onPath.delete(sea);
  };
  for (const sea of startSeas) if (fleetSeas.has(sea)) visit(sea);
  return out;
}

/** Whether any chain of the given seas joins `from` and `to` (any chain contains a chordless one). */
export function convoyReachable(from: string, to: string, fleetSeas: ReadonlySet<string>): boolean {
  if (!isCoastal(from) || !isCoastal(to) || from === to) return false;
  const endSeas = new Set(seasTouching(to));
  const queue = seasTouching(from).filter((s) => fleetSeas.has(s));
  const seen = new Set(queue);
  while (queue.length > 0) {
    const sea = queue.shift() as string;
    if (endSeas.has(sea)) return true;
    for (const n of fleetNeighbours(sea)) {
      if (isSea(n) && fleetSeas.has(n) && !seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return false;
}
