// How the builder shows its problems (issue 16): nothing before a control is touched, each problem once, agents by
// their manifest id rather than `agents[1]`.
import { describe, expect, it } from 'vitest';
import type { CatalogAgent } from '../../engine/contract/agent-catalog.js';
import {
  ALL_FIELDS,
  agentLabels,
  nameAgents,
  preferFormErrors,
  touchedBy,
  visibleErrors,
} from '../../renderer/src/features/tournaments/builder-errors.js';
import {
  emptyForm,
  errorsByField,
  mergeErrors,
  specFromForm,
  validateLocally,
} from '../../renderer/src/features/tournaments/builder-form.js';

const shown = (form = emptyForm('s1')) => {
  const { spec, errors } = specFromForm(form);
  return errorsByField(mergeErrors(errors, preferFormErrors(errors, validateLocally(spec))));
};

describe('builder errors', () => {
  it('says "no challenge" once, not in the form\'s and the schema\'s words both', () => {
    const errors = shown();
    expect(errors.challenges).toEqual(['pick at least one challenge']);
    expect(errors.agents).toEqual(['agents must list at least 2 agents']);
  });

  it('shows nothing until a control is touched, then that control only; an import shows all', () => {
    const errors = shown();
    expect(visibleErrors(errors, new Set())).toEqual({});
    expect(Object.keys(visibleErrors(errors, new Set(touchedBy({ agents: [] }))))).toEqual(['agents']);
    expect(visibleErrors(errors, new Set([ALL_FIELDS]))).toEqual(errors);
    expect(touchedBy({ moveSeconds: '3', thirdPlace: true })).toEqual(['limits.move_seconds', 'format.third_place']);
  });

  it('names agents by manifest id, with their position when two share one', () => {
    const catalog = [{ manifest_path: '/a/honest/agent.yaml', id: 'honest-exact' }] as CatalogAgent[];
    const labels = agentLabels(
      [
        { manifest: '/a/honest/agent.yaml', id: '' },
        { manifest: '/a/honest/agent.yaml', id: '' },
        { manifest: '/b/greedy/agent.yaml', id: 'g' },
      ],
      catalog,
    );
    expect(labels).toEqual(['honest-exact (#1)', 'honest-exact (#2)', 'g']);
    expect(nameAgents("agents[1].manifest: duplicate agent id 'x' (also agents[0])", labels)).toBe(
      "agent 'honest-exact (#2)' manifest: duplicate agent id 'x' (also agent 'honest-exact (#1)')",
    );
    // The engine's spelling of the path too; an index out of range is left as it is.
    expect(nameAgents('agents.2.manifest: cannot read', labels)).toBe("agent 'g' manifest: cannot read");
    expect(nameAgents('agents[7]: ?', labels)).toBe('agents[7]: ?');
  });
});
