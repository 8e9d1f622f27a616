// The Claw Diplomacy phase machine: Spring and Fall each run press round 1 → press round 2 → sealed movement →
// retreats (when a unit was dislodged); after Fall the supply centres change hands, a solo (18 centres) or the final
// year ends the match, otherwise Winter adjustments (when someone must build or remove) lead to the next Spring.
// Every phase is a barrier over the powers that must act in it.
import type { GameEvent, JsonObject, Seat } from '../kit/game.js';
import { adjudicateAdjustments, adjustmentDelta } from './adjustments.js';
import { adjustmentCandidates, buildSites, type Candidate, movementCandidates, retreatCandidates } from './advice.js';
import type { Unit } from './board.js';
import { boardOptions } from './legal-orders.js';
import { POWERS, type Power, PROVINCES, provinceOf, STARTING_UNITS } from './map.js';
import { adjudicateMovement, type Dislodgement } from './movement.js';
import { prepareMovementOrders } from './movement-orders.js';
import type { Order, PowerOrder } from './orders.js';
import type { PressMessage } from './press.js';
import { adjudicateRetreats } from './retreats.js';
import { toRetreatWire, toWire, type WireOrder } from './wire-orders.js';

export const SOLO_CENTRES = 18;
export const DEFAULT_MAX_YEAR = 1910;
export const FIRST_YEAR = 1901;

export type Season = 'SPRING' | 'FALL' | 'WINTER';
export type PhaseType = 'negotiation' | 'movement' | 'retreat' | 'adjustment' | 'finished';

export interface Submission {
  action: string;
  /** The normalised batch (`orders` as wire objects, or the number of press `messages`). */
  params: JsonObject;
  /** The request's params exactly as sent, so that a replay can be told from a different batch. */
  request: JsonObject;
  orders: Order[];
  auto: boolean;
}

export interface CandidateWire {
  candidate_id: string;
  label: string;
  orders: WireOrder[];
  score: number;
  rationale: string;
}

export interface ResolvedPhase {
  phase_id: string;
  phase_type: 'movement' | 'retreat' | 'adjustment';
  /** Every order as executed, with its result. */
  orders: JsonObject[];
  dislodged: JsonObject[];
  changes: JsonObject;
}

export interface DiplomacyState {
  seats: Seat[];
  /** The power each seat plays. */
  powers: Power[];
  maxYear: number;
  year: number;
  season: Season;
  phase: PhaseType;
  round: number | null;
  units: Unit[];
  owners: Record<string, Power | null>;
  dislodged: Dislodgement[];
  submissions: (Submission | null)[];
  /** This round's press, delivered when the round's barrier resolves. */
  pendingPress: PressMessage[];
  messages: PressMessage[];
  intents: (JsonObject | null)[];
  /** Server-side advice and per-unit options for the current turn, by power (computed once per phase). */
  advice: Partial<Record<Power, CandidateWire[]>>;
  options: Partial<Record<Power, JsonObject[]>>;
  history: ResolvedPhase[];
  /** Bumped at every phase change. */
  version: number;
  gameplaySealed: boolean;
  finishReason: string | null;
  winners: Power[];
  nextProposal: number;
}

export function phaseId(state: DiplomacyState): string {
  const letter = state.season === 'SPRING' ? 'S' : state.season === 'FALL' ? 'F' : 'W';
  const kind = state.phase === 'retreat' ? 'R' : state.phase === 'adjustment' ? 'A' : 'M';
  return `${letter}${state.year}${kind}`;
}

export function phaseKey(state: DiplomacyState): string {
  return `${phaseId(state)}-${state.phase === 'negotiation' ? `N${state.round}` : 'ORDERS'}`;
}

export function centreCounts(state: DiplomacyState): Record<Power, number> {
  const counts = Object.fromEntries(POWERS.map((p) => [p, 0])) as Record<Power, number>;
  for (const owner of Object.values(state.owners)) if (owner) counts[owner] += 1;
  return counts;
}

export function seatOfPower(state: DiplomacyState, power: Power): number {
  return state.powers.indexOf(power);
}

