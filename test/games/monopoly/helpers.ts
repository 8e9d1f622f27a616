// Shared helpers for the Clawpoly rules tests: a fresh table without dealt deeds, and the invariants every state keeps.
import { expect } from 'vitest';
import type { Seat } from '../../../games/kit/game.js';
import { groupMembers, SPACES, START_CASH } from '../../../games/monopoly/board.js';
import { DECKS } from '../../../games/monopoly/cards.js';
import { monopoly } from '../../../games/monopoly/rules.js';
import type { MonopolyState } from '../../../games/monopoly/state.js';

export const seats = (n = 4): Seat[] => Array.from({ length: n }, (_, i) => ({ agentId: 100 + i, name: `p${i}` }));

export function table(options: Record<string, unknown> = {}, n = 4): MonopolyState {
  return monopoly.setup(seats(n), 'rules', { opening_deeds: 0, ...options }).state;
}

export function give(state: MonopolyState, seat: number, ...spaces: number[]): void {
  for (const s of spaces) state.owner[s] = seat;
}

export function act(state: MonopolyState, seat: number, action: string, params: Record<string, unknown> = {}): MonopolyState {
  const r = monopoly.apply(state, seat, action, params, false);
  if (!r.ok) throw new Error(`${action} rejected: ${r.error.code} ${r.error.message}`);
  return r.state;
}

export function refusal(state: MonopolyState, seat: number, action: string, params: Record<string, unknown> = {}): string {
  const r = monopoly.apply(state, seat, action, params, false);
  if (r.ok) throw new Error(`${action} was accepted`);
  return r.error.code;
}

/** Problems with money, ownership and buildings; empty when the state is sound. */
export function invariantProblems(state: MonopolyState): string[] {
  const out: string[] = [];
  const n = state.seats.length;
  const total = state.cash.reduce((a, b) => a + b, 0);
  if (total - state.bankFlow !== START_CASH * n) out.push(`money not conserved: ${total} - ${state.bankFlow}`);
  state.cash.forEach((c, i) => {
    if (c < 0) out.push(`seat ${i} cash ${c}`);
    if (state.bankrupt[i] && c !== 0) out.push(`bankrupt seat ${i} holds cash`);
  });
  for (const s of SPACES) {
    const o = state.owner[s.index];
    const h = state.houses[s.index] ?? 0;
    if (o !== null && o !== undefined && (o < 0 || o >= n || state.bankrupt[o])) out.push(`space ${s.index} owned by ${o}`);
    if (state.mortgaged[s.index] && (o === null || o === undefined)) out.push(`unowned space ${s.index} mortgaged`);
    if (h < 0 || h > 5) out.push(`space ${s.index} has ${h} units`);
    if (h > 0) {
      if (!s.group) out.push(`buildings on ${s.index}`);
      else {
        const members = groupMembers(s.group);
        if (!members.every((m) => state.owner[m] === o)) out.push(`buildings on incomplete set ${s.group}`);
        if (members.some((m) => state.mortgaged[m])) out.push(`buildings beside a mortgage in ${s.group}`);
        const counts = members.map((m) => state.houses[m] ?? 0);
        if (Math.max(...counts) - Math.min(...counts) > 1) out.push(`uneven ${s.group}: ${counts}`);
      }
    }
  }
  // Two lockup cards exist: each is in its deck or in a hand.
  const inDecks = (['chance', 'community_chest'] as const).filter((d) =>
    state.decks[d].some((id) => DECKS[d][id]?.card.kind === 'jail_card'),
  ).length;
  const held = state.jailCards.reduce((a, b) => a + b, 0);
  if (inDecks + held !== 2) out.push(`lockup cards: ${inDecks} in decks, ${held} held`);
  if (state.decks.chance.length + state.decks.community_chest.length + held !== 32) out.push('cards lost');
  return out;
}

export function expectSound(state: MonopolyState): void {
  expect(invariantProblems(state)).toEqual([]);
}
