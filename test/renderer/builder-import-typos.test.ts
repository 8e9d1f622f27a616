// Issue 43: the builder's "Import YAML file" / "Paste YAML" reads a definition by the same rule as `arena run`. For every
// field of the definition schema (walked from the schema itself, so a new field is covered or this test fails), a
// typo'd value and a typo'd key go through the builder's import path (YAML text → parseSpecYaml → formFromSpec →
// formProblems, the functions the page calls): the definition is not loaded as valid, every problem `arena run` finds
// is named on its field, and the definition the builder holds is still the imported one (nothing replaced by a default,
// nothing dropped).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseTournamentSpec, TournamentSpecSchema } from '../../engine/core/tournament/spec.js';
import { formProblems } from '../../renderer/src/features/tournaments/builder-errors.js';
import { formFromSpec, parseSpecYaml, specToYaml } from '../../renderer/src/features/tournaments/builder-form.js';

type JsonSchema = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};
type Path = Array<string | number>;

const schema = z.toJSONSchema(TournamentSpecSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** One full definition per format: every optional field set, so each field of the schema has a valid value to typo. */
function validDefinition(format: Record<string, unknown>): Record<string, unknown> {
  return {
    name: 'typo check',
    challenge: 'psi',
    format,
    games_per_pairing: 2,
    concurrency: 1,
    seed: 7,
    agents: [{ manifest: 'a/agent.yaml', id: 'alpha', lifecycle: 'per-game' }, { manifest: 'b/agent.yaml' }],
    stop: { kind: 'sprt', elo0: 0, elo1: 10, alpha: 0.05, beta: 0.1, model: 'normalized' },
    limits: { move_seconds: 5, game_seconds: 60 },
    options: { setSize: 3 },
    max_illegal_actions: 1,
    max_restarts: 2,
  };
}

const FORMATS: Record<string, Record<string, unknown>> = {
  'round-robin': { kind: 'round-robin', cycles: 2, max_tables: 50 },
  gauntlet: { kind: 'gauntlet', challengers: 1, cycles: 1, max_tables: 9 },
  swiss: { kind: 'swiss', rounds: 1, bye_points: 0.5 },
  knockout: { kind: 'knockout', tie_break_pairs: 2, third_place: true },
  replay: { kind: 'replay', seed: 'ab12', seats: [1, 0] },
  adaptive: { kind: 'adaptive', confidence: 0.9, focus: { top_k: 1 } },
};

/** An adaptive run needs a budget and refuses SPRT; the budget belongs to it alone. */
const adaptiveDefinition = (format: Record<string, unknown>) => ({
  ...validDefinition(format),
  stop: { kind: 'fixed' },
  budget: { games: 20, tokens: 1000, usd: 1 },
});

interface Field {
  path: Path;
  schema: JsonSchema;
  base: Record<string, unknown>;
}

/** Every field of the schema with the valid definition that sets it (fixed stop and `challenges` get their own). */
function fields(): Field[] {
  const out: Field[] = [];
  const plain = validDefinition(FORMATS['round-robin'] as Record<string, unknown>);
  // `challenge` and `challenges` exclude each other: the second gets a definition of its own.
  const { challenge: _one, ...rest } = plain;
  const listed = { ...rest, challenges: ['psi', 'millionaire'] };
  const walk = (node: JsonSchema, path: Path, main: Record<string, unknown>) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const at = [...path, key];
      const base = valueAt(main, at) === undefined && valueAt(listed, at) !== undefined ? listed : main;
      out.push({ path: at, schema: child, base });
      if (child.properties) walk(child, at, base);
      if (child.items?.properties) walk(child.items, [...at, 0], base);
    }
  };
  walk(
    {
      properties: Object.fromEntries(
        Object.entries(schema.properties ?? {}).filter(([k]) => k !== 'format' && k !== 'stop' && k !== 'budget'),
      ),
    },
    [],
    plain,
  );
  out.push({ path: ['format'], schema: schema.properties?.format as JsonSchema, base: plain });
  for (const variant of schema.properties?.format?.oneOf ?? []) {
    const kind = String(variant.properties?.kind?.const);
    const format = FORMATS[kind];
    if (!format) throw new Error(`no example of format '${kind}': add one to FORMATS`);
    // A replay plays one game, so its stop rule is fixed.
    const base =
      kind === 'replay'
        ? { ...validDefinition(format), stop: { kind: 'fixed' } }
        : kind === 'adaptive'
          ? adaptiveDefinition(format)
          : validDefinition(format);
    walk(variant, ['format'], base);
    if (kind === 'adaptive') {
      out.push({ path: ['budget'], schema: schema.properties?.budget as JsonSchema, base });
      walk(schema.properties?.budget as JsonSchema, ['budget'], base);
    }
  }
  out.push({ path: ['stop'], schema: schema.properties?.stop as JsonSchema, base: plain });
  for (const variant of schema.properties?.stop?.oneOf ?? []) {
    const kind = String(variant.properties?.kind?.const);
    walk(variant, ['stop'], kind === 'sprt' ? plain : { ...plain, stop: { kind } });
  }
  return out;
}

