import { describe, expect, it } from 'vitest';
import { parseTournamentSpec } from '../../engine/core/tournament/spec.js';
import {
  displayPath,
  emptyForm,
  errorsByField,
  fieldOf,
  formFromSpec,
  localPlannedGames,
  parseRemoteErrors,
  parseSpecYaml,
  randomSeed,
  resolveManifest,
  specFromForm,
  specToYaml,
  uniqueAgentId,
  validateLocally,
} from '../../renderer/src/features/tournaments/builder-form.js';

const agents = [
  { manifest: '/agents/honest-exact/agent.yaml', id: 'honest-exact' },
  { manifest: '/agents/greedy-overclaim/agent.yaml', id: 'greedy-overclaim' },
  { manifest: '/agents/cautious-minimal/agent.yaml', id: 'cautious-minimal' },
];

function filledForm() {
  return { ...emptyForm('42'), name: 'psi baselines', challenges: ['psi'], agents };
}

describe('tournament builder form → definition', () => {
  it('builds a definition the engine schema accepts, with numbers as numbers and one challenge as `challenge`', () => {
    const { spec, errors } = specFromForm(filledForm());
    expect(errors).toEqual({});
    expect(spec).toEqual({
      name: 'psi baselines',
      challenge: 'psi',
      format: { kind: 'round-robin', cycles: 1 },
      games_per_pairing: 2,
      concurrency: 2,
      seed: 42,
      agents,
      stop: { kind: 'fixed' },
      limits: { move_seconds: 30, game_seconds: 300 },
    });
    const parsed = parseTournamentSpec(spec);
    expect(parsed.ok).toBe(true);
    expect(validateLocally(spec)).toEqual({});
  });

  it('writes each format and stop rule with only its own fields', () => {
    const gauntlet = specFromForm({ ...filledForm(), format: 'gauntlet', challengers: '1', cycles: '2' }).spec;
    expect(gauntlet.format).toEqual({ kind: 'gauntlet', cycles: 2, challengers: 1 });
    const swissDefault = specFromForm({ ...filledForm(), format: 'swiss', rounds: '' }).spec;
    expect(swissDefault.format).toEqual({ kind: 'swiss' });
    expect(specFromForm({ ...filledForm(), format: 'swiss', rounds: '2' }).spec.format).toEqual({ kind: 'swiss', rounds: 2 });
    expect(specFromForm({ ...filledForm(), format: 'knockout' }).spec.format).toEqual({ kind: 'knockout' });
    const sprt = specFromForm({
      ...filledForm(),
      agents: agents.slice(0, 2),
      stop: 'sprt',
      elo0: '0',
      elo1: '50',
      alpha: '0.05',
      beta: '0.1',
    });
    expect(sprt.spec.stop).toEqual({ kind: 'sprt', elo0: 0, elo1: 50, alpha: 0.05, beta: 0.1 });
    expect(validateLocally(sprt.spec)).toEqual({});
    const several = specFromForm({ ...filledForm(), challenges: ['psi', 'millionaire'] }).spec;
    expect(several.challenges).toEqual(['psi', 'millionaire']);
    expect(several.challenge).toBeUndefined();
  });

  it('keeps a non-numeric seed as text and a numeric one as a number', () => {
    expect(specFromForm({ ...filledForm(), seed: 'nightly-7' }).spec.seed).toBe('nightly-7');
    expect(specFromForm({ ...filledForm(), seed: ' 123 ' }).spec.seed).toBe(123);
    const seeds = new Set(Array.from({ length: 20 }, () => randomSeed()));
    expect(seeds.size).toBeGreaterThan(15);
    for (const s of seeds) expect(s).toMatch(/^\d+$/);
  });

  it('reports unreadable numbers and schema problems on the field they belong to', () => {
    const form = { ...filledForm(), gamesPerPairing: 'two', moveSeconds: '400', gameSeconds: '300', agents: agents.slice(0, 1) };
    const { spec, errors } = specFromForm(form);
    expect(errors).toEqual({ games_per_pairing: ['must be a number'] });
    const local = validateLocally(spec);
    expect(local['limits.move_seconds']).toEqual(['move_seconds must not exceed game_seconds']);
    expect(local.agents).toEqual(['agents must list at least 2 agents']);
    // Left out of the definition (the schema would default it), so only the form's own message stands.
    expect(local.games_per_pairing).toBeUndefined();
    const byField = errorsByField(local);
    expect(byField['limits.move_seconds']).toEqual(['move_seconds must not exceed game_seconds']);
    expect(byField.agents).toEqual(['agents must list at least 2 agents']);
  });

  it('asks for a challenge when none is picked, and flags SPRT with more than two agents on the stop rule', () => {
    const none = specFromForm({ ...filledForm(), challenges: [] });
    expect(none.errors.challenges).toEqual(['pick at least one challenge']);
    const sprt = specFromForm({ ...filledForm(), stop: 'sprt' });
    expect(errorsByField(validateLocally(sprt.spec)).stop).toEqual(['sprt needs exactly 2 agents, got 3']);
    const swiss = specFromForm({ ...filledForm(), format: 'swiss', rounds: '5' });
    expect(validateLocally(swiss.spec)['format.rounds']).toEqual(['rounds must be at most agents − 1 (2)']);
  });

  it('maps every definition path to the control that shows it', () => {
    expect(fieldOf('challenge')).toBe('challenges');
    expect(fieldOf('challenges[1]')).toBe('challenges');
    expect(fieldOf('agents[2].manifest')).toBe('agents');
    expect(fieldOf('format.rounds')).toBe('format.rounds');
    expect(fieldOf('format.max_tables')).toBe('format');
    expect(fieldOf('stop.beta')).toBe('stop.beta');
    expect(fieldOf('options.foo')).toBe('(root)');
    expect(fieldOf('(root)')).toBe('(root)');
    expect(errorsByField({ 'agents[1].manifest': ['x: file not found'] }).agents).toEqual(['agents[1].manifest: x: file not found']);
  });

  it("reads the engine's 400 message into per-field errors", () => {
    const message =
      "tournament: invalid tournament definition\n  challenge: unknown challenge 'nope'\n  agents[0].manifest: /x/agent.yaml: file not found\n  something odd";
    expect(parseRemoteErrors(message)).toEqual({
      challenge: ["unknown challenge 'nope'"],
      'agents[0].manifest': ['/x/agent.yaml: file not found'],
      '(root)': ['something odd'],
    });
    expect(parseRemoteErrors('name: must be non-empty')).toEqual({ name: ['must be non-empty'] });
  });

  it('counts planned games with the engine formula once the definition is valid', () => {
    const seats = (id: string) => (id === 'psi' ? 2 : undefined);
    // 3 agents round-robin: 3 pairings × 2 games.
    expect(localPlannedGames(specFromForm(filledForm()).spec, seats)).toEqual({ count: 6, exact: true });
    expect(localPlannedGames(specFromForm({ ...filledForm(), gamesPerPairing: '10' }).spec, seats)?.count).toBe(30);
    expect(localPlannedGames(specFromForm({ ...filledForm(), challenges: ['unknown'] }).spec, seats)).toBeNull();
    expect(localPlannedGames(specFromForm({ ...filledForm(), agents: [] }).spec, seats)).toBeNull();
    const sprt = specFromForm({ ...filledForm(), agents: agents.slice(0, 2), stop: 'sprt' }).spec;
    expect(localPlannedGames(sprt, seats)?.exact).toBe(false);
  });
});

