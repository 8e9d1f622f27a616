// The one scrubber for secret values (granted API keys, the admin token, the installation's keys): every text the
// harness stores or shows passes through it. Scrub first, cap afterwards: a cap applied first can leave a key's prefix
// that no exact match finds any more. Text already cut by someone else is scrubbed with `cut`, which also removes a
// secret's fragment at the cut edge.

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

/** Names the replacement (`<secret:NAME>`); plain strings are replaced by `<secret>`. */
export function createScrubber(secrets: Iterable<NamedSecret | string>): Scrubber {
  const byValue = new Map<string, string>();
  for (const entry of secrets) {
    const { name, value } = typeof entry === 'string' ? { name: '', value: entry } : entry;
    if (value.length >= MIN_SECRET_LENGTH && !byValue.has(value)) byValue.set(value, label(name));
  }
  // Longest first, so a secret that contains another is replaced whole.
  const list = [...byValue].sort((a, b) => b[0].length - a[0].length);

  const scrub = ((text: string, cut: Cut = {}): string => {
    if (list.length === 0 || text.length === 0) return text;
    let out = text;
    for (const [value, tag] of list) if (out.includes(value)) out = out.split(value).join(tag);
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
