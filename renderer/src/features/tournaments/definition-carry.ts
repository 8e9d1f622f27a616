// What an imported definition holds that the builder's controls cannot say: an unknown key, a value of the wrong type,
// a typo'd format. Kept as edits at their paths and laid over what the form builds, so the definition the page
// validates and starts is the imported one, and the engine's schema reports each problem on its own field.
import { formatIssuePath } from '../../../../engine/contract/schema-issues.js';

export type PathKey = string | number;

/** Set `value` at `path` (the whole thing when the path is empty), or remove the key there. */
export type Carried = { path: PathKey[]; value: unknown } | { path: PathKey[]; absent: true };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The edits that turn `built` into `wanted`, each at the deepest path where the two differ. */
export function differences(wanted: unknown, built: unknown, path: PathKey[] = []): Carried[] {
  if (isRecord(wanted) && isRecord(built)) {
    const out: Carried[] = [];
    for (const key of new Set([...Object.keys(built), ...Object.keys(wanted)])) {
      if (!Object.hasOwn(wanted, key)) out.push({ path: [...path, key], absent: true });
      else if (!Object.hasOwn(built, key)) out.push({ path: [...path, key], value: wanted[key] });
      else out.push(...differences(wanted[key], built[key], [...path, key]));
    }
    return out;
  }
  if (Array.isArray(wanted) && Array.isArray(built) && wanted.length === built.length) {
    return wanted.flatMap((item, i) => differences(item, built[i], [...path, i]));
  }
  return Object.is(wanted, built) ? [] : [{ path, value: wanted }];
}

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** `base` with every carried edit applied (a copy; `base` is left alone). */
export function applyCarried<T>(base: T, carried: readonly Carried[]): T {
  let out: unknown = cloneJson(base);
  for (const edit of carried) {
    if (edit.path.length === 0) {
      out = 'absent' in edit ? undefined : cloneJson(edit.value);
      continue;
    }
    let parent: unknown = out;
    for (const [i, key] of edit.path.slice(0, -1).entries()) {
      const container = parent as Record<PropertyKey, unknown>;
      if (!isRecord(container) && !Array.isArray(container)) break;
      // A key the form no longer builds (its control was cleared) gets a container again for the edit below it.
      if (container[key] === undefined && !('absent' in edit)) container[key] = typeof edit.path[i + 1] === 'number' ? [] : {};
      parent = container[key];
    }
    const leaf = edit.path[edit.path.length - 1] as PathKey;
    if (!isRecord(parent) && !Array.isArray(parent)) continue;
    const target = parent as Record<PropertyKey, unknown>;
    if ('absent' in edit) delete target[leaf];
    else target[leaf] = cloneJson(edit.value);
  }
  return out as T;
}

/** The path as the schema's issues spell it (`agents[1].manifest`, `format.kind`, `(root)`). */
export function carriedPath(edit: Carried): string {
  return formatIssuePath(edit.path);
}
