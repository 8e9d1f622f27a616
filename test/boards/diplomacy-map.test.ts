// The Diplomacy map's shapes (games/diplomacy/map-shapes.ts) on a game recorded from a real tournament run: seven
// scripted agents play a 1901 with bounces, supports, a convoy, a dislodgement and its retreat, then the server's
// defaults (test/fixtures/boards/diplomacy-map.json). Every arrow must join the provinces its order names, bounces and
// dislodgements must be marked, every centre drawn in its owner's colour, and a position must always draw the same.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../engine/contract/tournament.js';
import { type BoardLine, boardContext } from '../../engine/core/board.js';
import { diplomacyBoard } from '../../games/diplomacy/board-state.js';
import { ARMY_EDGE_LIST, FLEET_EDGE_LIST, PROVINCES } from '../../games/diplomacy/map-data.js';
import { COAST_PLACES, MAP_HEIGHT, MAP_WIDTH, PROVINCE_PLACES } from '../../games/diplomacy/map-layout.js';
import { diplomacyMapShapes, locationPoint, type MapShapes, type Point } from '../../games/diplomacy/map-shapes.js';
import { buildTimeline } from '../../renderer/src/features/match-viewer/timeline.js';

const file = JSON.parse(fs.readFileSync(new URL('../fixtures/boards/diplomacy-map.json', import.meta.url), 'utf8')) as {
  game: { seat_agents: string[]; invites: string[] };
  transcript: TranscriptEntry[];
};
const lines: BoardLine[] = buildTimeline(file.transcript).map((e) => e.source);
const ctx = boardContext(lines, file.game.seat_agents, file.game.invites);
const shapesAt = (position: number) => diplomacyMapShapes(diplomacyBoard.board(lines, position, ctx));
/** The timeline position of a phase's resolution. */
const resolvedAt = (phase: string) => lines.findIndex((l) => l.content === 'phase_resolved' && l.data?.phase_id === phase);
const recordOf = (phase: string) =>
  lines[resolvedAt(phase)]?.data as { orders: { order?: string; result: string; destination?: string }[] } & {
    dislodged: { unit: string }[];
  };

/** The province (or coast) whose point is nearest: where a drawn end lands. */
function nearest(p: Point): string {
  const places = [
    ...Object.entries(PROVINCE_PLACES).map(([id, [x, y]]) => ({ id, x, y })),
    ...Object.entries(COAST_PLACES).map(([id, [x, y]]) => ({ id: id.split('/')[0] as string, x, y })),
  ];
  return places.reduce((best, q) => (Math.hypot(q.x - p.x, q.y - p.y) < Math.hypot(best.x - p.x, best.y - p.y) ? q : best)).id;
}

/** Whether a point lies inside a region path ("Mx,y Lx,y … Z"), by ray casting. */
function inside(p: Point, path: string): boolean {
  const poly = [...path.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i] as Point;
    const b = poly[j] as Point;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) hit = !hit;
  }
  return hit;
}

const orderOf = (s: MapShapes, text: string) => {
  const found = s.orders.find((o) => o.text === text);
  if (!found) throw new Error(`no shape for ${text}`);
  return found;
};

