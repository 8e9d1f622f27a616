// The builder's form state and its two-way mapping to a tournament definition (the YAML/JSON users write).
// Pure, so the spec the UI submits and the YAML it exports are unit-tested without a browser. Numbers stay text
// while the user types; a field that is not a number is reported on that field rather than sent.
import YAML from 'yaml';
import { expectedGameCount } from '../../../../engine/core/tournament/from-spec.js';
import { FORMAT_KINDS, SprtModelSchema, TournamentSpecSchema } from '../../../../engine/core/tournament/spec.js';
import { displayPath } from './agent-paths.js';
import { applyCarried, type Carried, carriedPath, differences } from './definition-carry.js';
import { addError, type FieldErrors, fieldOf } from './field-errors.js';
import { fieldsIn, innerPath, NUMBER_FIELDS, type NumberField, type NumberKey } from './number-fields.js';

export {
  errorsByField,
  type FieldErrors,
  fieldOf,
  mergeErrors,
  remoteErrors,
  validateLocally,
} from './field-errors.js';
export {
  ADVANCED_PATHS,
  type FormatKind,
  NUMBER_FIELDS,
  type NumberField,
  type NumberKey,
  pathOf,
  schemaDefault,
} from './number-fields.js';
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
  /** What the imported entry holds beyond these (unknown keys, values of the wrong type), laid over it unchanged. */
  carried?: Carried[];
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
    const { lifecycle: _old, carried, ...rest } = a;
    // The choice replaces whatever the import held for the lifecycle.
    const kept = carried?.filter((c) => c.path[0] !== 'lifecycle');
    const base = kept && kept.length > 0 ? { ...rest, carried: kept } : rest;
    return lifecycle === '' ? base : { ...base, lifecycle };
  });
}

