// One declaration per game action: a zod object schema whose fields carry the type strings clients read. The
// wire's `params` hints, its `params_schema` (JSON Schema) and the validation of a submission all derive from it.
import { z } from 'zod';
import { type ActionRejection, deepFreeze, type JsonObject, TABLE_TALK_MAX, toJson } from './game.js';

/** What a field adds beyond its schema: the hint text, and how a type failure is worded. */
interface FieldMeta {
  hint: string;
  /** `int`: "x must be an integer"; `text`: "x must be a string"; `any`: zod's own wording. */
  kind: 'int' | 'text' | 'any';
}

const FIELDS = z.registry<FieldMeta>();

/** Attaches the hint a client reads (`"int (1-6)"`) to a field's schema. */
export function field<T extends z.ZodType>(schema: T, hint: string, kind: FieldMeta['kind'] = 'any'): T {
  FIELDS.add(schema as z.ZodType, { hint, kind });
  return schema;
}

/** Integral numbers written as strings ("3", " 4 "), which language-model clients often send. */
function intish(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : value;
}

/** An integer field (accepting integer strings) refined by `inner` (bounds, a literal set). */
export function int<T extends z.ZodType>(hint: string, inner: T) {
  return field(z.preprocess(intish, inner), hint, 'int');
}

/**
 * A string whose length is counted in characters (code points, as JSON Schema counts them), not UTF-16 units.
 * Optional texts also accept null. The JSON Schema bounds come from the same numbers.
 */
export function text(hint: string, bounds: { max: number; min?: number; trim?: boolean; optional?: boolean }) {
  const length = (v: string) => [...(bounds.trim ? v.trim() : v)].length;
  let schema = z.string().check(
    z.refine((v) => length(v) >= (bounds.min ?? 0), {
      message: bounds.min === 1 ? 'must not be empty' : `must be at least ${bounds.min} characters`,
      abort: true,
    }),
    z.refine((v) => length(v) <= bounds.max, { message: `must be at most ${bounds.max} characters` }),
  );
  schema = schema.meta({ ...(bounds.min ? { minLength: bounds.min } : {}), maxLength: bounds.max });
  if (!bounds.optional) return field(schema, hint, 'text');
  return field(
    z.preprocess((v) => (v === null ? undefined : v), schema.optional()),
    hint,
    'text',
  );
}

/** One of a listed set of values (JSON Schema `enum` with the given `type`). */
export function oneOf<const V extends readonly z.core.util.Literal[]>(values: V, type: string | string[]) {
  return z.literal(values).meta({ type, enum: [...values] as JsonObject[string][] });
}

/** A JSON object of any shape (checked further by the game), shown as `{"type": "object"}`. */
export function jsonObject() {
  return z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)).meta({ type: 'object' });
}

export type ParamsShape = z.ZodObject;

/**
 * Builds a declaration once per distinct argument list (a table size, the faces rolled, the listed targets): zod
 * schemas are costly to build and to convert, and polls ask for the same few again and again.
 */
export function declaration<A extends readonly unknown[], S extends ParamsShape>(build: (...args: A) => S): (...args: A) => S {
  const built = new Map<string, S>();
  return (...args: A) => {
    const key = JSON.stringify(args);
    let schema = built.get(key);
    if (!schema) {
      schema = build(...args);
      built.set(key, schema);
    }
    return schema;
  };
}

const HINTS = new WeakMap<ParamsShape, Record<string, string>>();
const SCHEMAS = new WeakMap<ParamsShape, JsonObject>();

/** The `params` hint of an action: field → type string. */
export function paramsHint(schema: ParamsShape): Record<string, string> {
  let hint = HINTS.get(schema);
  if (!hint) {
    hint = Object.fromEntries(
      Object.entries(schema.shape).map(([key, value]) => [key, FIELDS.get(value)?.hint ?? value.description ?? 'value']),
    );
    HINTS.set(schema, hint);
  }
  return { ...hint };
}

/**
 * The `params_schema` of an action: one frozen object per shape, shared by every legal-action list (copying it was a
 * tenth of a Clawpoly move's cost; a caller that tried to change it would throw). Zod writes an open object's
 * `additionalProperties` as `{}`, an unconstrained array's `items` as `{}`; the wire has always said `true` and
 * nothing, which mean the same. A one-value `oneOf` keeps its `enum` (zod would add `const`).
 */
export function paramsSchema(schema: ParamsShape): JsonObject {
  let json = SCHEMAS.get(schema);
  if (!json) {
    json = deepFreeze(toWire(schema));
    SCHEMAS.set(schema, json);
  }
  return json;
}

