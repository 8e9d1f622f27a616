// The builder's form state and its two-way mapping to a tournament definition (the YAML/JSON users write).
// Pure, so the spec the UI submits and the YAML it exports are unit-tested without a browser. Numbers stay text
// while the user types; a field that is not a number is reported on that field rather than sent.
import YAML from 'yaml';
import type { ErrorIssue } from '../../../../engine/contract/errors.js';
import { formatIssuePath } from '../../../../engine/contract/schema-issues.js';
import { expectedGameCount } from '../../../../engine/core/tournament/from-spec.js';
import { FORMAT_KINDS, SprtModelSchema, TournamentSpecSchema } from '../../../../engine/core/tournament/spec.js';

export { FORMAT_KINDS };
export type FormatKind = (typeof FORMAT_KINDS)[number];
export const SPRT_MODELS = SprtModelSchema.options;
export type SprtModel = (typeof SPRT_MODELS)[number];

export interface FormAgent {
  /** As the definition names it: absolute for catalog agents, possibly relative for imported definitions. */
  manifest: string;
  /** The id standings show; empty = the manifest path (the engine's default). */
  id: string;
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
    options: '',
    extra: { top: {}, format: {}, stop: {} },
  };
}

/** A fresh seed for the "random" button: short enough to read out, large enough not to repeat. */
export function randomSeed(random: () => number = Math.random): string {
  return String(Math.floor(random() * 2 ** 31));
}

/** Problems keyed by the definition path they concern (`format.rounds`, `agents[1].manifest`, `(root)`). */
export type FieldErrors = Record<string, string[]>;

function addError(errors: FieldErrors, path: string, message: string): void {
  const list = errors[path] ?? [];
  if (!list.includes(message)) list.push(message);
  errors[path] = list;
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
  const format: Record<string, unknown> = { kind: form.format, ...form.extra.format };
  if (form.format === 'round-robin' || form.format === 'gauntlet') {
    format.cycles = numberField(form.cycles, 'format.cycles', errors);
    format.max_tables = numberField(form.maxTables, 'format.max_tables', errors, true);
  }
  if (form.format === 'gauntlet') format.challengers = numberField(form.challengers, 'format.challengers', errors);
  if (form.format === 'swiss') {
    format.rounds = numberField(form.rounds, 'format.rounds', errors, true);
    format.bye_points = numberField(form.byePoints, 'format.bye_points', errors, true);
  }
  if (form.format === 'knockout') {
    format.tie_break_pairs = numberField(form.tieBreakPairs, 'format.tie_break_pairs', errors, true);
    if (form.thirdPlace) format.third_place = true;
  }
  const stop: Record<string, unknown> =
    form.stop === 'fixed'
      ? { kind: 'fixed' }
      : {
          kind: 'sprt',
          elo0: numberField(form.elo0, 'stop.elo0', errors),
          elo1: numberField(form.elo1, 'stop.elo1', errors),
          alpha: numberField(form.alpha, 'stop.alpha', errors),
          beta: numberField(form.beta, 'stop.beta', errors),
          ...form.extra.stop,
          ...(form.sprtModel === 'logistic' ? {} : { model: form.sprtModel }),
        };
  const challenges = form.challenges.length === 1 ? { challenge: form.challenges[0] } : { challenges: [...form.challenges] };
  const spec: Record<string, unknown> = {
    name: form.name.trim(),
    ...challenges,
    format: dropUndefined(format),
    games_per_pairing: numberField(form.gamesPerPairing, 'games_per_pairing', errors),
    concurrency: numberField(form.concurrency, 'concurrency', errors),
    seed: seedValue(form.seed),
    agents: form.agents.map((a) => (a.id.trim() === '' ? { manifest: a.manifest } : { manifest: a.manifest, id: a.id.trim() })),
    stop: dropUndefined(stop),
    limits: dropUndefined({
      move_seconds: numberField(form.moveSeconds, 'limits.move_seconds', errors),
      game_seconds: numberField(form.gameSeconds, 'limits.game_seconds', errors),
    }),
    max_illegal_actions: numberField(form.maxIllegalActions, 'max_illegal_actions', errors, true),
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

const TOP_FIELDS = [
  'name',
  'challenge',
  'challenges',
  'format',
  'games_per_pairing',
  'concurrency',
  'seed',
  'agents',
  'stop',
  'limits',
] as const;

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
    ? raw.agents.filter(isRecord).map((a) => ({ manifest: text(a.manifest, ''), id: text(a.id, '') }))
    : [];
  return {
    name: text(raw.name, ''),
    challenges,
    agents,
    format: kind,
    cycles: text(format.cycles, blank.cycles),
    challengers: text(format.challengers, blank.challengers),
    rounds: text(format.rounds, ''),
    gamesPerPairing: text(raw.games_per_pairing, blank.gamesPerPairing),
    concurrency: text(raw.concurrency, blank.concurrency),
    seed: text(raw.seed, blank.seed),
    moveSeconds: text(limits.move_seconds, ''),
    gameSeconds: text(limits.game_seconds, ''),
    stop: stop.kind === 'sprt' ? 'sprt' : 'fixed',
    elo0: text(stop.elo0, blank.elo0),
    elo1: text(stop.elo1, blank.elo1),
    alpha: text(stop.alpha, blank.alpha),
    beta: text(stop.beta, blank.beta),
    maxTables: text(format.max_tables, ''),
    byePoints: text(format.bye_points, ''),
    tieBreakPairs: text(format.tie_break_pairs, ''),
    thirdPlace: format.third_place === true,
    sprtModel: model ?? blank.sprtModel,
    maxIllegalActions: text(raw.max_illegal_actions, ''),
    options: optionsText(raw.options),
    extra: {
      top: split(rest(raw, TOP_FIELDS), { max_illegal_actions: isText, options: () => true }),
      format: split(rest(format, ['kind', 'cycles', 'challengers', 'rounds']), {
        max_tables: isText,
        bye_points: isText,
        tie_break_pairs: isText,
        third_place: (v) => typeof v === 'boolean',
      }),
      stop: stop.kind === 'sprt' ? split(rest(stop, ['kind', 'elo0', 'elo1', 'alpha', 'beta']), { model: (v) => v === model }) : {},
    },
  };
}

/** The engine's own schema, run in the page: every problem keyed by its path. */
export function validateLocally(spec: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  const result = TournamentSpecSchema.safeParse(spec, {
    error: (issue) => (issue.input === undefined && issue.code === 'invalid_type' ? 'Required' : undefined),
  });
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) addError(errors, formatIssuePath([...issue.path, key]), 'unknown field');
      continue;
    }
    addError(errors, formatIssuePath(issue.path), issue.message);
  }
  return errors;
}

