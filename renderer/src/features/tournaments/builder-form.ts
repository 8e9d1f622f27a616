// The builder's form state and its two-way mapping to a tournament definition (the YAML/JSON users write).
// Pure, so the spec the UI submits and the YAML it exports are unit-tested without a browser. Numbers stay text
// while the user types; a field that is not a number is reported on that field rather than sent.
import YAML from 'yaml';
import { expectedGameCount } from '../../../../engine/core/tournament/from-spec.js';
import { FORMAT_KINDS, SprtModelSchema, TournamentSpecSchema } from '../../../../engine/core/tournament/spec.js';
import { displayPath } from './agent-paths.js';
import { addError, type FieldErrors } from './field-errors.js';
import { type FormatKind, fieldsIn, leafOf, NUMBER_FIELDS, type NumberField, type NumberKey } from './number-fields.js';

export {
  errorsByField,
  type FieldErrors,
  fieldOf,
  mergeErrors,
  remoteErrors,
  validateLocally,
} from './field-errors.js';
export { ADVANCED_PATHS, type FormatKind, NUMBER_FIELDS, type NumberField, type NumberKey, pathOf } from './number-fields.js';
export { FORMAT_KINDS };
export const SPRT_MODELS = SprtModelSchema.options;
export type SprtModel = (typeof SPRT_MODELS)[number];

export interface FormAgent {
  /** As the definition names it: absolute for catalog agents, possibly relative for imported definitions. */
  manifest: string;
  /** The id standings show; empty = the manifest's own id (the engine's default). */
  id: string;
  /** A per-agent lifecycle override (`per-game` forces cold starts, `persistent` keeps one process); absent = the manifest's. */
  lifecycle?: string;
}

/** The builder's per-agent lifecycle choices; '' leaves the field out, so the agent's manifest decides. */
export const LIFECYCLE_CHOICES = [
  { value: '', label: 'as its manifest says' },
  { value: 'per-game', label: 'fresh process per game' },
  { value: 'persistent', label: 'warm (one process across games)' },
] as const;

/** `agents` with `entry`'s lifecycle override set to `lifecycle` ('' removes it). */
export function withLifecycle(agents: readonly FormAgent[], entry: FormAgent, lifecycle: string): FormAgent[] {
  return agents.map((a) => {
    if (a !== entry) return a;
    const { lifecycle: _old, ...rest } = a;
    return lifecycle === '' ? rest : { ...rest, lifecycle };
  });
}

export interface BuilderForm {
  name: string;
  challenges: string[];
  agents: FormAgent[];
  format: FormatKind;
  cycles: string;
  challengers: string;
  /** Empty = the engine's default (ceil(log2 N) + 1). */
  rounds: string;
  gamesPerPairing: string;
  concurrency: string;
  seed: string;
  moveSeconds: string;
  gameSeconds: string;
  stop: 'fixed' | 'sprt';
  elo0: string;
  elo1: string;
  alpha: string;
  beta: string;
  /** Advanced fields: empty text (or the default choice) leaves the field out, so the engine's default applies. */
  maxTables: string;
  byePoints: string;
  tieBreakPairs: string;
  thirdPlace: boolean;
  sprtModel: SprtModel;
  maxIllegalActions: string;
  maxRestarts: string;
  /** Adaptive format: decision confidence (empty = 0.95) and the budget (games required, tokens and usd optional). */
  confidence: string;
  budgetGames: string;
  budgetTokens: string;
  budgetUsd: string;
  /** The challenge options object as JSON text; empty = none. */
  options: string;
  /** Fields the form has no control for (unknown keys, values of the wrong type), kept so an import round-trips. */
  extra: { top: Record<string, unknown>; format: Record<string, unknown>; stop: Record<string, unknown> };
}

export function emptyForm(seed: string): BuilderForm {
  return {
    name: 'My tournament',
    challenges: [],
    agents: [],
    format: 'round-robin',
    cycles: '1',
    challengers: '1',
    rounds: '',
    gamesPerPairing: '2',
    concurrency: '2',
    seed,
    moveSeconds: '30',
    gameSeconds: '300',
    stop: 'fixed',
    elo0: '0',
    elo1: '50',
    alpha: '0.05',
    beta: '0.05',
    maxTables: '',
    byePoints: '',
    tieBreakPairs: '',
    thirdPlace: false,
    sprtModel: 'logistic',
    maxIllegalActions: '',
    maxRestarts: '',
    confidence: '',
    budgetGames: '',
    budgetTokens: '',
    budgetUsd: '',
    options: '',
    extra: { top: {}, format: {}, stop: {} },
  };
}

