// Portfolio management on your own deeds: even building and selling per property, mortgages, and the atomic batch.
import type { ActionRejection } from '../kit/game.js';
import { groupMembers, HOTEL, isDeed, mortgageValue, space, unmortgageCost } from './board.js';
import { groupHasBuildings, type MonopolyState, ownsFullSet, transfer } from './state.js';

export type ManageOp =
  | { action: 'build_house'; space_id: number; count: number }
  | { action: 'sell_house'; space_id: number; count: number }
  | { action: 'mortgage'; space_id: number }
  | { action: 'unmortgage'; space_id: number };

const fail = (code: string, message: string, space_id?: number): ActionRejection => ({
  code,
  message,
  ...(space_id === undefined ? {} : { field: 'space_id', invalid_value: space_id }),
});

function ownDeed(state: MonopolyState, seat: number, index: number): ActionRejection | null {
  if (!Number.isInteger(index) || index < 0 || index >= 40 || !isDeed(index))
    return fail('invalid_space', `space ${index} is not a deed`, index);
  if (state.owner[index] !== seat) return fail('not_your_property', `you do not own ${space(index).name}`, index);
  return null;
}

/** Why one more improvement cannot go on `index` now, or null. Even building: never more than one above the set's minimum. */
export function buildProblem(state: MonopolyState, seat: number, index: number): ActionRejection | null {
  const owned = ownDeed(state, seat, index);
  if (owned) return owned;
  const s = space(index);
  if (s.group === null) return fail('not_buildable', `${s.name} cannot carry buildings`, index);
  if (!ownsFullSet(state, seat, s.group)) return fail('incomplete_color_set', `you need the whole ${s.group} set to build`, index);
  const members = groupMembers(s.group);
  if (members.some((i) => state.mortgaged[i])) return fail('mortgaged_in_set', `a ${s.group} deed is mortgaged`, index);
  const here = state.houses[index] ?? 0;
  if (here >= HOTEL) return fail('max_improvements', `${s.name} already has a hotel`, index);
  if (here > Math.min(...members.map((i) => state.houses[i] ?? 0)))
    return fail('uneven_building', `build evenly across the ${s.group} set first`, index);
  if ((state.cash[seat] ?? 0) < (s.houseCost ?? 0)) return fail('insufficient_cash', `a house on ${s.name} costs $${s.houseCost}`, index);
  return null;
}

export function sellProblem(state: MonopolyState, seat: number, index: number): ActionRejection | null {
  const owned = ownDeed(state, seat, index);
  if (owned) return owned;
  const s = space(index);
  const here = state.houses[index] ?? 0;
  if (here === 0) return fail('no_buildings', `${s.name} has no buildings`, index);
  const members = groupMembers(s.group ?? 'brown');
  if (here < Math.max(...members.map((i) => state.houses[i] ?? 0)))
    return fail('uneven_selling', `sell evenly across the ${s.group} set first`, index);
  return null;
}

export function mortgageProblem(state: MonopolyState, seat: number, index: number): ActionRejection | null {
  const owned = ownDeed(state, seat, index);
  if (owned) return owned;
  if (state.mortgaged[index]) return fail('already_mortgaged', `${space(index).name} is already mortgaged`, index);
  if (groupHasBuildings(state, index)) return fail('buildings_in_set', 'sell the buildings in this set before mortgaging', index);
  return null;
}

export function unmortgageProblem(state: MonopolyState, seat: number, index: number): ActionRejection | null {
  const owned = ownDeed(state, seat, index);
  if (owned) return owned;
  if (!state.mortgaged[index]) return fail('not_mortgaged', `${space(index).name} is not mortgaged`, index);
  if ((state.cash[seat] ?? 0) < unmortgageCost(index))
    return fail('insufficient_cash', `lifting this mortgage costs $${unmortgageCost(index)}`, index);
  return null;
}

/** Applies one operation in place (count repeats single steps, each checked); returns the first problem. */
export function applyOp(state: MonopolyState, seat: number, op: ManageOp): ActionRejection | null {
  const index = op.space_id;
  if (op.action === 'build_house' || op.action === 'sell_house') {
    for (let k = 0; k < op.count; k++) {
      const problem = op.action === 'build_house' ? buildProblem(state, seat, index) : sellProblem(state, seat, index);
      if (problem) return problem;
      const cost = space(index).houseCost ?? 0;
      if (op.action === 'build_house') {
        transfer(state, seat, null, cost);
        state.houses[index] = (state.houses[index] ?? 0) + 1;
      } else {
        transfer(state, null, seat, Math.floor(cost / 2));
        state.houses[index] = (state.houses[index] ?? 0) - 1;
      }
    }
    return null;
  }
  if (op.action === 'mortgage') {
    const problem = mortgageProblem(state, seat, index);
    if (problem) return problem;
    state.mortgaged[index] = true;
    transfer(state, null, seat, mortgageValue(index));
    return null;
  }
  const problem = unmortgageProblem(state, seat, index);
  if (problem) return problem;
  transfer(state, seat, null, unmortgageCost(index));
  state.mortgaged[index] = false;
  return null;
}

export function buildableSpaces(state: MonopolyState, seat: number): number[] {
  return state.owner.flatMap((o, i) => (o === seat && buildProblem(state, seat, i) === null ? [i] : []));
}
export function sellableSpaces(state: MonopolyState, seat: number): number[] {
  return state.owner.flatMap((o, i) => (o === seat && sellProblem(state, seat, i) === null ? [i] : []));
}
export function mortgageableSpaces(state: MonopolyState, seat: number): number[] {
  return state.owner.flatMap((o, i) => (o === seat && mortgageProblem(state, seat, i) === null ? [i] : []));
}
export function unmortgageableSpaces(state: MonopolyState, seat: number): number[] {
  return state.owner.flatMap((o, i) => (o === seat && unmortgageProblem(state, seat, i) === null ? [i] : []));
}

/** Cash a seat could raise by selling every building and mortgaging every deed. */
export function liquidationValue(state: MonopolyState, seat: number): number {
  let total = 0;
  for (const [i, o] of state.owner.entries()) {
    if (o !== seat) continue;
    total += Math.floor(((space(i).houseCost ?? 0) * (state.houses[i] ?? 0)) / 2);
    if (!state.mortgaged[i]) total += mortgageValue(i);
  }
  return total;
}