/** The engine's per-field problems (the `issues` of its 400) keyed by path; a problem with the whole definition goes to (root). */
export function remoteErrors(issues: readonly ErrorIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) addError(errors, issue.path === '' ? '(root)' : issue.path, issue.message);
  return errors;
}

export function mergeErrors(...sets: FieldErrors[]): FieldErrors {
  const merged: FieldErrors = {};
  for (const set of sets) for (const [path, messages] of Object.entries(set)) for (const m of messages) addError(merged, path, m);
  return merged;
}

/**
 * Which control shows an error: `challenge` and `challenges[1]` belong to the challenge picker, `agents[2].id` to
 * the agent list, `limits.move_seconds` to its own input, `options` (the challenges' own complaints included) to the
 * options text area; anything else is shown above the Start button.
 */
export function fieldOf(path: string): string {
  if (path === 'challenge' || path.startsWith('challenges')) return 'challenges';
  if (path.startsWith('agents')) return 'agents';
  const dotted = path.replace(/\[\d+\]/g, '');
  const known = [
    'name',
    'format.cycles',
    'format.challengers',
    'format.rounds',
    'format.max_tables',
    'format.bye_points',
    'format.tie_break_pairs',
    'format.third_place',
    'format',
    'games_per_pairing',
    'concurrency',
    'seed',
    'limits.move_seconds',
    'limits.game_seconds',
    'stop.elo0',
    'stop.elo1',
    'stop.alpha',
    'stop.beta',
    'stop.model',
    'stop',
    'max_illegal_actions',
    'options',
  ];
  return known.find((k) => dotted === k) ?? known.find((k) => dotted.startsWith(`${k}.`)) ?? '(root)';
}

/** Errors grouped by the control that shows them, each message prefixed by its sub-path when that adds something. */
export function errorsByField(errors: FieldErrors): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(errors)) {
    const field = fieldOf(path);
    const list = out[field] ?? [];
    for (const message of messages) {
      const line = path === field || field === 'challenges' ? message : `${path}: ${message}`;
      if (!list.includes(line)) list.push(line);
    }
    out[field] = list;
  }
  return out;
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

/** Manifest paths compared across separators and `.`/`..` segments (imported definitions may be relative). */
export function resolveManifest(baseDir: string, manifest: string): string {
  const absolute = /^([A-Za-z]:[\\/]|[\\/])/.test(manifest);
  const joined = absolute ? manifest : `${baseDir.replace(/[\\/]+$/, '')}/${manifest}`;
  const parts: string[] = [];
  for (const part of joined.replace(/\\/g, '/').split('/')) {
    if (part === '.' || (part === '' && parts.length > 0)) continue;
    if (part === '..' && parts.length > 1) parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/** A spec id for a newly ticked agent: the manifest's id, made unique among the agents already picked. */
export function uniqueAgentId(wanted: string, taken: readonly string[]): string {
  const base = wanted.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'agent';
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}

/** A folder shown relative to the base folder when it lies inside it (shorter, and the same on every machine). */
export function displayPath(baseDir: string, dir: string): string {
  const base = resolveManifest('', baseDir).replace(/\/+$/, '');
  const target = resolveManifest('', dir);
  return target.startsWith(`${base}/`) ? target.slice(base.length + 1) : dir;
}