function alive(state: DiplomacyState, power: Power): boolean {
  return state.units.some((u) => u.power === power) || Object.values(state.owners).includes(power);
}

/** The powers that must seal something in the current phase. */
export function activePowers(state: DiplomacyState): Power[] {
  switch (state.phase) {
    case 'negotiation':
      return state.powers.filter((p) => alive(state, p));
    case 'movement':
      return state.powers.filter((p) => state.units.some((u) => u.power === p));
    case 'retreat':
      // A dislodged unit with nowhere to go is disbanded without asking.
      return state.powers.filter((p) => state.dislodged.some((d) => d.unit.power === p && d.retreats.length > 0));
    case 'adjustment': {
      const delta = adjustmentDelta(state.units, state.owners);
      return state.powers.filter((p) => {
        const d = delta.get(p) ?? 0;
        return d < 0 || (d > 0 && buildSites(state.units, state.owners, p).length > 0);
      });
    }
    default:
      return [];
  }
}

function candidateWire(c: Candidate, retreat: boolean): CandidateWire {
  return {
    candidate_id: c.candidate_id,
    label: c.label,
    orders: c.orders.map(retreat ? toRetreatWire : toWire),
    score: c.score,
    rationale: c.rationale,
  };
}

/** Per-unit options and advice for the phase about to open. */
function prepareTurn(state: DiplomacyState): void {
  state.advice = {};
  state.options = {};
  if (state.phase === 'negotiation' || state.phase === 'movement') {
    const options = boardOptions(state.units);
    for (const power of state.powers) {
      state.advice[power] = movementCandidates(state.units, state.owners, power, options).map((c) => candidateWire(c, false));
      state.options[power] = [...options.values()]
        .filter((o) => o.unit.power === power)
        .map((o) => ({
          origin: provinceOf(o.unit.at),
          location: o.unit.at,
          unit_type: o.unit.type,
          can_hold: true,
          move_destinations: [...o.moves].sort(),
          can_move_via_convoy: o.convoyMoves.length > 0,
          convoy_destinations: [...o.convoyMoves].sort(),
          support_options: [...o.supportHolds.map((t) => ({ target: t, destinations: [t] })), ...o.supportMoves].sort((a, b) =>
            a.target < b.target ? -1 : 1,
          ),
          can_support: o.supportHolds.length + o.supportMoves.length > 0,
          can_convoy: o.convoys.length > 0,
          convoy_options: o.convoys,
        }));
    }
  } else if (state.phase === 'retreat') {
    for (const power of state.powers) {
      state.advice[power] = retreatCandidates(state.dislodged, state.owners, power).map((c) => candidateWire(c, true));
      state.options[power] = state.dislodged
        .filter((d) => d.unit.power === power)
        .map((d) => ({
          origin: provinceOf(d.unit.at),
          location: d.unit.at,
          unit_type: d.unit.type,
          retreat_destinations: d.retreats,
          can_disband: true,
        }));
    }
  } else if (state.phase === 'adjustment') {
    const delta = adjustmentDelta(state.units, state.owners);
    for (const power of state.powers) {
      state.advice[power] = adjustmentCandidates(state.units, state.owners, power).map((c) => candidateWire(c, false));
      const d = delta.get(power) ?? 0;
      if (d > 0) {
        state.options[power] = [
          {
            builds_required: d,
            build_sites: buildSites(state.units, state.owners, power).map((p) => {
              const info = PROVINCES.get(p);
              const coasts = info?.coasts.length ? info.coasts : info?.kind === 'coast' ? [p] : [];
              return { destination: p, unit_types: coasts.length > 0 ? ['A', 'F'] : ['A'], fleet_destinations: coasts };
            }),
            can_waive: true,
          },
        ];
      } else if (d < 0) {
        state.options[power] = [
          {
            disbands_required: -d,
            disband_origins: state.units
              .filter((u) => u.power === power)
              .map((u) => provinceOf(u.at))
              .sort(),
          },
        ];
      } else state.options[power] = [];
    }
  }
}

function open(state: DiplomacyState, phase: PhaseType, round: number | null): void {
  state.phase = phase;
  state.round = round;
  state.submissions = state.seats.map(() => null);
  state.version += 1;
  if (phase !== 'negotiation' || round === 1 || Object.keys(state.advice).length === 0) prepareTurn(state);
}

