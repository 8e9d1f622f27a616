// The builder offers format adaptive with its budget, confidence and top-k focus (issue 46): the form builds a
// definition the engine accepts, sends the budget only with that format, an imported adaptive definition comes back
// on the controls, and a bad value (the form's reading or the engine's schema) is reported on its own field.
import { describe, expect, it } from 'vitest';
import { parseTournamentSpec } from '../../engine/core/tournament/spec.js';
import { formProblems } from '../../renderer/src/features/tournaments/builder-errors.js';
import {
  emptyForm,
  errorsByField,
  formFromSpec,
  parseSpecYaml,
  specFromForm,
} from '../../renderer/src/features/tournaments/builder-form.js';

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

  it('an imported focus lands on the Focus: top k control, nothing carried past it', () => {
    const raw = parseSpecYaml(
      'name: t\nchallenge: psi\nformat: {kind: adaptive, confidence: 0.9, focus: {top_k: 1}}\nbudget: {games: 60}\nstop: {kind: fixed}\nseed: 7\n' +
        'agents: [{manifest: /a/agent.yaml, id: a}, {manifest: /b/agent.yaml, id: b}]\nlimits: {move_seconds: 30, game_seconds: 300}\n',
    );
    if (!raw.ok) throw new Error(raw.error);
    const back = formFromSpec(raw.raw, '1');
    expect(back).toMatchObject({ topK: '1', confidence: '0.9', budgetGames: '60', carried: [] });
    expect(formProblems(back).errors).toEqual({});
  });

  it('sends Focus: top k as format.focus.top_k and leaves it out when empty', () => {
    const three = { ...form(), agents: [...form().agents, { manifest: '/c/agent.yaml', id: 'c' }] };
    const { spec, errors } = specFromForm({ ...three, topK: '2' });
    expect(errors).toEqual({});
    expect(spec.format).toEqual({ kind: 'adaptive', focus: { top_k: 2 } });
    expect(parseTournamentSpec(spec).ok).toBe(true);
    expect(specFromForm({ ...three, topK: ' ' }).spec.format).toEqual({ kind: 'adaptive' });
  });

  it('reports a bad top k on the Focus: top k field, by the form and by the engine schema', () => {
    const onField = (topK: string) => errorsByField(formProblems({ ...form(), topK }).errors)['format.focus.top_k'];
    expect(onField('two')).toEqual(['must be a number']);
    expect(onField('0')?.join(' ')).toMatch(/top_k/);
    // Two agents: a top-2 focus is the whole ranking, which the schema refuses.
    expect(onField('2')).toEqual(['top_k must be fewer than the agents (2)']);
    expect(onField('1')).toBeUndefined();
  });
});
