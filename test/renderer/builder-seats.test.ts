// The builder's seats (issue 48): a table by seats, the same agent in several of them, and the definition they make
// read back by the engine's own parser as `arena run` reads it.
import { expect, it } from 'vitest';
import { parseTournamentSpec } from '../../engine/core/tournament/spec.js';
import { formProblems } from '../../renderer/src/features/tournaments/builder-errors.js';
import { emptyForm, formFromSpec, specFromForm } from '../../renderer/src/features/tournaments/builder-form.js';
import { filledSeats, seatRows, tableSize, withoutSeat, withSeatAgent } from '../../renderer/src/features/tournaments/builder-seats.js';

const node = { manifest_path: '/a/baseline-node/agent.yaml', id: 'clawarena-baseline-node', name: 'ClawArena baseline (Node)' };
const python = { manifest_path: '/a/baseline-python/agent.yaml', id: 'clawarena-baseline-python', name: 'ClawArena baseline (Python)' };
const diplomacy = { players: { min: 7, max: 7 } };
const vegas = { players: { min: 3, max: 5 } };
const duel = { players: { min: 2, max: 2 } };

it('shows a picker per seat of the table, and one more once it is full', () => {
  expect(tableSize([diplomacy])).toBe(7);
  expect(tableSize([duel, vegas])).toBe(3);
  expect(tableSize([])).toBe(2);
  expect(seatRows(0, 7)).toBe(7);
  expect(seatRows(6, 7)).toBe(7);
  expect(seatRows(7, 7)).toBe(8);
  expect(seatRows(3, 2)).toBe(4);
});

it('the same agent in every seat of a 7-seat Diplomacy: distinct ids, a definition the engine accepts', () => {
  let agents = filledSeats(7, node);
  expect(agents.map((a) => a.id)).toEqual([
    'clawarena-baseline-node',
    'clawarena-baseline-node-2',
    'clawarena-baseline-node-3',
    'clawarena-baseline-node-4',
    'clawarena-baseline-node-5',
    'clawarena-baseline-node-6',
    'clawarena-baseline-node-7',
  ]);
  // Seat 3 changes agent: its id is made for the new agent, the others keep theirs.
  agents = withSeatAgent(agents, 2, python);
  expect(agents[2]).toEqual({ manifest: python.manifest_path, id: 'clawarena-baseline-python' });
  expect(agents.filter((a) => a.manifest === node.manifest_path)).toHaveLength(6);
  const form = { ...emptyForm('1'), challenges: ['diplomacy'], agents };
  const { spec, errors } = specFromForm(form);
  expect(errors).toEqual({});
  const parsed = parseTournamentSpec(spec);
  expect(parsed.ok).toBe(true);
  // Read back, every seat is its own row again (nothing merged by manifest, nothing carried).
  const back = formFromSpec(spec, '1');
  expect(back.agents).toEqual(agents);
  expect(back.carried).toEqual([]);
});

it('a seat picked past the chosen ones is added after them; removing one moves the rest up', () => {
  let agents = withSeatAgent([], 4, node);
  expect(agents).toHaveLength(1);
  agents = withSeatAgent(agents, 1, node);
  expect(agents.map((a) => a.id)).toEqual(['clawarena-baseline-node', 'clawarena-baseline-node-2']);
  agents = withSeatAgent(agents, 5, python);
  agents = withoutSeat(agents, 0);
  expect(agents.map((a) => a.id)).toEqual(['clawarena-baseline-node-2', 'clawarena-baseline-python']);
  // The id a new seat gets is free even when an earlier seat holds the base id's successor.
  expect(withSeatAgent(agents, 2, node)[2]?.id).toBe('clawarena-baseline-node');
});

it('a seat given a new agent drops the lifecycle override and what an import carried for the old one', () => {
  const agents = [{ manifest: node.manifest_path, id: 'x', lifecycle: 'per-game', carried: [{ path: ['extra'], value: 1 }] }];
  expect(withSeatAgent(agents, 0, python)).toEqual([{ manifest: python.manifest_path, id: 'clawarena-baseline-python' }]);
});

it('a table not yet full is a problem of the seats, said before the engine is asked', () => {
  const form = { ...emptyForm('1'), challenges: ['diplomacy'], agents: filledSeats(4, node) };
  expect(formProblems(form, 7).errors.agents).toEqual(['4 of 7 seats chosen: each game seats 7 players; choose 3 more']);
  expect(formProblems({ ...form, agents: filledSeats(7, node) }, 7).errors).toEqual({});
  // A gauntlet seats its challengers differently: the engine judges it.
  expect(formProblems({ ...form, format: 'gauntlet' }, 7).errors.agents).toBeUndefined();
});