export interface BuilderForm {
  name: string;
  challenges: string[];
  agents: FormAgent[];
  /** One of FORMAT_KINDS; an imported kind the builder does not offer (a typo, `replay`) stays as it is, '' = none. */
  format: string;
  cycles: string;
  challengers: string;
  /** Empty = the engine's default (ceil(log2 N) + 1). */
  rounds: string;
  gamesPerPairing: string;
  concurrency: string;
  seed: string;
  moveSeconds: string;
  gameSeconds: string;
  /** 'fixed' or 'sprt'; an imported kind that is neither stays as it is for the schema to report. */
  stop: string;
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
  /**
   * Adaptive format: decision confidence (empty = 0.95), the top-k focus (empty = the whole ranking) and the budget
   * (games required, tokens and usd optional).
   */
  confidence: string;
  topK: string;
  budgetGames: string;
  budgetTokens: string;
  budgetUsd: string;
  /** The challenge options object as JSON text; empty = none. */
  options: string;
  /**
   * What an imported definition holds that the controls cannot say (unknown keys, values of the wrong type), laid over
   * the definition the form builds so that nothing of an import is dropped or replaced by a default. A control's edit
   * removes what was carried for it (see withoutCarried).
   */
  carried: Carried[];
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
    topK: '',
    budgetGames: '',
    budgetTokens: '',
    budgetUsd: '',
    options: '',
    carried: [],
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
  const numbers = (group: string, format?: string) => {
    const out: Record<string, unknown> = {};
    for (const f of fieldsIn(group, format)) {
      const value = read(f);
      if (value !== undefined) setAt(out, innerPath(f), value);
    }
    return out;
  };
  const top = (key: NumberKey) => read(NUMBER_FIELDS.find((f) => f.key === key) as NumberField);
  const format: Record<string, unknown> = { kind: form.format, ...numbers('format', form.format) };
  if (form.format === 'knockout' && form.thirdPlace) format.third_place = true;
  const stop: Record<string, unknown> =
    form.stop !== 'sprt'
      ? { kind: form.stop }
      : { kind: 'sprt', ...numbers('stop'), ...(form.sprtModel === 'logistic' ? {} : { model: form.sprtModel }) };
  const challenges = form.challenges.length === 1 ? { challenge: form.challenges[0] } : { challenges: [...form.challenges] };
  const trimmedSeed = form.seed.trim();
  const built: Record<string, unknown> = {
    name: form.name.trim(),
    ...challenges,
    format: form.format === '' ? undefined : dropUndefined(format),
    games_per_pairing: top('gamesPerPairing'),
    concurrency: top('concurrency'),
    seed: trimmedSeed === '' ? undefined : seedValue(trimmedSeed),
    agents: form.agents.map((a) =>
      applyCarried(
        {
          manifest: a.manifest,
          ...(a.id.trim() === '' ? {} : { id: a.id.trim() }),
          ...(a.lifecycle === undefined ? {} : { lifecycle: a.lifecycle }),
        },
        a.carried ?? [],
      ),
    ),
    stop: dropUndefined(stop),
    budget: form.format === 'adaptive' ? dropUndefined(numbers('budget', form.format)) : undefined,
    limits: dropUndefined(numbers('limits')),
    max_illegal_actions: top('maxIllegalActions'),
    max_restarts: top('maxRestarts'),
    options: optionsField(form.options, errors),
  };
  if (form.challenges.length === 0) addError(errors, 'challenges', 'pick at least one challenge');
  // A carried value is what is sent, so the form's complaint about its own text there does not apply.
  for (const edit of form.carried) {
    const path = carriedPath(edit);
    for (const key of Object.keys(errors)) if (key === path || key.startsWith(`${path}.`)) delete errors[key];
  }
  return { spec: applyCarried(dropUndefined(built), form.carried), errors };
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

/** Sets `value` at `path` inside `record`, creating the objects on the way (`focus` for `focus.top_k`). */
function setAt(record: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = record;
  for (const key of path.slice(0, -1)) {
    if (!isRecord(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1] as string] = value;
}

/** The value at `path` inside `value`, through records only. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value);
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Form text for a definition value: a number or string as it is, anything else (a list, `true`) as its JSON, so the
 * input shows what the file says; the value itself is carried unchanged (formFromSpec).
 */
function text(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return JSON.stringify(value) ?? '';
}

/** Numeric form text: a string is shown quoted, so `"2"` reads differently from `2` (the schema wants the number). */
function numberText(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : text(value);
}

/** Options as the text area shows them; a value that is not an object is shown too, so its error has a place to go. */
function optionsText(value: unknown): string {
  if (value === undefined || (isRecord(value) && Object.keys(value).length === 0)) return '';
  return JSON.stringify(value, null, 2);
}

/** `format: swiss` is the schema's shorthand for `format: {kind: swiss}`, the spelling the form writes. */
function expandShorthand(raw: Record<string, unknown>): Record<string, unknown> {
  return typeof raw.format === 'string' ? { ...raw, format: { kind: raw.format } } : raw;
}

/** The controls' reading of a definition: each value a control can show, as it is; missing fields stay empty. */
function controlsFromSpec(raw: Record<string, unknown>, seed: string): BuilderForm {
  const blank = emptyForm(seed);
  const format = isRecord(raw.format) ? raw.format : {};
  const stop = isRecord(raw.stop) ? raw.stop : {};
  const limits = isRecord(raw.limits) ? raw.limits : {};
  const challenges = Array.isArray(raw.challenges)
    ? raw.challenges.filter((c): c is string => typeof c === 'string')
    : typeof raw.challenge === 'string'
      ? [raw.challenge]
      : [];
  const agents: FormAgent[] = Array.isArray(raw.agents)
    ? raw.agents.map((a) =>
        isRecord(a)
          ? {
              manifest: typeof a.manifest === 'string' ? a.manifest : '',
              id: typeof a.id === 'string' ? a.id : '',
              ...(typeof a.lifecycle === 'string' ? { lifecycle: a.lifecycle } : {}),
            }
          : { manifest: '', id: '' },
      )
    : [];
  const budget = isRecord(raw.budget) ? raw.budget : {};
  const parts: Record<string, Record<string, unknown>> = { '': raw, format, stop, budget, limits };
  const numbers = Object.fromEntries(
    NUMBER_FIELDS.map((f) => {
      const parent = f.path.includes('.') ? f.path.slice(0, f.path.indexOf('.')) : '';
      return [f.key, numberText(valueAt(parts[parent], innerPath(f)))];
    }),
  ) as Record<NumberKey, string>;
  return {
    name: text(raw.name),
    challenges,
    agents,
    format: typeof format.kind === 'string' ? format.kind : '',
    ...numbers,
    seed: text(raw.seed),
    stop: raw.stop === undefined ? 'fixed' : typeof stop.kind === 'string' ? stop.kind : '',
    thirdPlace: format.third_place === true,
    sprtModel: SPRT_MODELS.find((m) => m === stop.model) ?? blank.sprtModel,
    options: optionsText(raw.options),
    carried: [],
  };
}

/**
 * The form for an imported or earlier definition. Nothing is filled in or dropped: what the controls cannot show
 * exactly (an unknown key, a quoted number, a typo'd format) is carried at its path, so the definition the form builds
 * is the imported one and the engine's schema, run on it, names every problem with its field — as `arena run` would.
 */
export function formFromSpec(raw: unknown, seed: string): BuilderForm {
  if (!isRecord(raw)) return emptyForm(seed);
  const wanted = expandShorthand(raw);
  const form = controlsFromSpec(wanted, seed);
  const built = specFromForm(form).spec;
  const agents = form.agents.map((a) => ({ ...a, carried: [] as Carried[] }));
  const carried: Carried[] = [];
  for (const edit of differences(wanted, built)) {
    const [head, index] = edit.path;
    const agent = head === 'agents' && typeof index === 'number' ? agents[index] : undefined;
    if (agent) agent.carried.push({ ...edit, path: edit.path.slice(2) });
    else carried.push(edit);
  }
  return {
    ...form,
    agents: agents.map(({ carried: own, ...a }) => (own.length > 0 ? { ...a, carried: own } : a)),
    carried,
  };
}

/** The form without what was carried for the controls a change touched (`fields`, as touchedBy names them). */
export function withoutCarried(form: BuilderForm, fields: readonly string[]): BuilderForm {
  const touches = (edit: Carried): boolean => {
    const path = carriedPath(edit);
    const head = String(edit.path[0] ?? '');
    // A new format, stop rule, agent list or challenge list replaces everything imported under it.
    if (['format', 'stop', 'agents', 'challenges'].includes(head) && fields.includes(fieldOf(head))) return true;
    return fields.some((f) => f === fieldOf(path) || f === path || f.startsWith(`${path}.`));
  };
  const carried = form.carried.filter((edit) => !touches(edit));
  return carried.length === form.carried.length ? form : { ...form, carried };
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