describe('the Diplomacy map layout', () => {
  it('places every one of the 75 provinces and every named coast inside its own region, on the map', () => {
    expect(Object.keys(PROVINCE_PLACES).sort()).toEqual([...PROVINCES.keys()].sort());
    expect(Object.keys(PROVINCE_PLACES)).toHaveLength(75);
    expect(Object.keys(COAST_PLACES).sort()).toEqual([...PROVINCES.values()].flatMap((p) => p.coasts).sort());
    const s = shapesAt(-1);
    expect(s.provinces).toHaveLength(75);
    for (const p of s.provinces) {
      const at = locationPoint(p.id) as Point;
      expect(at.x > 0 && at.x < MAP_WIDTH && at.y > 0 && at.y < MAP_HEIGHT, p.id).toBe(true);
      expect(inside(at, p.path), `${p.id} inside its region`).toBe(true);
      expect(p.kind).toBe(PROVINCES.get(p.id)?.kind);
      for (const coast of PROVINCES.get(p.id)?.coasts ?? []) expect(inside(locationPoint(coast) as Point, p.path), coast).toBe(true);
    }
    expect(new Set(s.provinces.map((p) => p.kind))).toEqual(new Set(['sea', 'coast', 'land']));
  });

  it('draws regions that seem to touch only where the game has a border, but for a known few', () => {
    const pairs = new Set(
      [...ARMY_EDGE_LIST, ...FLEET_EDGE_LIST].map(([a, b]) => [a.split('/')[0] as string, b.split('/')[0] as string].sort().join('-')),
    );
    const corners = new Map(
      shapesAt(-1).provinces.map((p) => [
        p.id,
        [...p.path.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) })),
      ]),
    );
    /** Two regions touch when they share an edge: two corners in common. */
    const touch = (a: string, b: string) =>
      (corners.get(a) ?? []).filter((p) => (corners.get(b) ?? []).some((q) => Math.abs(p.x - q.x) < 1.5 && Math.abs(p.y - q.y) < 1.5))
        .length >= 2;
    const ids = [...corners.keys()];
    const seeming = ids.flatMap((a) => ids.filter((b) => a < b && touch(a, b)).map((b) => `${a}-${b}`));
    expect(seeming.filter((pair) => !pairs.has(pair))).toEqual([
      'ADR-ROM',
      'ALB-APU',
      'ALB-NAP',
      'BAL-SKA',
      'BER-DEN',
      'LON-PIC',
      'MAR-PAR',
    ]);
    // Most real borders are a shared edge on the map too.
    expect(seeming.filter((pair) => pairs.has(pair)).length).toBeGreaterThan(pairs.size / 2);
  });

  it("joins every pair of provinces that touch in the game's adjacency with one border line, marked by who may cross", () => {
    const pairs = new Set(
      [...ARMY_EDGE_LIST, ...FLEET_EDGE_LIST].map(([a, b]) => [a.split('/')[0] as string, b.split('/')[0] as string].sort().join('-')),
    );
    const { borders } = shapesAt(-1);
    expect(borders.map((b) => `${b.a}-${b.b}`).sort()).toEqual([...pairs].sort());
    const border = (a: string, b: string) => borders.find((x) => x.a === a && x.b === b);
    expect(border('BUR', 'PAR')?.by).toBe('army');
    expect(border('ENG', 'IRI')?.by).toBe('fleet');
    expect(border('BUL', 'CON')?.by).toBe('both');
    expect(border('NWY', 'STP')?.line).toEqual({
      x1: PROVINCE_PLACES.NWY?.[0],
      y1: PROVINCE_PLACES.NWY?.[1],
      x2: PROVINCE_PLACES.STP?.[0],
      y2: PROVINCE_PLACES.STP?.[1],
    });
  });
});