describe('tournament definition YAML', () => {
  it('round-trips form → YAML → form → definition unchanged', () => {
    const form = { ...filledForm(), format: 'gauntlet' as const, challengers: '1', cycles: '3', seed: 'abc', stop: 'fixed' as const };
    const { spec } = specFromForm(form);
    const yaml = specToYaml(spec);
    expect(yaml).toContain('name: psi baselines');
    const parsed = parseSpecYaml(yaml);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.raw).toEqual(spec);
    expect(specFromForm(formFromSpec(parsed.raw, '1')).spec).toEqual(spec);
  });

  it('keeps fields the form has no control for, and drops format options that do not fit a new format', () => {
    const text = `
name: imported
challenges: [psi, millionaire]
format: {kind: round-robin, cycles: 2, max_tables: 8}
games_per_pairing: 4
seed: 7
agents:
  - {manifest: a/agent.yaml}
  - {manifest: b/agent.yaml, id: bee}
stop: {kind: sprt, elo0: 0, elo1: 25, alpha: 0.05, beta: 0.05, model: normalized}
limits: {move_seconds: 5, game_seconds: 60}
options: {psi: {setSize: 12}}
max_illegal_actions: 2
`;
    const parsed = parseSpecYaml(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const form = formFromSpec(parsed.raw, '1');
    expect(form.agents).toEqual([
      { manifest: 'a/agent.yaml', id: '' },
      { manifest: 'b/agent.yaml', id: 'bee' },
    ]);
    const again = specFromForm(form).spec;
    expect(again).toEqual({ ...parsed.raw, concurrency: 2 });
    expect(validateLocally(again)).toEqual({});
    // max_tables belongs to round-robin; switching to swiss must not carry it into an "unknown field" error.
    const swiss = specFromForm({ ...form, format: 'swiss', stop: 'fixed' }).spec;
    expect(swiss.format).toEqual({ kind: 'swiss' });
  });

  it('accepts the `format: swiss` shorthand and reports garbage clearly', () => {
    const short = parseSpecYaml('name: s\nformat: swiss\n');
    if (!short.ok) throw new Error(short.error);
    expect(formFromSpec(short.raw, '1').format).toBe('swiss');
    const broken = parseSpecYaml('name: [unclosed');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/^Not valid YAML or JSON: /);
    const list = parseSpecYaml('- a\n- b\n');
    expect(list).toEqual({ ok: false, error: expect.stringContaining('is a mapping') });
  });

  it('reports unknown top-level fields from an import on their own path', () => {
    const parsed = parseSpecYaml(
      'name: x\nchallenge: psi\nformat: round-robin\nseed: 1\nagents: []\nlimits: {move_seconds: 1, game_seconds: 2}\nrounds: 3\n',
    );
    if (!parsed.ok) throw new Error(parsed.error);
    const errors = validateLocally(specFromForm(formFromSpec(parsed.raw, '1')).spec);
    expect(errors.rounds).toEqual(['unknown field']);
  });
});

