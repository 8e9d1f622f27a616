// Claw Diplomacy on the match viewer's board: per power its seat, supply centres and units after the selected
// line, and the orders of the last resolved phase with their results. Units start from the standard map and follow
// each resolved phase (moves, dislodgements, retreats, builds and disbands); centres change hands after each Fall.
import { asNumber, asRecord, type BoardModel, clawName, dataOf, matchEvents, runtimeSentence, seatName } from '../../engine/core/board.js';
import { POWERS, PROVINCES, STARTING_UNITS } from './map-data.js';
import { parseOrder } from './orders.js';

export interface DiplomacyUnit {
  power: string;
  type: 'A' | 'F';
  at: string;
}

export type DiplomacyOrderKind = 'hold' | 'move' | 'support' | 'convoy' | 'retreat' | 'build' | 'disband';

export interface DiplomacyOrderLine {
  power: string;
  order: string;
  result: string;
  /** The order's shape, for the map; null when its text could not be read. */
  kind: DiplomacyOrderKind | null;
  /** The ordered unit's location (a coast for a fleet on one), or the build site. */
  at: string | null;
  /** Where it goes: a move's or retreat's destination, a supported or convoyed move's destination. */
  to: string | null;
  /** The supported or convoyed unit's location. */
  target: string | null;
  viaConvoy: boolean;
}

export interface DislodgedUnit extends DiplomacyUnit {
  /** Where the unit that dislodged it came from. */
  attackerFrom: string | null;
}

export interface DiplomacyBoard {
  /** "S1901M-N1" while negotiating, else the phase last resolved ("F1901M"). */
  phase: string | null;
  powers: { power: string; seat: number | null; centres: string[]; units: DiplomacyUnit[] }[];
  lastPhase: {
    id: string;
    type: string;
    orders: DiplomacyOrderLine[];
    dislodged: string[];
    /** A movement phase's dislodged units, until their retreat phase resolves. */
    dislodgedUnits: DislodgedUnit[];
  } | null;
  pressDelivered: number;
  over: { reason: string; winners: string[] } | null;
}

const provinceOf = (location: string) => location.split('/')[0] as string;

function parseUnit(text: unknown, power: string): DiplomacyUnit | null {
  if (typeof text !== 'string') return null;
  const m = /^([AF]) (\S+)$/.exec(text.trim());
  return m ? { power, type: m[1] as 'A' | 'F', at: m[2] as string } : null;
}

const records = (value: unknown) => (Array.isArray(value) ? value : []).map((v) => asRecord(v) ?? {});
const str = (value: unknown) => (typeof value === 'string' ? value : '');

const NO_SHAPE = { kind: null, at: null, to: null, target: null, viaConvoy: false } as const;

/** The map's reading of one recorded order: movement orders from their text, the others from their fields. */
function orderShape(o: Record<string, unknown>): Omit<DiplomacyOrderLine, 'power' | 'order' | 'result'> {
  if (o.type === 'BUILD') return { ...NO_SHAPE, kind: 'build', at: str(o.location) || null };
  if (o.type === 'DISBAND') return { ...NO_SHAPE, kind: 'disband', at: str(o.location) || str(o.origin) || null };
  if (o.type === 'RETREAT') return { ...NO_SHAPE, kind: 'retreat', at: str(o.origin) || null, to: str(o.destination) || null };
  if (typeof o.order !== 'string') return NO_SHAPE;
  try {
    const order = parseOrder(o.order);
    if (order.kind === 'waive' || order.kind === 'remove') return NO_SHAPE;
    if (order.kind === 'hold' || order.kind === 'disband' || order.kind === 'build')
      return { ...NO_SHAPE, kind: order.kind, at: order.unit.at };
    if (order.kind === 'move') return { ...NO_SHAPE, kind: 'move', at: order.unit.at, to: order.to, viaConvoy: order.viaConvoy };
    return { kind: order.kind, at: order.unit.at, to: order.to, target: order.target.at, viaConvoy: false };
  } catch {
    return NO_SHAPE;
  }
}

function orderText(o: Record<string, unknown>): string {
  if (typeof o.order === 'string') return o.order;
  if (o.type === 'BUILD') return `build ${str(o.unit_type)} ${str(o.location)}`;
  if (o.type === 'RETREAT') return `retreat ${str(o.origin)} → ${str(o.destination)}`;
  if (o.type === 'DISBAND') return `disband ${str(o.unit_type)} ${str(o.location) || str(o.origin)}`.replace(/ {2}/g, ' ');
  return str(o.type);
}

