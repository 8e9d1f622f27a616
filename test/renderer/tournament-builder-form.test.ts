import { describe, expect, it } from 'vitest';
import { parseTournamentSpec } from '../../engine/core/tournament/spec.js';
import { displayPath, matchCatalogAgent, resolveManifest, uniqueAgentId } from '../../renderer/src/features/tournaments/agent-paths.js';
import { formProblems, placeHidden, touchedBy } from '../../renderer/src/features/tournaments/builder-errors.js';
import {
  emptyForm,
  errorsByField,
  type FormAgent,
  fieldOf,
  formFromSpec,
  localPlannedGames,
  mergeErrors,
  parseSpecYaml,
  portableSpec,
  randomSeed,
  remoteErrors,
  specFromForm,
  specToYaml,
  validateLocally,
  withLifecycle,
  withoutCarried,
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

  it('writes the advanced fields only when set, each on the format or stop rule it belongs to', () => {
    const advanced = {
      ...filledForm(),
      agents: agents.slice(0, 2),
      maxTables: '16',
      byePoints: '1',
      tieBreakPairs: '1',
      thirdPlace: true,
      maxIllegalActions: '0',
      options: '{"setSize": 12}',
    };
    const { spec, errors } = specFromForm(advanced);
    expect(errors).toEqual({});
    expect(spec.format).toEqual({ kind: 'round-robin', cycles: 1, max_tables: 16 });
    expect(spec.max_illegal_actions).toBe(0);
    expect(spec.options).toEqual({ setSize: 12 });
    expect(validateLocally(spec)).toEqual({});
    expect(specFromForm({ ...advanced, format: 'gauntlet' }).spec.format).toEqual({
      kind: 'gauntlet',
      cycles: 1,
      challengers: 1,
      max_tables: 16,
    });
    expect(specFromForm({ ...advanced, format: 'swiss' }).spec.format).toEqual({ kind: 'swiss', bye_points: 1 });
    expect(specFromForm({ ...advanced, format: 'knockout' }).spec.format).toEqual({
      kind: 'knockout',
      tie_break_pairs: 1,
      third_place: true,
    });
    const sprt = (sprtModel: 'logistic' | 'normalized' | 'bayeselo') => specFromForm({ ...advanced, stop: 'sprt', sprtModel }).spec.stop;
    expect(sprt('bayeselo')).toEqual({ kind: 'sprt', elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'bayeselo' });
    // The default model, an empty options object and blank fields stay out: the export names only what was changed.
    expect(sprt('logistic')).not.toHaveProperty('model');
    const blank = specFromForm({ ...filledForm(), options: '  {}  ' }).spec;
    expect(blank).not.toHaveProperty('options');
    expect(blank).not.toHaveProperty('max_illegal_actions');
    expect(blank.format).toEqual({ kind: 'round-robin', cycles: 1 });
  });

  it('reports bad advanced values on their own fields', () => {
    const form = { ...filledForm(), maxTables: 'lots', maxIllegalActions: '-1', options: '{"setSize": 12,}' };
    const { spec, errors } = specFromForm(form);
    expect(errors['format.max_tables']).toEqual(['must be a number']);
    expect(errors.options?.[0]).toMatch(/^not valid JSON: /);
    expect(spec).not.toHaveProperty('options');
    const byField = errorsByField(mergeErrors(errors, validateLocally(spec)));
    expect(byField.max_illegal_actions).toEqual(['max_illegal_actions must be ≥ 0']);
    expect(byField['format.max_tables']).toEqual(['must be a number']);
    expect(byField.options?.[0]).toMatch(/^not valid JSON: /);
    expect(specFromForm({ ...filledForm(), options: '"setSize"' }).errors.options).toEqual(['must be a JSON object, e.g. {"setSize": 12}']);
    const knockout = specFromForm({ ...filledForm(), format: 'knockout', tieBreakPairs: '1.5' });
    expect(errorsByField(validateLocally(knockout.spec))['format.tie_break_pairs']).toEqual(['tie_break_pairs must be a whole number']);
    const swiss = specFromForm({ ...filledForm(), format: 'swiss', byePoints: '-1' });
    expect(errorsByField(validateLocally(swiss.spec))['format.bye_points']).toEqual(['bye_points must be ≥ 0']);
  });

  it("shows a challenge's own complaint about the options next to the options field", () => {
    // The engine's 400 issues when psi's options schema rejects the object (see the tournament service's validateOptions).
    const issues = [{ path: 'options', message: 'invalid for psi: setSize: Too small: expected number to be >=1' }];
    const byField = errorsByField(remoteErrors(issues));
    expect(byField).toEqual({ options: ['invalid for psi: setSize: Too small: expected number to be >=1'] });
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
    expect(fieldOf('format.max_tables')).toBe('format.max_tables');
    expect(fieldOf('format.kind')).toBe('format');
    expect(fieldOf('stop.beta')).toBe('stop.beta');
    expect(fieldOf('stop.model')).toBe('stop.model');
    expect(fieldOf('options')).toBe('options');
    expect(fieldOf('options.foo')).toBe('options');
    expect(fieldOf('rounds')).toBe('(root)');
    expect(fieldOf('(root)')).toBe('(root)');
    expect(errorsByField({ 'agents[1].manifest': ['x: file not found'] }).agents).toEqual(['agents[1].manifest: x: file not found']);
  });

  it("reads the engine's 400 issues into per-field errors", () => {
    const issues = [
      { path: 'challenge', message: "unknown challenge 'nope'" },
      { path: 'agents[0].manifest', message: '/x/agent.yaml: file not found' },
      { path: '', message: 'something odd' },
    ];
    expect(remoteErrors(issues)).toEqual({
      challenge: ["unknown challenge 'nope'"],
      'agents[0].manifest': ['/x/agent.yaml: file not found'],
      '(root)': ['something odd'],
    });
    expect(remoteErrors([{ path: 'name', message: 'must be non-empty' }])).toEqual({ name: ['must be non-empty'] });
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

  it("shows the advanced fields of an import in the form and writes them back; a new format drops the old one's", () => {
    const text = `
name: imported
challenges: [psi, millionaire]
format: {kind: round-robin, cycles: 2, max_tables: 8}
games_per_pairing: 4
seed: 7
agents:
  - {manifest: a/agent.yaml}
  - {manifest: b/agent.yaml, id: bee, lifecycle: per-game}
stop: {kind: sprt, elo0: 0, elo1: 25, alpha: 0.05, beta: 0.05, model: normalized}
limits: {move_seconds: 5, game_seconds: 60}
options: {setSize: 12, range: [0, 500]}
max_illegal_actions: 2
max_restarts: 1
`;
    const parsed = parseSpecYaml(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const form = formFromSpec(parsed.raw, '1');
    expect(form.agents).toEqual([
      { manifest: 'a/agent.yaml', id: '' },
      { manifest: 'b/agent.yaml', id: 'bee', lifecycle: 'per-game' },
    ]);
    expect(form).toMatchObject({ maxTables: '8', sprtModel: 'normalized', maxIllegalActions: '2', maxRestarts: '1' });
    expect(JSON.parse(form.options)).toEqual({ setSize: 12, range: [0, 500] });
    expect(form.carried).toEqual([]);
    const again = specFromForm(form).spec;
    expect(again).toEqual(parsed.raw);
    expect(validateLocally(again)).toEqual({});
    const yaml = specToYaml(again);
    for (const line of [
      'max_tables: 8',
      'model: normalized',
      'max_illegal_actions: 2',
      'max_restarts: 1',
      'lifecycle: per-game',
      'setSize: 12',
    ])
      expect(yaml).toContain(line);
    // max_tables belongs to round-robin; switching to swiss must not carry it into an "unknown field" error.
    const swiss = specFromForm({ ...form, format: 'swiss', stop: 'fixed' }).spec;
    expect(swiss.format).toEqual({ kind: 'swiss' });
    expect(swiss.stop).toEqual({ kind: 'fixed' });
  });

  it('round-trips the swiss and knockout options through YAML', () => {
    for (const format of [
      { kind: 'swiss', rounds: 2, bye_points: 0.5 },
      { kind: 'knockout', tie_break_pairs: 0, third_place: true },
    ]) {
      const spec = { ...specFromForm(filledForm()).spec, format };
      const parsed = parseSpecYaml(specToYaml(spec));
      if (!parsed.ok) throw new Error(parsed.error);
      expect(specFromForm(formFromSpec(parsed.raw, '1')).spec).toEqual(spec);
      expect(validateLocally(spec)).toEqual({});
    }
    // Written-out defaults read back as what they are, and the definition keeps them (the user typed them).
    const knockout = formFromSpec({ format: { kind: 'knockout', tie_break_pairs: 3, third_place: false } }, '1');
    expect(knockout).toMatchObject({ tieBreakPairs: '3', thirdPlace: false });
    expect(specFromForm(knockout).spec.format).toEqual({ kind: 'knockout', tie_break_pairs: 3, third_place: false });
  });

  it('keeps values of the wrong type from an import so the schema reports them on their field', () => {
    const raw = {
      ...specFromForm(filledForm()).spec,
      format: { kind: 'knockout', third_place: 'yes', seeding: 'random' },
      agents: agents.slice(0, 2),
      stop: { kind: 'sprt', elo0: 0, elo1: 5, model: 'elo' },
      options: [1, 2],
    };
    const form = formFromSpec(raw, '1');
    expect(form.carried).toEqual(
      expect.arrayContaining([
        { path: ['format', 'third_place'], value: 'yes' },
        { path: ['format', 'seeding'], value: 'random' },
        { path: ['stop', 'model'], value: 'elo' },
        { path: ['options'], value: [1, 2] },
      ]),
    );
    const { spec, errors } = specFromForm(form);
    expect(spec).toEqual(raw);
    // The carried value is what is sent, so the schema, not the options parser, reports it.
    expect(errors.options).toBeUndefined();
    expect(validateLocally(spec).options?.[0]).toMatch(/expected record/);
    const byField = errorsByField(mergeErrors(errors, validateLocally(spec)));
    expect(byField['format.third_place']?.[0]).toMatch(/boolean/);
    expect(byField.format).toEqual(['format.seeding: unknown field']);
    expect(byField['stop.model']?.[0]).toMatch(/logistic/);
    // Picking a model in the form replaces the imported one.
    const picked = withoutCarried({ ...form, sprtModel: 'bayeselo' }, touchedBy({ sprtModel: 'bayeselo' }));
    expect(specFromForm(picked).spec.stop).toMatchObject({ model: 'bayeselo' });
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

describe('an imported definition the controls cannot say', () => {
  const typos = {
    ...specFromForm(filledForm()).spec,
    format: 'swis',
    games_per_pairing: '2',
    fromat: 'swiss',
    agents: [{ ...agents[0], lifecycel: 'persistent' }, agents[1], 'c/agent.yaml'],
    limits: { move_seconds: 5, game_seconds: 60, turn_seconds: 1 },
  };

  it('is held unchanged, with each problem on its path; a missing field is not filled in', () => {
    const form = formFromSpec(typos, '1');
    expect(form.format).toBe('swis');
    expect(form.gamesPerPairing).toBe('"2"');
    const { spec } = specFromForm(form);
    expect(spec).toEqual({ ...typos, format: { kind: 'swis' } });
    expect(Object.keys(formProblems(form).errors).sort()).toEqual(
      ['agents[0].lifecycel', 'agents[2]', 'format.kind', 'fromat', 'games_per_pairing', 'limits.turn_seconds'].sort(),
    );
    // No seed, no concurrency: the seed is missing (as `arena run` says), the concurrency is the schema's default.
    const { seed: _seed, concurrency: _c, ...bare } = specFromForm(filledForm()).spec;
    const missing = formFromSpec(bare, '1');
    expect(missing.seed).toBe('');
    expect(specFromForm(missing).spec).toEqual(bare);
    expect(formProblems(missing).errors).toEqual({ seed: ['Required'] });
  });

  it('an edit replaces what was carried for its own control, and nothing else', () => {
    const form = formFromSpec(typos, '1');
    const swiss = withoutCarried({ ...form, format: 'swiss' }, touchedBy({ format: 'swiss' }));
    const errors = formProblems(swiss).errors;
    expect(errors['format.kind']).toBeUndefined();
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['fromat', 'games_per_pairing', 'agents[0].lifecycel']));
    const typed = withoutCarried({ ...swiss, gamesPerPairing: '4' }, touchedBy({ gamesPerPairing: '4' }));
    expect(specFromForm(typed).spec.games_per_pairing).toBe(4);
    // Picking a lifecycle sets `lifecycle`; the misspelt key is another field and stays (still refused) until the
    // agent is picked again from the catalogue.
    const entry = typed.agents[0] as FormAgent;
    const picked = { ...typed, agents: withLifecycle(typed.agents, entry, 'persistent') };
    expect((specFromForm(picked).spec.agents as unknown[])[0]).toEqual({ ...agents[0], lifecycle: 'persistent', lifecycel: 'persistent' });
  });

  it('lists a problem of a control not on screen above Start, with its path', () => {
    const byField = { 'format.rounds': ['unknown field'], format: ['format.kind: bad'] };
    expect(placeHidden(byField, { format: 'round-robin', stop: 'fixed' })).toEqual({
      '(root)': ['format.rounds: unknown field'],
      format: ['format.kind: bad'],
    });
    expect(placeHidden(byField, { format: 'swiss', stop: 'fixed' })).toEqual(byField);
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

  it('imports the shipped example from any folder: relative paths match the catalogue by their tail', () => {
    const catalog = [
      '/srv/arena/challenges/psi/agents/honest-exact/agent.yaml',
      '/srv/arena/challenges/psi/agents/greedy-overclaim/agent.yaml',
      '/home/u/mine/honest-exact/agent.yaml',
    ];
    // examples/quickstart.tournament.yaml names its agents relative to its own folder; the engine runs elsewhere.
    expect(matchCatalogAgent('../challenges/psi/agents/honest-exact/agent.yaml', catalog, '/somewhere/else')).toBe(catalog[0]);
    expect(matchCatalogAgent('../challenges/psi/agents/greedy-overclaim', catalog, '/somewhere/else')).toBe(catalog[1]);
    // A report's definition shortens paths outside its folder to "…/<folder>/agent.yaml"; "start from this one" still finds them.
    expect(matchCatalogAgent('…/greedy-overclaim/agent.yaml', catalog, '/x')).toBe(catalog[1]);
    // An exact resolution wins; an ambiguous tail matches nothing rather than the wrong agent.
    expect(matchCatalogAgent('challenges/psi/agents/honest-exact/agent.yaml', catalog, '/srv/arena')).toBe(catalog[0]);
    expect(matchCatalogAgent('../honest-exact/agent.yaml', catalog, '/x')).toBeNull();
    expect(matchCatalogAgent('/elsewhere/agent.yaml', catalog, '/x')).toBeNull();
  });

  it('exports manifests inside the base folder relative to it', () => {
    const spec = {
      name: 'x',
      agents: [{ manifest: '/srv/arena/challenges/psi/agents/honest-exact/agent.yaml' }, { manifest: '/opt/a/agent.yaml' }],
    };
    expect(portableSpec(spec, '/srv/arena').agents).toEqual([
      { manifest: 'challenges/psi/agents/honest-exact/agent.yaml' },
      { manifest: '/opt/a/agent.yaml' },
    ]);
  });
});

describe('per-agent lifecycle control', () => {
  it('sets, changes and clears one agent’s override, and the choice round-trips through YAML', () => {
    const form = filledForm();
    const second = form.agents[1] as (typeof form.agents)[number];
    const warm = withLifecycle(form.agents, second, 'persistent');
    expect(warm.map((a) => 'lifecycle' in a && a.lifecycle)).toEqual([false, 'persistent', false]);
    const cold = withLifecycle(warm, warm[1] as (typeof warm)[number], 'per-game');
    const { spec, errors } = specFromForm({ ...form, agents: cold });
    expect(errors).toEqual({});
    expect((spec.agents as Array<Record<string, unknown>>)[1]).toEqual({ ...second, lifecycle: 'per-game' });
    const checked = parseTournamentSpec(spec);
    expect(checked.ok && checked.spec.agents[1]?.lifecycle).toBe('per-game');
    const yaml = specToYaml(spec);
    expect(yaml).toContain('lifecycle: per-game');
    const parsed = parseSpecYaml(yaml);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(formFromSpec(parsed.raw, '1').agents[1]).toEqual({ ...second, lifecycle: 'per-game' });
    // Back to "as its manifest says": the key leaves the definition.
    const cleared = withLifecycle(cold, cold[1] as (typeof cold)[number], '');
    expect('lifecycle' in (cleared[1] as object)).toBe(false);
    expect(specToYaml(specFromForm({ ...form, agents: cleared }).spec)).not.toContain('lifecycle');
  });
});
