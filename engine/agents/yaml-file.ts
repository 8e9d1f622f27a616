// Reads a YAML file that must hold a mapping, and the error of a definition file that cannot be used.
import YAML from 'yaml';
import { DefinitionReadError, readDefinitionText } from '../runtime/bounded-read.js';

/**
 * YAML 1.2 core schema. The reference uses PyYAML (YAML 1.1), which also reads `yes`/`no`/`on`/`off` as booleans; those
 * could never validate as the string fields they would land in, so the 1.2 reading accepts every file the reference
 * accepts (the `yaml` package's own 1.1 mode would not: it also turns `y`/`n` into booleans).
 */
export function readYamlMapping(
  file: string,
  options: { kind?: string; knownKeys?: readonly string[] } = {},
): { value: Record<string, unknown> } | { problem: string } {
  let text: string;
  try {
    text = readDefinitionText(file);
  } catch (error) {
    if (error instanceof DefinitionReadError) return { problem: error.message };
    throw error;
  }
  const parsed = parseYamlText(text);
  if ('problem' in parsed) return parsed;
  const { value } = parsed;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'must contain a YAML mapping' };
  // A mapping with none of the expected fields is some other file (a symlink to a credentials file, say): say so
  // without echoing any of its keys or values.
  const known = options.knownKeys;
  if (known && known.length > 0 && !Object.keys(value).some((key) => known.includes(key))) {
    return { problem: `is not ${options.kind ?? 'the expected file'}: none of its top-level keys is a known field` };
  }
  return { value: value as Record<string, unknown> };
}

/**
 * Parses YAML (JSON included) in time linear in its size: the library's own duplicate-key check compares every key
 * with every other (a 400 kB mapping took over a minute), so duplicates are found here with a set instead. Alias
 * expansion keeps the library's cap (alias bombs fail). Problems say where, never what the text says.
 */
export function parseYamlText(text: string): { value: unknown } | { problem: string } {
  // Parsing costs a few microseconds per node even in linear time, so a document with many small nodes is refused by
  // a cheap count of the characters that start one, before any parsing (shipped definitions have a few hundred).
  if (structureMarks(text) > MAX_STRUCTURE_MARKS) {
    return { problem: `invalid YAML: too complex for a definition file (more than ${MAX_STRUCTURE_MARKS} lines and separators)` };
  }
  const lineCounter = new YAML.LineCounter();
  const doc = YAML.parseDocument(text, { uniqueKeys: false, lineCounter });
  const first = doc.errors[0];
  if (first) return { problem: `invalid YAML${where(first)}` };
  let duplicate: number | null = null;
  YAML.visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const item of map.items) {
        const key = YAML.isScalar(item.key) ? item.key.value : item.key;
        if (seen.has(key)) {
          duplicate = YAML.isNode(item.key) ? (item.key.range?.[0] ?? 0) : 0;
          return YAML.visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  if (duplicate !== null) {
    const pos = lineCounter.linePos(duplicate);
    return { problem: `invalid YAML at line ${pos.line}, column ${pos.col} (DUPLICATE_KEY)` };
  }
  try {
    return { value: doc.toJS() };
  } catch (error) {
    // Excessive alias expansion (a "billion laughs" document) and the like.
    return {
      problem: `invalid YAML: ${error instanceof ReferenceError ? 'an alias that is unknown or expands too often' : 'cannot be read as data'}`,
    };
  }
}

/** Lines, mapping colons, flow separators and brackets: an upper bound on a document's node count. */
export const MAX_STRUCTURE_MARKS = 10_000;

function structureMarks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // \n , : [ { -
    if (c === 10 || c === 44 || c === 58 || c === 91 || c === 123 || c === 45) n++;
  }
  return n;
}

/** Where a YAML error is, never what the text there says (the file may not be what it claims to be). */
export function where(error: unknown): string {
  const pos = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
  const code = (error as { code?: string }).code;
  return `${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}${code ? ` (${code})` : ''}`;
}

/** A definition file (agent manifest, scenario, trial) that cannot be used: every problem, one line each. */
export class DefinitionFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join('\n  ')}`}`);
  }
}
