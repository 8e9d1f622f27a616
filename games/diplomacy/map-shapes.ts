// The Diplomacy map as shapes: a board (board-state.ts, the state after one timeline position) → the regions, centres,
// units, order arrows and marks the map draws. Pure and deterministic (same board, same shapes), so it is unit-tested
// on recorded games; board-map.tsx only turns these shapes into SVG.
import type { DiplomacyBoard, DiplomacyOrderKind, DiplomacyOrderLine } from './board-state.js';
import { ARMY_EDGE_LIST, FLEET_EDGE_LIST, POWERS, PROVINCES, type ProvinceKind } from './map-data.js';
import { COAST_PLACES, DEFAULT_REACH, IMPASSABLE_PLACES, MAP_HEIGHT, MAP_WIDTH, PROVINCE_PLACES } from './map-layout.js';

export interface Point {
  x: number;
  y: number;
}

/** One colour per power (the usual board colours), used by the regions, units, arrows and the legend. */
export const POWER_COLOURS: Readonly<Record<string, string>> = {
  AUSTRIA: '#c92a2a',
  ENGLAND: '#c2255c',
  FRANCE: '#1c7ed6',
  GERMANY: '#495057',
  ITALY: '#2b8a3e',
  RUSSIA: '#6741d9',
  TURKEY: '#d9a400',
};

export interface ProvinceShape {
  id: string;
  name: string;
  kind: ProvinceKind;
  /** SVG path of its region. */
  path: string;
  label: Point;
  /** Its supply-centre marker, or null when it has none. */
  centre: Point | null;
  /** Who owns its supply centre (null: neutral, or no centre). */
  owner: string | null;
}

export interface UnitShape {
  power: string;
  type: 'A' | 'F';
  at: string;
  x: number;
  y: number;
  /** Dislodged in the phase just resolved, waiting for its retreat (drawn beside the unit that took its place). */
  dislodged: boolean;
}

export interface OrderShape {
  kind: DiplomacyOrderKind;
  power: string;
  text: string;
  result: string;
  /** A bounced move, a cut support, a failed convoy. */
  failed: boolean;
  /** Province ids (no coast): the ordered unit's and where the order points (a support's supported destination). */
  from: string;
  to: string | null;
  /** The line drawn, if any (holds, builds and disbands are rings and marks only). */
  line: { x1: number; y1: number; x2: number; y2: number } | null;
  /** Arrowhead polygon points ("x,y x,y x,y"), for moves and retreats. */
  head: string | null;
  /** A ring around the unit: holds and builds. */
  ring: (Point & { r: number }) | null;
}

export interface MarkShape {
  kind: 'bounce' | 'dislodged' | 'convoy' | 'disband';
  province: string;
  x: number;
  y: number;
  /** What the mark means, in words (its tooltip). */
  title: string;
}

/** A border of the game (the regions are a schematic: this says who really touches whom). */
export interface BorderShape {
  a: string;
  b: string;
  /** Who may cross it: armies, fleets or both. */
  by: 'army' | 'fleet' | 'both';
  line: { x1: number; y1: number; x2: number; y2: number };
}

export interface MapShapes {
  width: number;
  height: number;
  provinces: ProvinceShape[];
  borders: BorderShape[];
  impassable: { name: string; path: string }[];
  units: UnitShape[];
  orders: OrderShape[];
  marks: MarkShape[];
  /** The phase whose orders are drawn ("F1901M"), and its type. */
  ordersOf: { id: string; type: string } | null;
  powers: { power: string; colour: string; centres: number; units: number }[];
}

const UNIT_RADIUS = 11;
const HOLD_RADIUS = 17;
const DISLODGED_OFFSET = { x: 15, y: 13 };

const round = (n: number) => Math.round(n * 10) / 10;
const provinceOf = (location: string) => location.split('/')[0] as string;

/** Where a unit at this location stands: its coast's point for a fleet on one, else its province's. */
export function locationPoint(location: string): Point | null {
  const coast = COAST_PLACES[location];
  const place = coast ?? PROVINCE_PLACES[provinceOf(location)];
  return place ? { x: place[0], y: place[1] } : null;
}

// ---- regions: each province's point owns the part of the map nearer to it than to any other point ----------------

interface Site {
  x: number;
  y: number;
  reach: number;
}

/** Keeps the part of a convex polygon where a·x + b·y ≤ c. */
function clip(poly: Point[], a: number, b: number, c: number): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i] as Point;
    const q = poly[(i + 1) % poly.length] as Point;
    const fp = a * p.x + b * p.y - c;
    const fq = a * q.x + b * q.y - c;
    if (fp <= 0) out.push(p);
    if (fp < 0 !== fq < 0 && fp !== fq) {
      const t = fp / (fp - fq);
      out.push({ x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y) });
    }
  }
  return out;
}

