// The builder's one table of numeric fields agrees with the tournament definition schema: every numeric field the
// schema has (per format, in the stop rule, the limits and the top level) is in the table with the formats that have
// it, and nothing else is.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FORMAT_KINDS, TournamentSpecSchema } from '../../engine/core/tournament/spec.js';
import { emptyForm, NUMBER_FIELDS, pathOf, specFromForm } from '../../renderer/src/features/tournaments/builder-form.js';

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; oneOf?: JsonSchema[] };

const schema = z.toJSONSchema(TournamentSpecSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
const numeric = (s: JsonSchema | undefined) => s?.type === 'number' || s?.type === 'integer';
/** Numeric keys of an object schema, those of nested objects as dotted paths (`focus.top_k`). */
const numericKeys = (s: JsonSchema | undefined): string[] =>
  Object.entries(s?.properties ?? {}).flatMap(([k, v]) =>
    numeric(v) ? [k] : v.type === 'object' ? numericKeys(v).map((inner) => `${k}.${inner}`) : [],
  );

/** Every numeric definition path with the formats it applies to (undefined: not format-specific). */
function schemaFields(): Map<string, string[] | undefined> {
  const out = new Map<string, string[] | undefined>();
  for (const key of numericKeys(schema)) out.set(key, undefined);
  for (const variant of schema.properties?.format?.oneOf ?? []) {
    const kind = String((variant.properties?.kind as { const?: string } | undefined)?.const);
    for (const key of numericKeys(variant)) out.set(`format.${key}`, [...(out.get(`format.${key}`) ?? []), kind]);
  }
  for (const variant of schema.properties?.stop?.oneOf ?? []) for (const key of numericKeys(variant)) out.set(`stop.${key}`, undefined);
  for (const key of numericKeys(schema.properties?.limits)) out.set(`limits.${key}`, undefined);
  // The definition accepts a budget with format adaptive only.
  for (const key of numericKeys(schema.properties?.budget)) out.set(`budget.${key}`, ['adaptive']);
  return out;
}

describe('NUMBER_FIELDS', () => {
  it('lists exactly the numeric fields of the definition schema, with the formats that have them', () => {
    const fromSchema = schemaFields();
    const fromTable = new Map(NUMBER_FIELDS.map((f) => [f.path, f.formats ? [...f.formats].sort() : undefined]));
    expect([...fromTable.keys()].sort()).toEqual([...fromSchema.keys()].sort());
    for (const [path, formats] of fromSchema) expect(fromTable.get(path), path).toEqual(formats?.sort());
    for (const f of NUMBER_FIELDS) for (const kind of f.formats ?? []) expect(FORMAT_KINDS).toContain(kind);
  });

  it('an optional field is optional in the schema, a required one is reported when empty', () => {
    for (const f of NUMBER_FIELDS) {
      for (const format of f.formats ?? ['round-robin' as const]) {
        const form = { ...emptyForm('1'), format, stop: f.path.startsWith('stop.') ? ('sprt' as const) : ('fixed' as const), [f.key]: '' };
        const { errors } = specFromForm(form);
        if (f.optional) expect(errors[f.path], f.key).toBeUndefined();
        else expect(errors[f.path], f.key).toEqual(['Required']);
      }
    }
  });

  it('each field lands at its path in the definition the form builds', () => {
    for (const f of NUMBER_FIELDS) {
      const format = f.formats?.[0] ?? 'round-robin';
      const form = { ...emptyForm('1'), format, stop: 'sprt' as const, [f.key]: '0.25' };
      const { spec } = specFromForm(form);
      const value = f.path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], spec);
      expect(value, f.path).toBe(0.25);
      expect(pathOf(f.key)).toBe(f.path);
    }
  });
});