describe('manifest paths and agent ids', () => {
  it('resolves relative manifests against the base folder and normalises separators', () => {
    expect(resolveManifest('/home/u/arena', 'challenges/psi/agents/x/agent.yaml')).toBe('/home/u/arena/challenges/psi/agents/x/agent.yaml');
    expect(resolveManifest('/home/u/arena/', './a/../b/agent.yaml')).toBe('/home/u/arena/b/agent.yaml');
    expect(resolveManifest('/ignored', '/abs/agent.yaml')).toBe('/abs/agent.yaml');
    expect(resolveManifest('C:\\arena', 'a\\agent.yaml')).toBe('C:/arena/a/agent.yaml');
    expect(resolveManifest('/x', 'D:\\agents\\agent.yaml')).toBe('D:/agents/agent.yaml');
  });

  it('shows agent folders relative to the base folder when they are inside it', () => {
    expect(displayPath('/home/u/arena', '/home/u/arena/challenges/psi/agents/x')).toBe('challenges/psi/agents/x');
    expect(displayPath('/home/u/arena/', '/home/u/arena/agents')).toBe('agents');
    expect(displayPath('/home/u/arena', '/home/u/arena-other/a')).toBe('/home/u/arena-other/a');
    expect(displayPath('C:\\arena', 'C:\\arena\\agents\\x')).toBe('agents/x');
  });

  it('gives newly picked agents unique, schema-valid ids', () => {
    expect(uniqueAgentId('honest-exact', [])).toBe('honest-exact');
    expect(uniqueAgentId('honest-exact', ['honest-exact'])).toBe('honest-exact-2');
    expect(uniqueAgentId('honest-exact', ['honest-exact', 'honest-exact-2'])).toBe('honest-exact-3');
    expect(uniqueAgentId('My Agent!', [])).toBe('My-Agent-');
    expect(uniqueAgentId('***', [])).toBe('agent');
  });
});