function region(site: Site, others: readonly Site[]): string {
  const sides = 20;
  let poly: Point[] = Array.from({ length: sides }, (_, i) => ({
    x: site.x + site.reach * Math.cos((2 * Math.PI * i) / sides),
    y: site.y + site.reach * Math.sin((2 * Math.PI * i) / sides),
  }));
  poly = clip(clip(clip(clip(poly, -1, 0, 0), 1, 0, MAP_WIDTH), 0, -1, 0), 0, 1, MAP_HEIGHT);
  for (const o of others) {
    if (o === site) continue;
    poly = clip(poly, 2 * (o.x - site.x), 2 * (o.y - site.y), o.x * o.x + o.y * o.y - site.x * site.x - site.y * site.y);
  }
  return `M${poly.map((p) => `${round(p.x)},${round(p.y)}`).join(' L')} Z`;
}

let cachedRegions: { provinces: Map<string, string>; impassable: { name: string; path: string }[] } | null = null;

/** The regions depend on the layout alone: computed once. */
function regions() {
  if (cachedRegions) return cachedRegions;
  const provinceSites = [...PROVINCES.keys()].flatMap((id) => {
    const place = PROVINCE_PLACES[id];
    return place ? [{ id, site: { x: place[0], y: place[1], reach: place[2] ?? DEFAULT_REACH } }] : [];
  });
  const impassableSites = IMPASSABLE_PLACES.map((p) => ({ name: p.name, site: { x: p.at[0], y: p.at[1], reach: p.reach } }));
  const all = [...provinceSites.map((p) => p.site), ...impassableSites.map((p) => p.site)];
  cachedRegions = {
    provinces: new Map(provinceSites.map((p) => [p.id, region(p.site, all)])),
    impassable: impassableSites.map((p) => ({ name: p.name, path: region(p.site, all) })),
  };
  return cachedRegions;
}

/** Every border of the standard map once, between province points (coasts folded into their province). */
function borders(): BorderShape[] {
  const by = new Map<string, Set<'army' | 'fleet'>>();
  const add = (edges: readonly [string, string][], kind: 'army' | 'fleet') => {
    for (const [a, b] of edges) {
      const key = [provinceOf(a), provinceOf(b)].sort().join('-');
      by.set(key, (by.get(key) ?? new Set()).add(kind));
    }
  };
  add(ARMY_EDGE_LIST, 'army');
  add(FLEET_EDGE_LIST, 'fleet');
  return [...by.keys()].sort().flatMap((key) => {
    const [a, b] = key.split('-') as [string, string];
    const p = PROVINCE_PLACES[a];
    const q = PROVINCE_PLACES[b];
    const kinds = by.get(key) as Set<'army' | 'fleet'>;
    if (!p || !q) return [];
    return [
      { a, b, by: kinds.size === 2 ? 'both' : ([...kinds][0] as 'army' | 'fleet'), line: { x1: p[0], y1: p[1], x2: q[0], y2: q[1] } },
    ];
  });
}

let cachedBorders: BorderShape[] | null = null;

/** The borders depend on the map alone: computed once. */
function mapBorders(): BorderShape[] {
  if (!cachedBorders) cachedBorders = borders();
  return cachedBorders;
}

// ---- orders -------------------------------------------------------------------------------------------------------

/** The segment from a to b with `fromGap` and `toGap` cut off its ends. */
function segment(a: Point, b: Point, fromGap: number, toGap: number) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  return {
    x1: round(a.x + ux * fromGap),
    y1: round(a.y + uy * fromGap),
    x2: round(b.x - ux * toGap),
    y2: round(b.y - uy * toGap),
  };
}

/** The arrowhead at the segment's end. */
function arrowhead(line: { x1: number; y1: number; x2: number; y2: number }): string {
  const len = Math.hypot(line.x2 - line.x1, line.y2 - line.y1) || 1;
  const ux = (line.x2 - line.x1) / len;
  const uy = (line.y2 - line.y1) / len;
  const back = { x: line.x2 - ux * 11, y: line.y2 - uy * 11 };
  const points = [
    { x: line.x2, y: line.y2 },
    { x: back.x - uy * 6, y: back.y + ux * 6 },
    { x: back.x + uy * 6, y: back.y - ux * 6 },
  ];
  return points.map((p) => `${round(p.x)},${round(p.y)}`).join(' ');
}

const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