export function setupState(seats: readonly Seat[], powers: Power[], maxYear: number): DiplomacyState {
  const owners: Record<string, Power | null> = {};
  for (const p of PROVINCES.values()) if (p.supplyCentre) owners[p.id] = p.home;
  const state: DiplomacyState = {
    seats: seats.map((s) => ({ ...s })),
    powers,
    maxYear,
    year: FIRST_YEAR,
    season: 'SPRING',
    phase: 'negotiation',
    round: 1,
    units: STARTING_UNITS.map((u) => ({ ...u })),
    owners,
    dislodged: [],
    submissions: seats.map(() => null),
    pendingPress: [],
    messages: [],
    intents: seats.map(() => null),
    advice: {},
    options: {},
    history: [],
    version: 0,
    gameplaySealed: false,
    finishReason: null,
    winners: [],
    nextProposal: 1,
  };
  open(state, 'negotiation', 1);
  return state;
}

function finish(state: DiplomacyState, reason: string, winners: Power[]): GameEvent[] {
  state.phase = 'finished';
  state.round = null;
  state.finishReason = reason;
  state.winners = winners;
  state.version += 1;
  state.advice = {};
  state.options = {};
  return [
    {
      type: 'game_over',
      visibility: 'public',
      data: { finish_reason: reason, winner_powers: winners, supply_center_counts: centreCounts(state) },
    },
  ];
}

function submittedOrders(state: DiplomacyState): PowerOrder[] {
  return state.submissions.flatMap((s, seat) => (s ? s.orders.map((order) => ({ power: state.powers[seat] as Power, order })) : []));
}

function autoPowers(state: DiplomacyState): Power[] {
  return state.submissions.flatMap((s, seat) => (s?.auto ? [state.powers[seat] as Power] : []));
}

/** Fall ends: centres occupied at the end of Fall change hands; then a solo, the final year, or Winter. */
function endOfTurn(state: DiplomacyState, events: GameEvent[]): void {
  if (state.season === 'SPRING') {
    state.season = 'FALL';
    open(state, 'negotiation', 1);
    return;
  }
  for (const u of state.units) {
    const p = provinceOf(u.at);
    if (p in state.owners) state.owners[p] = u.power;
  }
  const counts = centreCounts(state);
  events.push({ type: 'supply_centers_updated', visibility: 'public', data: { year: state.year, supply_center_counts: counts } });
  const solo = POWERS.find((p) => counts[p] >= SOLO_CENTRES);
  if (solo) {
    events.push(...finish(state, 'solo_victory', [solo]));
    return;
  }
  if (state.year >= state.maxYear) {
    const best = Math.max(...POWERS.map((p) => counts[p]));
    events.push(
      ...finish(
        state,
        'max_year',
        POWERS.filter((p) => counts[p] === best),
      ),
    );
    return;
  }
  state.season = 'WINTER';
  open(state, 'adjustment', null);
}

function nextYear(state: DiplomacyState): void {
  state.year += 1;
  state.season = 'SPRING';
  open(state, 'negotiation', 1);
}

function record(state: DiplomacyState, entry: ResolvedPhase, events: GameEvent[]): void {
  state.history.push(entry);
  events.push({
    type: 'phase_resolved',
    visibility: 'public',
    data: { ...entry, auto_powers: autoPowers(state) } as unknown as JsonObject,
  });
}

function resolveNegotiation(state: DiplomacyState, events: GameEvent[]): void {
  const key = phaseKey(state);
  for (const m of state.pendingPress) {
    state.messages.push(m);
    const to = m.to_power === 'global' ? state.seats.map((_, i) => i) : [seatOfPower(state, m.to_power as Power)];
    const from = seatOfPower(state, m.from_power);
    events.push({ type: 'press_delivered', visibility: [...new Set([...to, from])], data: m as unknown as JsonObject });
  }
  state.pendingPress = [];
  events.push({ type: 'negotiation_round_closed', visibility: 'public', data: { phase_key: key } });
  if (state.round === 1) open(state, 'negotiation', 2);
  else open(state, 'movement', null);
}

