// JSON the way the reference's Python writes it, byte for byte: floats in `repr` form (0.0, 1e-05), pretty output
// with 2-space indentation and raw UTF-8, and `json.dumps(sort_keys=True)` (ASCII-escaped) for the Markdown Args cell.

/** Marks a number that Python holds as a float, so integral values keep their `.0`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Python `repr(float)`: shortest round-trip digits, fixed notation for decimal exponents −4…15, else `1e-05` form. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument gives the shortest digits that round-trip, like Python's repr.
  const [mantissa, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  const sign = x < 0 ? '-' : '';
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
  }
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Python `f"{x:.{digits}f}"`: like toFixed, except that exact ties round to even (0.125 → 0.12). */
export function pyFixed(x: number, digits: number): string {
  const scaled = x * 10 ** digits;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5 && floor % 2 === 0) return (floor / 10 ** digits).toFixed(digits);
  return x.toFixed(digits);
}

/** A JSON number read from an agent: integers print as integers, everything else as a Python float. */
function numberText(n: number): string {
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  return pyFloatRepr(n);
}

export interface JsonFormat {
  /** 2 for the report files; undefined for compact lines (no spaces at all). */
  indent?: number;
  /** Python's ensure_ascii: escape every non-ASCII character as \uXXXX. */
  asciiOnly?: boolean;
  /** Python's default separators `", "` and `": "` on one line (what json.dumps writes without indent). */
  spaced?: boolean;
  sortKeys?: boolean;
}

export function pyJson(value: unknown, format: JsonFormat = {}): string {
  return write(value, format, '');
}

/** `json.dumps(value, sort_keys=True)`: the Args column of the Markdown report. */
export function pyJsonDumpsSorted(value: unknown): string {
  return pyJson(value, { asciiOnly: true, spaced: true, sortKeys: true });
}

function write(value: unknown, f: JsonFormat, indent: string): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return quote(value, f.asciiOnly === true);
  const inner = f.indent === undefined ? '' : indent + ' '.repeat(f.indent);
  const open = f.indent === undefined ? '' : `\n${inner}`;
  const close = f.indent === undefined ? '' : `\n${indent}`;
  const comma = f.indent !== undefined ? ',' : f.spaced ? ', ' : ',';
  const colon = f.indent !== undefined || f.spaced ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${open}${value.map((v) => write(v, f, inner)).join(`${comma}${open}`)}${close}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (f.sortKeys) entries.sort(([a], [b]) => compareCodePoints(a, b));
  if (entries.length === 0) return '{}';
  return `{${open}${entries.map(([k, v]) => `${quote(k, f.asciiOnly === true)}${colon}${write(v, f, inner)}`).join(`${comma}${open}`)}${close}}`;
}

function quote(s: string, asciiOnly: boolean): string {
  // JSON.stringify escapes exactly what Python escapes with ensure_ascii=False (quote, backslash, control characters).
  const json = JSON.stringify(s);
  if (!asciiOnly) return json;
  let out = '';
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    out += code > 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : json[i];
  }
  return out;
}

/** Python compares strings by code point; JavaScript's default sort compares UTF-16 units. */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = (x.value as string).codePointAt(0) as number;
    const cy = (y.value as string).codePointAt(0) as number;
    if (cx !== cy) return cx - cy;
  }
}