function orderShape(o: DiplomacyOrderLine, dislodgedAt: ReadonlySet<string>): { order: OrderShape; marks: MarkShape[] } | null {
  if (!o.kind || !o.at) return null;
  const from = locationPoint(o.at);
  if (!from) return null;
  const failed = o.result === 'bounced' || o.result === 'failed';
  const base: OrderShape = {
    kind: o.kind,
    power: o.power,
    text: o.order,
    result: o.result,
    failed,
    from: provinceOf(o.at),
    to: o.to ? provinceOf(o.to) : null,
    line: null,
    head: null,
    ring: null,
  };
  const marks: MarkShape[] = [];
  const to = o.to ? locationPoint(o.to) : null;
  const target = o.target ? locationPoint(o.target) : null;
  if ((o.kind === 'move' || o.kind === 'retreat') && to) {
    base.line = segment(from, to, UNIT_RADIUS + 1, UNIT_RADIUS + 2);
    base.head = arrowhead(base.line);
    if (o.kind === 'move' && failed)
      marks.push({ kind: 'bounce', province: provinceOf(o.to as string), x: base.line.x2, y: base.line.y2, title: `${o.order}: bounced` });
  } else if (o.kind === 'support' && target) {
    // A support meets the move it backs halfway along, or the unit it backs to hold.
    const end = to ? midpoint(target, to) : target;
    base.line = segment(from, end, UNIT_RADIUS + 1, to ? 0 : HOLD_RADIUS + 1);
  } else if (o.kind === 'convoy' && target && to) {
    const end = midpoint(target, to);
    base.line = segment(from, end, UNIT_RADIUS + 1, 0);
    marks.push({ kind: 'convoy', province: base.from, x: round(end.x), y: round(end.y), title: o.order });
  } else if (o.kind === 'hold') {
    // A dislodged unit held where the attacker now stands: its ring goes round it where it is drawn.
    const at = dislodgedAt.has(base.from) ? { x: from.x + DISLODGED_OFFSET.x, y: from.y + DISLODGED_OFFSET.y } : from;
    base.ring = { x: round(at.x), y: round(at.y), r: HOLD_RADIUS };
  } else if (o.kind === 'build') {
    base.ring = { x: from.x, y: from.y, r: HOLD_RADIUS };
  } else if (o.kind === 'disband') {
    marks.push({ kind: 'disband', province: base.from, x: from.x, y: from.y, title: `${o.power} ${o.order}: ${o.result}` });
  } else return null;
  return { order: base, marks };
}

// ---- the whole frame ----------------------------------------------------------------------------------------------

/** Everything the map draws for one board (one timeline position). */
export function diplomacyMapShapes(board: DiplomacyBoard): MapShapes {
  const { provinces: cells, impassable } = regions();
  const owners = new Map<string, string>();
  for (const p of board.powers) for (const c of p.centres) owners.set(c, p.power);
  const provinces: ProvinceShape[] = [...PROVINCES.values()].flatMap((p) => {
    const place = PROVINCE_PLACES[p.id];
    const path = cells.get(p.id);
    if (!place || !path) return [];
    return [
      {
        id: p.id,
        name: p.name,
        kind: p.kind,
        path,
        label: { x: place[0], y: place[1] - 15 },
        centre: p.supplyCentre ? { x: place[0], y: place[1] + 18 } : null,
        owner: p.supplyCentre ? (owners.get(p.id) ?? null) : null,
      },
    ];
  });

  const phase = board.lastPhase;
  const dislodgedUnits = phase?.type === 'movement' ? phase.dislodgedUnits : [];
  const dislodgedAt = new Set(dislodgedUnits.map((u) => provinceOf(u.at)));
  const units: UnitShape[] = [];
  for (const p of board.powers) {
    for (const u of p.units) {
      const at = locationPoint(u.at);
      if (at) units.push({ power: u.power, type: u.type, at: u.at, x: at.x, y: at.y, dislodged: false });
    }
  }
  const marks: MarkShape[] = [];
  for (const u of dislodgedUnits) {
    const at = locationPoint(u.at);
    if (!at) continue;
    const x = at.x + DISLODGED_OFFSET.x;
    const y = at.y + DISLODGED_OFFSET.y;
    units.push({ power: u.power, type: u.type, at: u.at, x, y, dislodged: true });
    const by = u.attackerFrom ? ` by the unit from ${u.attackerFrom}` : '';
    marks.push({ kind: 'dislodged', province: provinceOf(u.at), x, y, title: `${u.power} ${u.type} ${u.at} dislodged${by}` });
  }
  units.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : Number(a.dislodged) - Number(b.dislodged)));

  const orders: OrderShape[] = [];
  for (const o of phase?.orders ?? []) {
    const shaped = orderShape(o, dislodgedAt);
    if (!shaped) continue;
    orders.push(shaped.order);
    marks.push(...shaped.marks);
  }
  return {
    width: MAP_WIDTH,
    height: MAP_HEIGHT,
    provinces,
    borders: mapBorders(),
    impassable,
    units,
    orders,
    marks,
    ordersOf: phase ? { id: phase.id, type: phase.type } : null,
    powers: POWERS.map((power) => {
      const p = board.powers.find((x) => x.power === power);
      return { power, colour: POWER_COLOURS[power] as string, centres: p?.centres.length ?? 0, units: p?.units.length ?? 0 };
    }),
  };
}