function toWire(schema: ParamsShape): JsonObject {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  const tidy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(tidy);
    if (!node || typeof node !== 'object') return node;
    // `type` first, as the hand-written schemas had it.
    const out: Record<string, unknown> = 'type' in node ? { type: tidy(node.type) } : {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'type') continue;
      if (k === 'items' && isEmpty(v)) continue;
      if (k === 'const' && 'enum' in node) continue;
      out[k] = k === 'additionalProperties' && isEmpty(v) ? true : k === 'properties' ? mapValues(v, tidy) : tidy(v);
    }
    return out;
  };
  const { type, required, properties, additionalProperties, ...rest } = tidy(json) as Record<string, unknown>;
  return { type, ...(required ? { required } : {}), properties, additionalProperties, ...rest } as unknown as JsonObject;
}

function isEmpty(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

function mapValues(v: unknown, fn: (x: unknown) => unknown): unknown {
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fn(x)]));
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ActionRejection };

/** Turns a range or set issue (too small, too big, not an allowed value) into the game's own rejection. */
export type RangeRejection = (issue: z.core.$ZodIssue, field: string, value: unknown) => ActionRejection | undefined;

/** The first problem of one declared field's value, or null (for games whose own checks interleave with these). */
export function fieldIssue(schema: ParamsShape, key: string, value: unknown): z.core.$ZodIssue | null {
  const field = schema.shape[key] as z.ZodType | undefined;
  if (!field) return null;
  const parsed = field.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0] ?? null);
}

/** The first key of `params` the declaration does not have (for games that check the rest in their own order). */
export function unknownKey(schema: ParamsShape, params: Record<string, unknown>): string | null {
  return Object.keys(params).find((k) => !(k in schema.shape)) ?? null;
}

/**
 * Parses a submission. Failures are reported one at a time, in the order the hand-written checks always used: first
 * a missing or mistyped field (in declaration order, worded by the field's kind), then a value out of range (in
 * `rangeOrder`, else declaration order), which `range` may turn into a game-specific code.
 */
export function parseParams<S extends ParamsShape>(
  schema: S,
  params: Record<string, unknown>,
  options: { range?: RangeRejection; rangeOrder?: readonly string[] } = {},
): Parsed<z.output<S>> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return { ok: true, value: parsed.data };
  const keys = Object.keys(schema.shape);
  const order = options.rangeOrder ?? keys;
  const ranked = parsed.error.issues.map((issue, i) => {
    const name = String(issue.path[0] ?? '');
    const shape = isShapeIssue(issue, schema, params);
    const rank = shape ? keys.indexOf(name) : keys.length + (order.includes(name) ? order.indexOf(name) : keys.indexOf(name));
    return { issue, name, shape, rank: rank * 1000 + i };
  });
  ranked.sort((a, b) => a.rank - b.rank);
  const first = ranked[0] as (typeof ranked)[number];
  const raw = params[first.name];
  if (!first.shape) {
    const custom = options.range?.(first.issue, first.name, intish(raw));
    if (custom) return { ok: false, error: custom };
  }
  return { ok: false, error: wordIssue(first.issue, first.name, raw, schema) };
}

/** A missing field, a wrong type or a text length: everything the kit words itself. */
function isShapeIssue(issue: z.core.$ZodIssue, schema: ParamsShape, params: Record<string, unknown>): boolean {
  const name = String(issue.path[0] ?? '');
  if (issue.code === 'invalid_type' || issue.code === 'unrecognized_keys') return true;
  if (params[name] === undefined) return true;
  const kind = FIELDS.get(schema.shape[name] as z.ZodType)?.kind;
  return kind === 'text' || (kind === 'int' && !Number.isInteger(intish(params[name])));
}

function wordIssue(issue: z.core.$ZodIssue, name: string, raw: unknown, schema: ParamsShape): ActionRejection {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] as string;
    return {
      code: 'invalid_params',
      message: `${key} is not a parameter of this action`,
      field: key,
      allowed_values: Object.keys(schema.shape),
    };
  }
  const kind = FIELDS.get(schema.shape[name] as z.ZodType)?.kind ?? 'any';
  if (raw === undefined && kind !== 'text') return { code: 'invalid_params', message: `${name} is required`, field: name };
  if (kind === 'int') return { code: 'invalid_params', message: `${name} must be an integer`, field: name, invalid_value: toJson(raw) };
  if (kind === 'text' && issue.code === 'invalid_type') {
    return { code: 'invalid_params', message: `${name} must be a string`, field: name, invalid_value: toJson(raw) };
  }
  return { code: 'invalid_params', message: `${name} ${issue.message}`, field: name };
}

/** The optional table-talk field most actions carry. */
export function tableTalk(hint = `string (optional, max ${TABLE_TALK_MAX} chars)`) {
  return text(hint, { max: TABLE_TALK_MAX, optional: true });
}

/** Table talk as kept: trimmed, and null when nothing is left. */
export function spoken(message: string | undefined): string | null {
  const trimmed = message?.trim() ?? '';
  return trimmed.length > 0 ? trimmed : null;
}
