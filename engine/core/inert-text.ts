// Text an agent wrote (its stderr, its messages, its manifest's name) ends up in the database and in files people `cat`
// or open in a spreadsheet. Made inert here, once: control characters (ESC sequences, BEL, CR overwrites, C1) and the
// bidi overrides that reorder what a reader sees are written as visible escapes; CSV cells cannot start a formula.

/** C0 controls but tab and line feed, DEL, C1, and the bidi embeddings, overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** In JSON text JSON.stringify already escapes C0; these it leaves raw (valid JSON, live on a terminal). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, width: number) => (c.codePointAt(0) as number).toString(16).padStart(width, '0');

/** `\x1b`, `\x07`, `\r`, `\u202e`: what was there stays readable, nothing acts on a terminal or reorders text. */
export function inertText(text: string): string {
  return text.replace(UNSAFE, (c) => (c === '\r' ? '\\r' : c.charCodeAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/** The same for serialized JSON: the characters become `\uXXXX` escapes, so the value parses back unchanged. */
export function inertJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
}

/** A spreadsheet reads a cell starting with one of these as a formula (`=HYPERLINK(…)`, `+cmd|…`, `@SUM(…)`). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One CSV field: inert text; a text (not a number) starting like a formula gets a leading `'`, which spreadsheets
 * show as text and hide; quoted when it holds a comma, a quote or a line break, quotes doubled (RFC 4180).
 */
export function csvText(value: string): string {
  let text = inertText(value);
  if (FORMULA_START.test(value) && !NUMBER.test(value)) text = `'${text}`;
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
