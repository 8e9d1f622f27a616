// The one scrubber for secret values (granted API keys, the admin token, the installation's keys): every text the
// harness stores or shows passes through it. Scrub first, cap afterwards: a cap applied first can leave a key's prefix
// that no exact match finds any more. Text already cut by someone else is scrubbed with `cut`, which also removes a
// secret's fragment at the cut edge. Each value is also found in its common encodings (hex in either case, base64
// standard and URL-safe at any alignment, URL-encoding), and a seat key is found by its shape, known or not.

/** Shorter values are not scrubbed: they would blank ordinary words (and a 3-character secret protects nothing). */
export const MIN_SECRET_LENGTH = 4;

export interface NamedSecret {
  name: string;
  value: string;
}

export interface Cut {
  /** The text is the tail of something longer: it may begin inside a secret. */
  start?: boolean;
  /** The text is the head of something longer: it may end inside a secret. */
  end?: boolean;
}

export interface Scrubber {
  (text: string, cut?: Cut): string;
  /** Scrubs then caps at `max` characters (with an ellipsis), never the other way round. */
  capped(text: string, max: number): string;
  /** A deep copy of a JSON-like value with every string scrubbed (keys included); other values are kept. */
  deep<T>(value: T): T;
  /** How many distinct values it scrubs. */
  readonly size: number;
}

const label = (name: string) => (name === '' ? '<secret>' : `<secret:${name}>`);

/**
 * A seat key (the launch contract's ARENA_SESSION_KEY, `a_<slot>.<expiry>.<hmac>`): scrubbed by its shape, so it
 * stays out of what is stored also after its session ended and whoever issued it has forgotten it.
 */
const SEAT_KEY = /a_\d{1,6}\.\d{1,12}\.[a-f0-9]{64}/g;
const SEAT_KEY_TAG = '<secret:seat-key>';

/** UTF-8 bytes of a string (engine/core runs without Node or DOM globals). */
function utf8Bytes(text: string): number[] {
  const out: number[] = [];
  for (const c of text) {
    const code = c.codePointAt(0) as number;
    if (code < 0x80) out.push(code);
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 without padding. */
function base64(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += BASE64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/**
 * The forms a value takes when an agent encodes it: hex (lower, upper), URL-encoding, and base64 (standard and
 * URL-safe) at each of the three byte alignments it can have inside a longer encoded text, keeping only the
 * characters that depend on the value alone.
 */
export function encodings(value: string): string[] {
  const bytes = utf8Bytes(value);
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  const out = [hex, hex.toUpperCase(), encodeURIComponent(value), encodeURIComponent(value).replaceAll('%20', '+')];
  for (let k = 0; k < 3; k++) {
    const b64 = base64([...new Array<number>(k).fill(0), ...bytes]);
    const core = b64.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    out.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...new Set(out)].filter((form) => form !== value);
}

/** Names the replacement (`<secret:NAME>`); plain strings are replaced by `<secret>`. */
export function createScrubber(secrets: Iterable<NamedSecret | string>): Scrubber {
  const byValue = new Map<string, string>();
  for (const entry of secrets) {
    const { name, value } = typeof entry === 'string' ? { name: '', value: entry } : entry;
    if (value.length < MIN_SECRET_LENGTH || byValue.has(value)) continue;
    byValue.set(value, label(name));
    for (const form of encodings(value)) if (form.length >= MIN_SECRET_LENGTH && !byValue.has(form)) byValue.set(form, label(name));
  }
  // Longest first, so a secret that contains another is replaced whole; one pass over the text for all of them.
  const list = [...byValue].sort((a, b) => b[0].length - a[0].length);
  const pattern = list.length === 0 ? null : new RegExp(list.map(([value]) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');

  const scrub = ((text: string, cut: Cut = {}): string => {
    if (text.length === 0) return text;
    let out = text.includes('a_') ? text.replace(SEAT_KEY, SEAT_KEY_TAG) : text;
    if (pattern === null) return out;
    out = out.replace(pattern, (found) => byValue.get(found) as string);
    if (cut.start) out = trimEdge(out, list, 'start');
    if (cut.end) out = trimEdge(out, list, 'end');
    return out;
  }) as Scrubber;
  scrub.capped = (text, max) => {
    const clean = scrub(text);
    return clean.length > max ? `${clean.slice(0, max)}…` : clean;
  };
  scrub.deep = <T>(value: T): T => deepScrub(value, scrub) as T;
  Object.defineProperty(scrub, 'size', { value: list.length });
  return scrub;
}

/** Replaces a fragment of a secret at a cut edge: the secret's end at the start of a tail, its start at a head's end. */
function trimEdge(text: string, list: readonly (readonly [string, string])[], edge: 'start' | 'end'): string {
  for (const [value, tag] of list) {
    for (let k = Math.min(value.length - 1, text.length); k >= MIN_SECRET_LENGTH; k--) {
      if (edge === 'start' && text.startsWith(value.slice(value.length - k))) return `${tag}${text.slice(k)}`;
      if (edge === 'end' && text.endsWith(value.slice(0, k))) return `${text.slice(0, text.length - k)}${tag}`;
    }
  }
  return text;
}

function deepScrub(value: unknown, scrub: Scrubber): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => deepScrub(item, scrub));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrub(key)] = deepScrub(item, scrub);
    return out;
  }
  return value;
}
