// The one table of the builder's numeric fields, and where each sits in a tournament definition.
import { type FORMAT_KINDS, TournamentSpecSchema } from '../../../../engine/core/tournament/spec.js';

export type FormatKind = (typeof FORMAT_KINDS)[number];

/** The form's numeric text fields. */
export type NumberKey =
  | 'cycles'
  | 'maxTables'
  | 'challengers'
  | 'rounds'
  | 'byePoints'
  | 'tieBreakPairs'
  | 'gamesPerPairing'
  | 'concurrency'
  | 'moveSeconds'
  | 'gameSeconds'
  | 'elo0'
  | 'elo1'
  | 'alpha'
  | 'beta'
  | 'maxIllegalActions'
  | 'maxRestarts'
  | 'confidence'
  | 'topK'
  | 'budgetGames'
  | 'budgetTokens'
  | 'budgetUsd';

export interface NumberField {
  key: NumberKey;
  /** Where the value sits in the definition. */
  path: string;
  /** Formats whose definition has the field; absent = every format. */
  formats?: readonly FormatKind[];
  /**
   * Empty text leaves the field out (the schema's default applies) instead of being reported as Required: true exactly
   * for the fields the schema does not require (a test checks this against the schema).
   */
  optional: boolean;
  /** Shown in the Advanced section; a value there that is not text rides along for the schema to report. */
  advanced: boolean;
}

/**
 * The one table of the builder's numeric fields: the form ↔ definition conversions, the inputs' error paths and the
 * Advanced section read it, and a test checks it against the definition schema (every numeric field, every format).
 */
export const NUMBER_FIELDS: readonly NumberField[] = [
  { key: 'cycles', path: 'format.cycles', formats: ['round-robin', 'gauntlet'], optional: true, advanced: false },
  { key: 'maxTables', path: 'format.max_tables', formats: ['round-robin', 'gauntlet'], optional: true, advanced: true },
  { key: 'challengers', path: 'format.challengers', formats: ['gauntlet'], optional: true, advanced: false },
  { key: 'rounds', path: 'format.rounds', formats: ['swiss'], optional: true, advanced: false },
  { key: 'byePoints', path: 'format.bye_points', formats: ['swiss'], optional: true, advanced: true },
  { key: 'tieBreakPairs', path: 'format.tie_break_pairs', formats: ['knockout'], optional: true, advanced: true },
  { key: 'confidence', path: 'format.confidence', formats: ['adaptive'], optional: true, advanced: false },
  { key: 'topK', path: 'format.focus.top_k', formats: ['adaptive'], optional: true, advanced: false },
  // The definition refuses a budget on other formats, so the form sends one with adaptive only.
  { key: 'budgetGames', path: 'budget.games', formats: ['adaptive'], optional: false, advanced: false },
  { key: 'budgetTokens', path: 'budget.tokens', formats: ['adaptive'], optional: true, advanced: false },
  { key: 'budgetUsd', path: 'budget.usd', formats: ['adaptive'], optional: true, advanced: false },
  { key: 'gamesPerPairing', path: 'games_per_pairing', optional: true, advanced: false },
  { key: 'concurrency', path: 'concurrency', optional: true, advanced: false },
  { key: 'moveSeconds', path: 'limits.move_seconds', optional: false, advanced: false },
  { key: 'gameSeconds', path: 'limits.game_seconds', optional: false, advanced: false },
  { key: 'elo0', path: 'stop.elo0', optional: false, advanced: false },
  { key: 'elo1', path: 'stop.elo1', optional: false, advanced: false },
  { key: 'alpha', path: 'stop.alpha', optional: true, advanced: false },
  { key: 'beta', path: 'stop.beta', optional: true, advanced: false },
  { key: 'maxIllegalActions', path: 'max_illegal_actions', optional: true, advanced: true },
  { key: 'maxRestarts', path: 'max_restarts', optional: true, advanced: true },
];

/** The definition path of a numeric field (where its errors are reported). */
export function pathOf(key: NumberKey): string {
  return (NUMBER_FIELDS.find((f) => f.key === key) as NumberField).path;
}

/** Fields of one part of the definition (`format`, `stop`, `limits`, or '' for the top level), in table order. */
export function fieldsIn(group: string, format?: string): NumberField[] {
  return NUMBER_FIELDS.filter((f) => {
    const parent = f.path.includes('.') ? f.path.slice(0, f.path.indexOf('.')) : '';
    return parent === group && (format === undefined || f.formats === undefined || f.formats.some((k) => k === format));
  });
}

/** The field's path inside its part of the definition (`confidence`, `focus.top_k`, `move_seconds`). */
export const innerPath = (f: NumberField): string[] => f.path.split('.').slice(f.path.includes('.') ? 1 : 0);

/** Definition paths the Advanced section shows besides its numeric fields. */
export const ADVANCED_PATHS: readonly string[] = [
  ...NUMBER_FIELDS.filter((f) => f.advanced).map((f) => f.path),
  'format.third_place',
  'stop.model',
  'options',
];

/** What the schema fills in for an empty optional field (its placeholder), read from the schema itself. */
export function schemaDefault(field: NumberField): number | undefined {
  const kind = field.formats?.[0] ?? 'round-robin';
  const parsed = TournamentSpecSchema.safeParse({
    name: 'defaults',
    challenge: 'c',
    format: { kind },
    seed: 1,
    agents: [{ manifest: 'a' }, { manifest: 'b' }],
    stop: { kind: 'sprt', elo0: 0, elo1: 1 },
    limits: { move_seconds: 1, game_seconds: 1 },
  });
  if (!parsed.success) return undefined;
  const value = field.path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], parsed.data);
  return typeof value === 'number' ? value : undefined;
}