/** A fresh seed for the "random" button: short enough to read out, large enough not to repeat. */
export function randomSeed(random: () => number = Math.random): string {
  return String(Math.floor(random() * 2 ** 31));
}

/** Text → number for a numeric field; `undefined` for an empty optional field. */
function numberField(text: string, path: string, errors: FieldErrors, optional = false): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') {
    if (!optional) addError(errors, path, 'Required');
    return undefined;
  }
  const value = Number(trimmed);
  if (!Number.isFinite(value)) {
    addError(errors, path, 'must be a number');
    return undefined;
  }
  return value;
}

/** A seed that looks like a whole number is sent as one, so `seed: 42` and the form's "42" are the same run. */
function seedValue(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The definition the form describes, plus the problems found while reading the form's text fields. */
export function specFromForm(form: BuilderForm): { spec: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const read = (f: NumberField) => numberField(form[f.key], f.path, errors, f.optional);
  const numbers = (group: string, format?: FormatKind) => Object.fromEntries(fieldsIn(group, format).map((f) => [leafOf(f), read(f)]));
  const top = (key: NumberKey) => read(NUMBER_FIELDS.find((f) => f.key === key) as NumberField);
  const format: Record<string, unknown> = { kind: form.format, ...form.extra.format, ...numbers('format', form.format) };
  if (form.format === 'knockout' && form.thirdPlace) format.third_place = true;
  const stop: Record<string, unknown> =
    form.stop === 'fixed'
      ? { kind: 'fixed' }
      : {
          kind: 'sprt',
          ...numbers('stop'),
          ...form.extra.stop,
          ...(form.sprtModel === 'logistic' ? {} : { model: form.sprtModel }),
        };
  const challenges = form.challenges.length === 1 ? { challenge: form.challenges[0] } : { challenges: [...form.challenges] };
  const spec: Record<string, unknown> = {
    name: form.name.trim(),
    ...challenges,
    format: dropUndefined(format),
    games_per_pairing: top('gamesPerPairing'),
    concurrency: top('concurrency'),
    seed: seedValue(form.seed),
    agents: form.agents.map((a) => ({
      manifest: a.manifest,
      ...(a.id.trim() === '' ? {} : { id: a.id.trim() }),
      ...(a.lifecycle === undefined ? {} : { lifecycle: a.lifecycle }),
    })),
    stop: dropUndefined(stop),
    budget: form.format === 'adaptive' ? dropUndefined(numbers('budget', form.format)) : undefined,
    limits: dropUndefined(numbers('limits')),
    max_illegal_actions: top('maxIllegalActions'),
    max_restarts: top('maxRestarts'),
    options: optionsField(form.options, errors),
    ...form.extra.top,
  };
  if (form.challenges.length === 0) addError(errors, 'challenges', 'pick at least one challenge');
  return { spec: dropUndefined(spec), errors };
}

/** The options text as an object; empty text or `{}` leaves `options` out (the schema defaults it to `{}`). */
function optionsField(textInput: string, errors: FieldErrors): Record<string, unknown> | undefined {
  if (textInput.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(textInput);
  } catch (error) {
    addError(errors, 'options', `not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (!isRecord(value)) {
    addError(errors, 'options', 'must be a JSON object, e.g. {"setSize": 12}');
    return undefined;
  }
  return Object.keys(value).length === 0 ? undefined : value;
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** Form text for a definition value: numbers and strings as typed, anything else as empty. */
function text(value: unknown, fallback: string): string {
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return fallback;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rest(record: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !known.includes(key)));
}

/** Top-level keys the form has controls for besides its numeric fields. */
const TOP_FIELDS = ['name', 'challenge', 'challenges', 'format', 'seed', 'agents', 'stop', 'budget', 'limits'] as const;

/** A value the form shows as text; anything else (a list, a mapping) stays in `extra` for the schema to report. */
function isText(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/** Options as the text area shows them; a value that is not an object is shown too, so its error has a place to go. */
function optionsText(value: unknown): string {
  if (value === undefined || (isRecord(value) && Object.keys(value).length === 0)) return '';
  return JSON.stringify(value, null, 2);
}

/** Splits a record into the keys the form shows (per `shown`) and the rest, which rides along untouched. */
function split(record: Record<string, unknown>, shown: Record<string, (value: unknown) => boolean>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key, value]) => !shown[key]?.(value)));
}

/**
 * The form for an imported or earlier definition. Lenient: whatever is missing takes the blank form's value and the
 * validators then say what is wrong; fields the form has no control for ride along in `extra`.
 */
export function formFromSpec(raw: unknown, seed: string): BuilderForm {
  const blank = emptyForm(seed);
  if (!isRecord(raw)) return blank;
  const format = typeof raw.format === 'string' ? { kind: raw.format } : isRecord(raw.format) ? raw.format : {};
  const kind = FORMAT_KINDS.includes(format.kind as FormatKind) ? (format.kind as FormatKind) : blank.format;
  const stop = isRecord(raw.stop) ? raw.stop : {};
  const limits = isRecord(raw.limits) ? raw.limits : {};
  const model = SPRT_MODELS.find((m) => m === stop.model);
  const challenges = Array.isArray(raw.challenges)
    ? raw.challenges.filter((c): c is string => typeof c === 'string')
    : typeof raw.challenge === 'string'
      ? [raw.challenge]
      : [];
  const agents = Array.isArray(raw.agents)
    ? raw.agents.filter(isRecord).map((a) => ({
        manifest: text(a.manifest, ''),
        id: text(a.id, ''),
        ...(typeof a.lifecycle === 'string' ? { lifecycle: a.lifecycle } : {}),
      }))
    : [];
  const budget = isRecord(raw.budget) ? raw.budget : {};
  const parts: Record<string, Record<string, unknown>> = { '': raw, format, stop, budget, limits };
  const numbers = Object.fromEntries(
    NUMBER_FIELDS.map((f) => {
      const parent = f.path.includes('.') ? f.path.slice(0, f.path.indexOf('.')) : '';
      return [f.key, text(parts[parent]?.[leafOf(f)], f.missing === 'blank' ? blank[f.key] : '')];
    }),
  ) as Record<NumberKey, string>;
  /** A part's leftovers: keys without a control, and advanced values that are not text (the schema reports them). */
  const leftover = (
    group: string,
    record: Record<string, unknown>,
    known: readonly string[],
    shown: Record<string, (v: unknown) => boolean>,
  ) => {
    const fields = fieldsIn(group);
    const always = [...known, ...fields.filter((f) => !f.advanced).map(leafOf)];
    const advanced = Object.fromEntries(fields.filter((f) => f.advanced).map((f) => [leafOf(f), isText]));
    return split(rest(record, always), { ...advanced, ...shown });
  };
  return {
    name: text(raw.name, ''),
    challenges,
    agents,
    format: kind,
    ...numbers,
    seed: text(raw.seed, blank.seed),
    stop: stop.kind === 'sprt' ? 'sprt' : 'fixed',
    thirdPlace: format.third_place === true,
    sprtModel: model ?? blank.sprtModel,
    options: optionsText(raw.options),
    extra: {
      top: leftover('', raw, TOP_FIELDS, { options: () => true }),
      format: leftover('format', format, ['kind'], { third_place: (v) => typeof v === 'boolean' }),
      stop: stop.kind === 'sprt' ? leftover('stop', stop, ['kind'], { model: (v) => v === model }) : {},
    },
  };
}

/** Games the definition plans, computed in the page with the engine's own formula (null while the spec is invalid). */
export function localPlannedGames(
  spec: Record<string, unknown>,
  seatsOf: (challenge: string) => number | undefined,
): { count: number; exact: boolean } | null {
  const parsed = TournamentSpecSchema.safeParse(spec);
  if (!parsed.success) return null;
  if (parsed.data.challenges.some((c) => seatsOf(c) === undefined)) return null;
  const planned = expectedGameCount(parsed.data, (c) => seatsOf(c) ?? 2);
  return { ...planned, exact: planned.exact && parsed.data.stop.kind === 'fixed' };
}

/**
 * The definition as Export YAML writes it: manifests inside the base folder relative to it (the same text on every
 * machine with the same checkout), others as they are.
 */
export function portableSpec(spec: Record<string, unknown>, baseDir: string): Record<string, unknown> {
  if (!Array.isArray(spec.agents)) return spec;
  return {
    ...spec,
    agents: spec.agents.map((a) =>
      isRecord(a) && typeof a.manifest === 'string' ? { ...a, manifest: displayPath(baseDir, a.manifest) } : a,
    ),
  };
}

export function specToYaml(spec: Record<string, unknown>): string {
  return YAML.stringify(spec, { lineWidth: 0 });
}

export type YamlImport = { ok: true; raw: Record<string, unknown> } | { ok: false; error: string };

export function parseSpecYaml(textInput: string): YamlImport {
  let raw: unknown;
  try {
    raw = YAML.parse(textInput);
  } catch (error) {
    return { ok: false, error: `Not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}` };
  }
  if (!isRecord(raw)) return { ok: false, error: 'A tournament definition is a mapping (name:, challenge:, agents:, …).' };
  return { ok: true, raw };
}
