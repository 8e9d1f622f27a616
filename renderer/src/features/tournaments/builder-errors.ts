// How the builder shows its problems (issue 16): only for the controls the user has touched (or after an import),
// each once, and naming agents by their manifest id instead of `agents[1]`.
import type { CatalogAgent } from '../../../../engine/contract/agent-catalog.js';
import {
  type BuilderForm,
  type FieldErrors,
  type FormAgent,
  fieldOf,
  mergeErrors,
  NUMBER_FIELDS,
  pathOf,
  specFromForm,
  validateLocally,
} from './builder-form.js';

/**
 * The schema's errors for a control the form already complains about are dropped: "pick at least one challenge"
 * and "challenges must list at least one challenge" are the same problem.
 */
export function preferFormErrors(formErrors: FieldErrors, schemaErrors: FieldErrors): FieldErrors {
  const covered = new Set(Object.keys(formErrors).map(fieldOf));
  return Object.fromEntries(Object.entries(schemaErrors).filter(([path]) => !covered.has(fieldOf(path))));
}

/**
 * The definition the form holds and every problem with it, by path: the form's own reading of its text fields, then
 * the engine's schema (the one `arena run` and POST /tournaments/validate use) on the definition itself. The page asks
 * the engine, and so enables Start, only when this is empty.
 */
export function formProblems(form: BuilderForm, table = 2): { spec: Record<string, unknown>; errors: FieldErrors } {
  const { spec, errors } = specFromForm(form);
  const seats = seatProblem(form, table);
  if (seats) errors.agents = [...(errors.agents ?? []), seats];
  return { spec, errors: mergeErrors(errors, preferFormErrors(errors, validateLocally(spec))) };
}

/**
 * A table not yet full (4 of Diplomacy's 7 seats chosen), said in the page while the seats are picked rather than
 * asked of the engine, which refuses it the same way. A gauntlet fills its tables differently: the engine judges it.
 */
function seatProblem(form: BuilderForm, table: number): string | null {
  const n = form.agents.length;
  if (n < 2 || n >= table || !['round-robin', 'swiss', 'knockout'].includes(form.format)) return null;
  return `${n} of ${table} seats chosen: each game seats ${table} players; choose ${table - n} more`;
}

/** The controls (error fields, as errorsByField groups them) a change of these form keys touches. */
export function touchedBy(patch: Partial<BuilderForm>): string[] {
  const out: string[] = [];
  for (const key of Object.keys(patch) as Array<keyof BuilderForm>) {
    if (
      key === 'name' ||
      key === 'challenges' ||
      key === 'agents' ||
      key === 'seed' ||
      key === 'options' ||
      key === 'format' ||
      key === 'stop'
    )
      out.push(key);
    else if (key === 'thirdPlace') out.push('format.third_place');
    else if (key === 'sprtModel') out.push('stop.model');
    else if (key === 'carried') continue;
    else out.push(pathOf(key as Parameters<typeof pathOf>[0]));
  }
  return out;
}

/** Every control: an imported definition or a Start attempt shows all problems at once. */
export const ALL_FIELDS = '*';

/** The errors to show: those of touched controls; root-level ones once anything was touched. */
export function visibleErrors(errors: Record<string, string[]>, touched: ReadonlySet<string>): Record<string, string[]> {
  if (touched.has(ALL_FIELDS)) return errors;
  return Object.fromEntries(
    Object.entries(errors).filter(
      ([field]) => touched.has(field) || (field === '(root)' && touched.size > 0) || touchedFamily(field, touched),
    ),
  );
}

/** Changing the format or stop rule touches their own numeric fields too (their inputs appear with the choice). */
function touchedFamily(field: string, touched: ReadonlySet<string>): boolean {
  const group = field.includes('.') ? field.slice(0, field.indexOf('.')) : '';
  return (group === 'format' || group === 'stop') && touched.has(group);
}

/** What each chosen agent is called in messages: its manifest id (or the definition's id), with its position when two share it. */
export function agentLabels(agents: readonly FormAgent[], catalog: readonly CatalogAgent[]): string[] {
  const names = agents.map((a) => {
    if (a.id) return a.id;
    const known = catalog.find((c) => c.manifest_path === a.manifest);
    if (known?.id) return known.id;
    const parts = a.manifest.split(/[\\/]/).filter(Boolean);
    return parts.length >= 2 ? (parts[parts.length - 2] as string) : a.manifest;
  });
  return names.map((n, i) => (names.filter((m) => m === n).length > 1 ? `${n} (#${i + 1})` : n));
}

/** `agents[1].manifest: …` → `agent 'honest' manifest: …`; the engine's `agents.1` spelling too. */
export function nameAgents(line: string, labels: readonly string[]): string {
  return line.replace(
    /agents(?:\[(\d+)\]|\.(\d+))(?:\.(\w+))?/g,
    (whole, a: string | undefined, b: string | undefined, leaf: string | undefined) => {
      const label = labels[Number(a ?? b)];
      if (label === undefined) return whole;
      return `agent '${label}'${leaf ? ` ${leaf}` : ''}`;
    },
  );
}

/** Whether the builder shows a control for `field` with this format and stop rule. */
function controlShown(field: string, form: Pick<BuilderForm, 'format' | 'stop'>): boolean {
  const number = NUMBER_FIELDS.find((f) => f.path === field);
  if (number) {
    const formatHasIt = number.formats === undefined || number.formats.some((k) => k === form.format);
    return formatHasIt && (!number.path.startsWith('stop.') || form.stop === 'sprt');
  }
  if (field === 'format.third_place') return form.format === 'knockout';
  if (field === 'stop.model') return form.stop === 'sprt';
  return true;
}

/** Problems of controls not on screen (an imported `rounds` under round-robin) are listed above Start, with their path. */
export function placeHidden(errors: Record<string, string[]>, form: Pick<BuilderForm, 'format' | 'stop'>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, lines] of Object.entries(errors)) {
    const shown = controlShown(field, form);
    const target = shown ? field : '(root)';
    const moved = shown ? lines : lines.map((line) => (line.startsWith(`${field}`) ? line : `${field}: ${line}`));
    out[target] = [...new Set([...(out[target] ?? []), ...moved])];
  }
  return out;
}