describe('the Diplomacy map of a recorded game', () => {
  it('starts with the 22 units of the standard position, the Russian fleet on the south coast of St Petersburg', () => {
    const s = shapesAt(lines.findIndex((l) => l.content === 'match_started'));
    expect(s.units).toHaveLength(22);
    expect(s.orders).toEqual([]);
    expect(s.ordersOf).toBeNull();
    const stp = s.units.find((u) => u.at === 'STP/SC');
    expect(stp).toMatchObject({ power: 'RUSSIA', type: 'F', x: COAST_PLACES['STP/SC']?.[0], y: COAST_PLACES['STP/SC']?.[1] });
  });

  it("draws every order of a phase between the provinces it names, as the record's orders read", () => {
    for (const phase of ['S1901M', 'F1901M']) {
      const s = shapesAt(resolvedAt(phase));
      expect(s.ordersOf).toEqual({ id: phase, type: 'movement' });
      expect(s.orders.map((o) => o.text).sort()).toEqual(
        recordOf(phase)
          .orders.map((o) => o.order as string)
          .sort(),
      );
      for (const o of s.orders) {
        if (o.kind === 'hold') {
          expect(o.ring, o.text).not.toBeNull();
          continue;
        }
        const line = o.line as NonNullable<typeof o.line>;
        expect(nearest({ x: line.x1, y: line.y1 }), `${o.text} starts at its unit`).toBe(o.from);
        if (o.kind === 'move') {
          expect(nearest({ x: line.x2, y: line.y2 }), `${o.text} ends at its destination`).toBe(o.to);
          expect(o.head).not.toBeNull();
        }
      }
    }
    const fall = shapesAt(resolvedAt('F1901M'));
    expect(orderOf(fall, 'A TYR - VEN')).toMatchObject({ kind: 'move', from: 'TYR', to: 'VEN', failed: false });
    // The support meets the supported move halfway between Tyrolia and Venice.
    const support = orderOf(fall, 'F TRI S TYR - VEN');
    const tyr = locationPoint('TYR') as Point;
    const ven = locationPoint('VEN') as Point;
    expect(support).toMatchObject({ kind: 'support', from: 'TRI', to: 'VEN', head: null });
    expect(support.line?.x2).toBeCloseTo((tyr.x + ven.x) / 2, 0);
    expect(support.line?.y2).toBeCloseTo((tyr.y + ven.y) / 2, 0);
    // The convoy is marked on the convoyed army's route, and the army's move says it went by sea.
    expect(orderOf(fall, 'F NTH C YOR - NWY')).toMatchObject({ kind: 'convoy', from: 'NTH', to: 'NWY' });
    expect(fall.marks.filter((m) => m.kind === 'convoy').map((m) => m.province)).toEqual(['NTH']);
    expect(orderOf(fall, 'A YOR - NWY VIA CONVOY')).toMatchObject({ kind: 'move', from: 'YOR', to: 'NWY' });
    const hold = orderOf(fall, 'F NWG H');
    expect(hold.ring).toMatchObject({ x: PROVINCE_PLACES.NWG?.[0], y: PROVINCE_PLACES.NWG?.[1] });
  });

  it('marks the bounces of Spring 1901 where the moves failed', () => {
    const s = shapesAt(resolvedAt('S1901M'));
    const bounced = recordOf('S1901M').orders.filter((o) => o.result === 'bounced');
    expect(bounced.map((o) => o.order).sort()).toEqual(['A BUD - GAL', 'A WAR - GAL', 'F ANK - BLA', 'F SEV - BLA']);
    expect(
      s.orders
        .filter((o) => o.failed)
        .map((o) => o.text)
        .sort(),
    ).toEqual(bounced.map((o) => o.order).sort());
    expect(
      s.marks
        .filter((m) => m.kind === 'bounce')
        .map((m) => m.province)
        .sort(),
    ).toEqual(['BLA', 'BLA', 'GAL', 'GAL']);
    // The bounced units stay where they were; the fleet that left the south coast of St Petersburg is in the Gulf.
    expect(s.units.find((u) => u.at === 'BUD')?.power).toBe('AUSTRIA');
    expect(s.units.find((u) => u.at === 'BOT')).toMatchObject({ power: 'RUSSIA', type: 'F' });
  });

  it('marks the dislodged army of Venice beside the army that took its place, then draws its retreat', () => {
    expect(recordOf('F1901M').dislodged.map((d) => d.unit)).toEqual(['A VEN']);
    const fall = shapesAt(resolvedAt('F1901M'));
    const inVenice = fall.units.filter((u) => u.at === 'VEN');
    expect(inVenice.map((u) => [u.power, u.dislodged])).toEqual([
      ['AUSTRIA', false],
      ['ITALY', true],
    ]);
    const [attacker, dislodged] = inVenice;
    expect(dislodged?.x).not.toBe(attacker?.x);
    expect(fall.marks.filter((m) => m.kind === 'dislodged')).toEqual([
      expect.objectContaining({ province: 'VEN', x: dislodged?.x, y: dislodged?.y, title: 'ITALY A VEN dislodged by the unit from TYR' }),
    ]);
    // Its hold ring goes round it where it is drawn, not round the Austrian army.
    expect(orderOf(fall, 'A VEN H').ring).toMatchObject({ x: dislodged?.x, y: dislodged?.y });

    const retreat = shapesAt(resolvedAt('F1901R'));
    expect(retreat.ordersOf).toEqual({ id: 'F1901R', type: 'retreat' });
    expect(retreat.orders).toEqual([expect.objectContaining({ kind: 'retreat', power: 'ITALY', from: 'VEN', to: 'TUS' })]);
    expect(retreat.units.filter((u) => u.dislodged)).toEqual([]);
    expect(retreat.units.find((u) => u.at === 'TUS')).toMatchObject({ power: 'ITALY', type: 'A' });
    expect(retreat.marks.filter((m) => m.kind === 'dislodged')).toEqual([]);
  });

  it("draws every supply centre in its owner's colour as the record counts them, and the winter's builds on their coasts", () => {
    const counted = lines.flatMap((l, k) => (l.content === 'supply_centers_updated' ? [k] : []));
    expect(counted.length).toBeGreaterThan(0);
    for (const k of counted) {
      const s = shapesAt(k);
      const centres = s.provinces.filter((p) => p.centre);
      expect(centres).toHaveLength(34);
      const counts = lines[k]?.data?.supply_center_counts as Record<string, number>;
      for (const [power, n] of Object.entries(counts))
        expect(
          centres.filter((p) => p.owner === power),
          power,
        ).toHaveLength(n);
      expect(s.powers.map((p) => [p.power, p.centres])).toEqual(Object.entries(counts).sort());
    }
    const after1901 = shapesAt(counted[0] as number);
    expect(after1901.provinces.find((p) => p.id === 'VEN')?.owner).toBe('AUSTRIA');
    expect(after1901.provinces.find((p) => p.id === 'NWY')?.owner).toBe('ENGLAND');
    const winter = shapesAt(resolvedAt('W1901A'));
    expect(winter.orders.filter((o) => o.kind === 'build').length).toBeGreaterThan(0);
    for (const b of winter.orders.filter((o) => o.kind === 'build')) expect(winter.units.some((u) => u.at.startsWith(b.from))).toBe(true);
    expect(winter.units.find((u) => u.at === 'STP/NC')).toMatchObject({
      power: 'RUSSIA',
      type: 'F',
      x: COAST_PLACES['STP/NC']?.[0],
      y: COAST_PLACES['STP/NC']?.[1],
    });
  });

  it('draws the same shapes for the same position, every time, and different ones after a phase', () => {
    const positions = [-1, resolvedAt('S1901M'), resolvedAt('F1901M'), resolvedAt('F1901R'), lines.length - 1];
    for (const k of positions) expect(JSON.stringify(shapesAt(k))).toBe(JSON.stringify(shapesAt(k)));
    const drawn = new Set(positions.map((k) => JSON.stringify(shapesAt(k))));
    expect(drawn.size).toBe(positions.length);
  });
});
