// The builder's problems keyed by definition path: found in the page (the engine's own schema), sent back by the
// engine (`issues`), and grouped by the control that shows them.
import type { ErrorIssue } from '../../../../engine/contract/errors.js';
import { parseTournamentSpec } from '../../../../engine/core/tournament/spec.js';
import { NUMBER_FIELDS } from './number-fields.js';

/** Problems keyed by the definition path they concern (`format.rounds`, `agents[1].manifest`, `(root)`). */
export type FieldErrors = Record<string, string[]>;

export function addError(errors: FieldErrors, path: string, message: string): void {
  const list = errors[path] ?? [];
  if (!list.includes(message)) list.push(message);
  errors[path] = list;
}

/** The engine's own parser (the one `arena run` and POST /tournaments/validate use), run in the page: every problem keyed by its path. */
export function validateLocally(spec: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  const result = parseTournamentSpec(spec);
  if (!result.ok) for (const issue of result.issues) addError(errors, issue.path === '' ? '(root)' : issue.path, issue.message);
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
  // Deeper paths first, so `format.rounds.x` lands on format.rounds rather than format.
  const known = ['name', ...NUMBER_FIELDS.map((f) => f.path), 'format.third_place', 'stop.model', 'format', 'seed', 'stop', 'options'].sort(
    (a, b) => b.split('.').length - a.split('.').length,
  );
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
