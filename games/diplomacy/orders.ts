// Orders as data, and the text form used by the DATC cases and shown to people: `A VIE - TYR`, `F NTH C A LON - BEL`,
// `A TYR S A VIE - TRI`, `F TRI S A VEN`, `A GAS - MAR VIA CONVOY`, `A HOL D` (retreat disband), `BUILD F STP/NC`,
// `REMOVE A PAR`, `WAIVE`. Parsing only checks the shape; whether an order is possible is the adjudicator's business.
import { isProvince, type Power, type UnitType } from './map.js';

export interface UnitRef {
  /** Null when the writer left the unit type out (still a valid order, DATC 4.C.1). */
  type: UnitType | null;
  /** Province id, with a coast when one was written (`SPA/NC`). */
  at: string;
}

export type Order =
  | { kind: 'hold'; unit: UnitRef }
  | { kind: 'move'; unit: UnitRef; to: string; viaConvoy: boolean }
  | { kind: 'support'; unit: UnitRef; target: UnitRef; to: string | null }
  | { kind: 'convoy'; unit: UnitRef; target: UnitRef; to: string }
  | { kind: 'disband'; unit: UnitRef }
  | { kind: 'build'; unit: { type: UnitType | null; at: string } }
  | { kind: 'remove'; unit: UnitRef }
  | { kind: 'waive' };

export interface PowerOrder {
  power: Power;
  order: Order;
}

export class OrderSyntaxError extends Error {}

const COAST_RE = /^([A-Z]{3})(?:[/(]([NESW]C)\)?)?$/;

/** Normalises `spa(nc)`, `Spa/NC`, `SPA` to `SPA/NC` / `SPA`; throws on an unknown province. */
export function parseLocation(text: string): string {
  const m = COAST_RE.exec(text.trim().toUpperCase());
  if (!m || !isProvince(m[1] as string)) throw new OrderSyntaxError(`unknown province "${text}"`);
  return m[2] ? `${m[1]}/${m[2]}` : (m[1] as string);
}

function unitType(token: string | undefined): UnitType | null {
  return token === 'A' || token === 'F' ? token : null;
}

/** Reads `[A|F] LOC` from the front of the token list. */
function takeUnit(tokens: string[]): UnitRef {
  const type = unitType(tokens[0]);
  if (type) tokens.shift();
  const loc = tokens.shift();
  if (!loc) throw new OrderSyntaxError('missing unit location');
  return { type, at: parseLocation(loc) };
}

const WORDS: Record<string, string> = {
  HOLD: 'H',
  HOLDS: 'H',
  SUPPORT: 'S',
  SUPPORTS: 'S',
  CONVOY: 'C',
  CONVOYS: 'C',
  DISBAND: 'D',
  '->': '-',
  BUILD: 'BUILD',
  B: 'BUILD',
  REMOVE: 'REMOVE',
  R: 'REMOVE',
};

export function parseOrder(text: string): Order {
  const tokens = text
    .trim()
    .toUpperCase()
    .replace(/\s*-+>?\s*/g, ' - ')
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => WORDS[t] ?? t);
  if (tokens.length === 0) throw new OrderSyntaxError('empty order');
  if (tokens[0] === 'WAIVE' && tokens.length === 1) return { kind: 'waive' };
  if (tokens[0] === 'BUILD' || tokens[0] === 'REMOVE') {
    const head = tokens.shift();
    const unit = takeUnit(tokens);
    if (tokens.length > 0) throw new OrderSyntaxError(`unexpected "${tokens.join(' ')}"`);
    return head === 'BUILD' ? { kind: 'build', unit } : { kind: 'remove', unit };
  }
  const unit = takeUnit(tokens);
  const verb = tokens.shift();
  let order: Order;
  if (verb === undefined || verb === 'H') order = { kind: 'hold', unit };
  else if (verb === 'D') order = { kind: 'disband', unit };
  else if (verb === '-') {
    const to = tokens.shift();
    if (!to) throw new OrderSyntaxError('move without destination');
    let viaConvoy = false;
    if (tokens[0] === 'VIA' && tokens[1] === 'C') {
      viaConvoy = true;
      tokens.splice(0, 2);
    }
    order = { kind: 'move', unit, to: parseLocation(to), viaConvoy };
  } else if (verb === 'S' || verb === 'C') {
    const target = takeUnit(tokens);
    let to: string | null = null;
    if (tokens[0] === '-') {
      tokens.shift();
      const dest = tokens.shift();
      if (!dest) throw new OrderSyntaxError('support or convoy without destination');
      to = parseLocation(dest);
    } else if (tokens[0] === 'H') tokens.shift();
    if (verb === 'C') {
      if (to === null) throw new OrderSyntaxError('convoy without destination');
      order = { kind: 'convoy', unit, target, to };
    } else order = { kind: 'support', unit, target, to };
  } else throw new OrderSyntaxError(`unknown order word "${verb}"`);
  if (tokens.length > 0) throw new OrderSyntaxError(`unexpected "${tokens.join(' ')}"`);
  return order;
}

function unitText(u: { type: UnitType | null; at: string }): string {
  return u.type ? `${u.type} ${u.at}` : u.at;
}

/** The canonical text of an order (round-trips through parseOrder). */
export function formatOrder(order: Order): string {
  switch (order.kind) {
    case 'hold':
      return `${unitText(order.unit)} H`;
    case 'move':
      return `${unitText(order.unit)} - ${order.to}${order.viaConvoy ? ' VIA CONVOY' : ''}`;
    case 'support':
      return `${unitText(order.unit)} S ${unitText(order.target)}${order.to ? ` - ${order.to}` : ''}`;
    case 'convoy':
      return `${unitText(order.unit)} C ${unitText(order.target)} - ${order.to}`;
    case 'disband':
      return `${unitText(order.unit)} D`;
    case 'build':
      return `BUILD ${unitText(order.unit)}`;
    case 'remove':
      return `REMOVE ${unitText(order.unit)}`;
    case 'waive':
      return 'WAIVE';
  }
}
