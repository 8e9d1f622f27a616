// The builder offers format adaptive with its budget (issue 46): the form builds a definition the engine accepts,
// sends the budget only with that format, and an imported adaptive definition comes back with its budget.
import { describe, expect, it } from 'vitest';
import { parseTournamentSpec } from '../../engine/core/tournament/spec.js';
import { emptyForm, formFromSpec, specFromForm } from '../../renderer/src/features/tournaments/builder-form.js';

const form = () => ({
  ...emptyForm('7'),
  challenges: ['psi'],
  agents: [
    { manifest: '/a/agent.yaml', id: 'a' },
    { manifest: '/b/agent.yaml', id: 'b' },
  ],
  format: 'adaptive' as const,
  budgetGames: '60',
  budgetUsd: '2.5',
});

describe('builder: format adaptive', () => {
  it('builds a definition with its budget that the engine accepts', () => {
    const { spec, errors } = specFromForm(form());
    expect(errors).toEqual({});
    expect(spec.budget).toEqual({ games: 60, usd: 2.5 });
    expect(spec.format).toEqual({ kind: 'adaptive' });
    const parsed = parseTournamentSpec(spec);
    expect(parsed.ok).toBe(true);
  });

  it('reports an empty games budget on budget.games and sends no budget with other formats', () => {
    expect(specFromForm({ ...form(), budgetGames: '' }).errors['budget.games']).toEqual(['Required']);
    expect(specFromForm({ ...form(), format: 'round-robin' }).spec.budget).toBeUndefined();
  });

  it('an imported adaptive definition keeps its budget and focus', () => {
    const raw = { ...specFromForm(form()).spec, format: { kind: 'adaptive', confidence: 0.9, focus: { top_k: 1 } } };
    const back = formFromSpec(raw, '1');
    expect(back).toMatchObject({ format: 'adaptive', budgetGames: '60', budgetUsd: '2.5', confidence: '0.9' });
    expect(specFromForm(back).spec).toMatchObject({
      budget: { games: 60, usd: 2.5 },
      format: { kind: 'adaptive', confidence: 0.9, focus: { top_k: 1 } },
    });
  });
});
