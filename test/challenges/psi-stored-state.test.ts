// PSI's gameState carries the reference's keys; a session stored under the former names still plays to the end.
import { describe, expect, it } from 'vitest';
import psi, { type PsiGameState } from '../../challenges/psi/operator.js';
import { harness, START } from '../support/operator-harness.js';

const options = psi.optionsSchema.parse({});

describe('psi game state', () => {
  it('is {userSets, intersectionSet, guesses} from creation, the planted intersection inside both sets', () => {
    const state = psi.createGameState(harness().ctx, options);
    expect(Object.keys(state).sort()).toEqual(['guesses', 'intersectionSet', 'userSets']);
    expect(state.guesses).toEqual([[], []]);
    expect(state.intersectionSet).toHaveLength(3);
    for (const value of state.intersectionSet) for (const set of state.userSets) expect(set).toContain(value);
  });

  it('upgrades a session stored as {sets, guesses with null} and ends it with the new keys', () => {
    const h = harness();
    const legacy = {
      sets: [
        [101, 102, 103, 200],
        [101, 102, 103, 300],
      ],
      guesses: [null, null],
    } as unknown as PsiGameState;
    const op = psi.createOperator(h.ctx, options, legacy);
    op.join('inv-a');
    op.join('inv-b');
    for (const from of ['inv-a', 'inv-b'])
      op.message({ channel: 'c-1', from, to: 'operator', content: '101 102 103', timestamp: START, type: 'guess' });
    const { gameState, state } = op.serialize();
    expect(state.status).toBe('ended');
    expect(gameState).toEqual({
      userSets: [
        [101, 102, 103, 200],
        [101, 102, 103, 300],
      ],
      intersectionSet: [101, 102, 103],
      guesses: [
        [101, 102, 103],
        [101, 102, 103],
      ],
    });
  });
});