function valueAt(record: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], record);
}

function withValue(record: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> {
  const copy = structuredClone(record);
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1] as string | number] = value;
  return copy;
}

/** The same value under a misspelt key (the last two letters swapped, as fingers do). */
function withTypoKey(record: Record<string, unknown>, path: Path): { definition: Record<string, unknown>; typo: Path } {
  const copy = structuredClone(record);
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string, unknown>;
  const key = String(path[path.length - 1]);
  const typo = `${key.slice(0, -2)}${key.slice(-1)}${key.slice(-2, -1)}`;
  const entries = Object.entries(parent).map(([k, v]) => [k === key ? typo : k, v] as const);
  for (const k of Object.keys(parent)) delete parent[k];
  Object.assign(parent, Object.fromEntries(entries));
  return { definition: copy, typo: [...path.slice(0, -1), typo] };
}

/** A value the field's schema refuses, as a user would get it wrong: a near-miss of a fixed word, else the wrong type. */
function typoValue(field: JsonSchema, current: unknown): unknown {
  if (field.const !== undefined || field.enum) return String(current).slice(0, -1);
  if (field.oneOf) return typoValue(field.oneOf[0]?.properties?.kind ?? {}, valueAt(current, ['kind']));
  if (field.anyOf) return 1.5; // the seed: a whole number or a string
  switch (field.type) {
    case 'integer':
    case 'number':
      return `${String(current)}O`;
    case 'boolean':
      return 'ture';
    case 'string':
      return 12;
    case 'array':
      return String(current);
    default:
      return 'setSize=3';
  }
}

/** The builder's import path on YAML text, as the page runs it. */
function importText(definition: Record<string, unknown>) {
  const text = specToYaml(definition);
  const parsed = parseSpecYaml(text);
  if (!parsed.ok) throw new Error(parsed.error);
  const { spec, errors } = formProblems(formFromSpec(parsed.raw, '1'));
  return { raw: parsed.raw, spec, errors };
}

const pathText = (path: Path) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

function expectRejectedLikeArenaRun(definition: Record<string, unknown>, named: (paths: string[]) => boolean, what: string) {
  const { raw, spec, errors } = importText(definition);
  const paths = Object.keys(errors);
  expect(paths.length, `${what}: loaded as valid`).toBeGreaterThan(0);
  expect(named(paths), `${what}: field not named in ${JSON.stringify(errors)}`).toBe(true);
  // The same rule as `arena run`: each of its problems is shown on the same path.
  const cli = parseTournamentSpec(raw);
  expect(cli.ok, `${what}: arena run accepts it`).toBe(false);
  if (!cli.ok) for (const issue of cli.issues) expect(paths, `${what}: arena run's ${issue.path}`).toContain(issue.path || '(root)');
  // Nothing replaced by a default, nothing dropped: the builder holds exactly what was imported.
  expect(spec, what).toEqual(typeof raw.format === 'string' ? { ...raw, format: { kind: raw.format } } : raw);
}

describe('importing a definition with a typo, field by field', () => {
  const all = fields();

  it('walks every field of the schema, each with a valid definition that sets it', () => {
    expect(all.length).toBeGreaterThan(30);
    for (const f of all) expect(valueAt(f.base, f.path), pathText(f.path)).not.toBeUndefined();
    for (const base of new Set(all.map((f) => f.base))) expect(parseTournamentSpec(base), JSON.stringify(base)).toMatchObject({ ok: true });
  });

  for (const f of fields()) {
    const at = pathText(f.path);
    it(`${at}: a typo'd value is refused on its field`, () => {
      const value = typoValue(f.schema, valueAt(f.base, f.path));
      const definition = withValue(f.base, f.path, value);
      expectRejectedLikeArenaRun(
        definition,
        (paths) => paths.some((p) => p === at || p.startsWith(`${at}.`)),
        `${at}: ${JSON.stringify(value)}`,
      );
    });
    if (typeof f.path[f.path.length - 1] === 'string') {
      it(`${at}: a typo'd key is refused, naming it`, () => {
        const { definition, typo } = withTypoKey(f.base, f.path);
        const typoAt = pathText(typo);
        // The discriminator of a format or stop rule: its absence is what the schema reports, on the key it wants.
        const named = (paths: string[]) => paths.includes(typoAt) || (f.path[f.path.length - 1] === 'kind' && paths.includes(at));
        expectRejectedLikeArenaRun(definition, named, `${typoAt} for ${at}`);
      });
    }
  }

  it('the shorthand `format: swis` with another typo: both named, nothing valid', () => {
    const definition = { ...validDefinition(FORMATS['round-robin'] as Record<string, unknown>), format: 'swis', stop: { kind: 'fixed' } };
    const { errors } = importText({ ...definition, games_per_pairing: 'two' });
    expect(Object.keys(errors).sort()).toEqual(['format.kind', 'games_per_pairing']);
  });
});