export const diplomacyBoard: BoardModel<DiplomacyBoard> = {
  id: 'diplomacy',
  board(lines, upto) {
    const units = new Map<string, DiplomacyUnit>(STARTING_UNITS.map((u) => [provinceOf(u.at), { power: u.power, type: u.type, at: u.at }]));
    const owners = new Map<string, string>();
    for (const p of PROVINCES.values()) if (p.home) owners.set(p.id, p.home);
    const seatOf = new Map<string, number>();
    let dislodged: DislodgedUnit[] = [];
    const board: DiplomacyBoard = { phase: null, powers: [], lastPhase: null, pressDelivered: 0, over: null };
    for (const e of matchEvents(lines, upto)) {
      const d = dataOf(e);
      if (e.content === 'power_assigned' && Array.isArray(e.visibility) && typeof d.power === 'string') {
        const seat = e.visibility[0];
        if (typeof seat === 'number') seatOf.set(d.power, seat);
      }
      if (typeof d.phase_key === 'string') board.phase = d.phase_key;
      if (e.content === 'press_delivered') board.pressDelivered++;
      if (e.content === 'phase_resolved') {
        const type = str(d.phase_type);
        const orders = records(d.orders);
        if (type === 'movement') {
          const gone = new Set(records(d.dislodged).map((x) => provinceOf(str(x.unit).slice(2))));
          dislodged = records(d.dislodged).flatMap((x) => {
            const unit = parseUnit(x.unit, str(x.power));
            return unit ? [{ ...unit, attackerFrom: str(x.attacker_origin) || null }] : [];
          });
          const moved: DiplomacyUnit[] = [];
          for (const o of orders) {
            const unit = parseUnit(o.unit, str(o.power));
            if (!unit) continue;
            units.delete(provinceOf(unit.at));
            if (gone.has(provinceOf(unit.at)) && o.result !== 'moved') continue;
            moved.push(typeof o.destination === 'string' && o.result === 'moved' ? { ...unit, at: o.destination } : unit);
          }
          for (const u of moved) units.set(provinceOf(u.at), u);
        }
        // A retreat's record names no power: it is the dislodged unit's.
        const retreating = type === 'retreat' ? dislodged : [];
        if (type === 'retreat') {
          for (const o of orders) {
            if (o.type !== 'RETREAT') continue;
            const unit = dislodged.find((u) => provinceOf(u.at) === provinceOf(str(o.origin)));
            if (unit && typeof o.destination === 'string') units.set(provinceOf(o.destination), { ...unit, at: o.destination });
          }
          dislodged = [];
        }
        if (type === 'adjustment') {
          for (const o of orders) {
            const at = str(o.location);
            if (o.type === 'BUILD' && (o.unit_type === 'A' || o.unit_type === 'F'))
              units.set(provinceOf(at), { power: str(o.power), type: o.unit_type, at });
            if (o.type === 'DISBAND') units.delete(provinceOf(at));
          }
        }
        board.phase = str(d.phase_id);
        board.lastPhase = {
          id: str(d.phase_id),
          type,
          orders: orders.map((o) => ({
            power: str(o.power) || (retreating.find((u) => provinceOf(u.at) === provinceOf(str(o.origin)))?.power ?? ''),
            order: orderText(o),
            result: str(o.result),
            ...orderShape(o),
          })),
          dislodged: dislodged.map((u) => `${u.power} ${u.type} ${u.at}`),
          dislodgedUnits: dislodged,
        };
      }
      if (e.content === 'supply_centers_updated') {
        for (const [province, unit] of units) if (PROVINCES.get(province)?.supplyCentre) owners.set(province, unit.power);
      }
      if (e.content === 'game_over') {
        board.over = { reason: str(d.finish_reason), winners: (Array.isArray(d.winner_powers) ? d.winner_powers : []).map(str) };
      }
    }
    board.powers = POWERS.map((power) => ({
      power,
      seat: seatOf.get(power) ?? null,
      centres: [...owners]
        .filter(([, owner]) => owner === power)
        .map(([p]) => p)
        .sort(),
      units: [...units.values()].filter((u) => u.power === power).sort((a, b) => (a.at < b.at ? -1 : 1)),
    }));
    return board;
  },
  sentence(line, ctx) {
    if (line.channel !== 'match') return null;
    const d = dataOf(line);
    switch (line.content) {
      case 'power_assigned': {
        const seat = Array.isArray(line.visibility) ? line.visibility[0] : undefined;
        return `${typeof seat === 'number' ? seatName(seat, ctx) : 'A seat'} plays ${d.power}.`;
      }
      case 'phase_submission':
        return `${clawName(ctx, d.agent_id)} (${d.power}) submits ${str(d.action).replace(/_/g, ' ')} in ${d.phase_key}.`;
      case 'press_delivered':
        return `${d.from_power} → ${d.to_power === 'global' ? 'everyone' : d.to_power}: “${d.content}”`;
      case 'negotiation_round_closed':
        return `Negotiation round ${d.phase_key} closes; its press is delivered.`;
      case 'phase_resolved': {
        const orders = records(d.orders);
        const moved = orders.filter((o) => o.result === 'moved' || o.result === 'built' || o.result === 'retreated').length;
        return `${d.phase_id} (${d.phase_type}) resolved: ${orders.length} orders, ${moved} ${d.phase_type === 'adjustment' ? 'built' : 'moved'}, ${records(d.dislodged).length} dislodged.`;
      }
      case 'supply_centers_updated': {
        const counts = Object.entries(asRecord(d.supply_center_counts) ?? {}).map(([p, n]) => `${p} ${asNumber(n) ?? 0}`);
        return `Supply centres after ${d.year}: ${counts.join(', ')}.`;
      }
      case 'game_over':
        return `The game is over (${str(d.finish_reason).replace(/_/g, ' ')}): ${(Array.isArray(d.winner_powers) ? d.winner_powers : []).join(' and ') || 'no winner'}.`;
      default:
        return runtimeSentence(line, ctx);
    }
  },
};