function resolveMovement(state: DiplomacyState, events: GameEvent[]): void {
  const id = phaseId(state);
  const result = adjudicateMovement(prepareMovementOrders(state.units, submittedOrders(state)));
  const moved = new Map(result.moves.map((m) => [m.from, m.to]));
  state.units = result.units;
  state.dislodged = result.dislodged;
  record(
    state,
    {
      phase_id: id,
      phase_type: 'movement',
      orders: result.outcomes.map((o) => ({
        power: o.power,
        unit: `${o.unit.type} ${o.unit.at}`,
        order: o.order,
        result: o.kind === 'move' ? (o.success ? 'moved' : 'bounced') : o.kind === 'hold' ? 'held' : o.success ? 'succeeded' : 'failed',
        ...(moved.has(provinceOf(o.unit.at)) ? { destination: moved.get(provinceOf(o.unit.at)) as string } : {}),
      })),
      dislodged: result.dislodged.map((d) => ({
        power: d.unit.power,
        unit: `${d.unit.type} ${d.unit.at}`,
        attacker_origin: d.attackerFrom,
        options: d.retreats,
      })),
      changes: {
        illegal_orders: result.rejected.map((r) => ({ power: r.power, order: r.text, reason: r.reason })),
        contested: result.contested,
      },
    },
    events,
  );
  if (!state.gameplaySealed) {
    events.push(...finish(state, 'no_gameplay_submissions', []));
    return;
  }
  if (state.dislodged.length > 0) open(state, 'retreat', null);
  else endOfTurn(state, events);
}

function resolveRetreat(state: DiplomacyState, events: GameEvent[]): void {
  const id = phaseId(state);
  const result = adjudicateRetreats(state.units, state.dislodged, submittedOrders(state));
  record(
    state,
    {
      phase_id: id,
      phase_type: 'retreat',
      orders: [
        ...result.retreats.map((r) => ({ type: 'RETREAT', origin: r.from, destination: r.to, result: 'retreated' })),
        ...result.disbanded.map((u) => ({ type: 'DISBAND', power: u.power, origin: provinceOf(u.at), result: 'disbanded' })),
      ],
      dislodged: [],
      changes: { illegal_orders: result.rejected.map((r) => ({ power: r.power, order: r.text, reason: r.reason })) },
    },
    events,
  );
  state.units = result.units;
  state.dislodged = [];
  endOfTurn(state, events);
}

function resolveAdjustment(state: DiplomacyState, events: GameEvent[]): void {
  const id = phaseId(state);
  const result = adjudicateAdjustments(state.units, state.owners, submittedOrders(state));
  const label = (u: Unit) => ({ power: u.power, unit_type: u.type, location: u.at });
  record(
    state,
    {
      phase_id: id,
      phase_type: 'adjustment',
      orders: [
        ...result.builds.map((u) => ({ type: 'BUILD', ...label(u), result: 'built' })),
        ...result.removals.map((u) => ({ type: 'DISBAND', ...label(u), result: 'removed' })),
        ...result.civilDisorder.map((u) => ({ type: 'DISBAND', ...label(u), result: 'removed_by_default' })),
      ],
      dislodged: [],
      changes: { illegal_orders: result.rejected.map((r) => ({ power: r.power, order: r.text, reason: r.reason })) },
    },
    events,
  );
  state.units = result.units;
  nextYear(state);
}

/** Resolves the current barrier (all active powers sealed, or defaults applied). */
export function resolvePhase(state: DiplomacyState): GameEvent[] {
  const events: GameEvent[] = [];
  if (state.phase === 'negotiation') resolveNegotiation(state, events);
  else if (state.phase === 'movement') resolveMovement(state, events);
  else if (state.phase === 'retreat') resolveRetreat(state, events);
  else if (state.phase === 'adjustment') resolveAdjustment(state, events);
  // A phase nobody has to act in (say, a Spring where nobody can build) resolves at once.
  while (state.phase !== 'finished' && activePowers(state).length === 0) events.push(...resolvePhase(state));
  return events;
}
