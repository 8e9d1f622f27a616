// Display formatting shared by the features. Pure: `now` and the locale are parameters.

export function formatDateTime(ms: number, locale?: string): string {
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatClock(ms: number, locale?: string): string {
  return new Date(ms).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function relativeTime(ms: number, now: number): string {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 10) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** Scores and rates: at most three decimals, no trailing zeros, a real minus sign. */
export function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '–';
  const fixed = Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
  return fixed.replace(/^-/, '−');
}

export function shortId(id: string, length = 8): string {
  return id.length <= length ? id : `${id.slice(0, length)}…`;
}

/** `win-rate:utility` → `Win Rate: Utility` for metrics without a descriptor. */
export function humanizeKey(key: string): string {
  return key
    .split(':')
    .map((part) =>
      part
        .split(/[-_]/)
        .filter(Boolean)
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join(' '),
    )
    .join(': ');
}

/** Pretty JSON that keeps arrays of plain values on one line (sets of numbers stay readable). */
export function formatJson(value: unknown, indent = 2): string {
  const pad = (depth: number) => ' '.repeat(depth * indent);
  const render = (v: unknown, depth: number): string => {
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      if (v.every((item) => item === null || typeof item !== 'object'))
        return `[${v.map((item) => JSON.stringify(item) ?? 'null').join(', ')}]`;
      return `[\n${v.map((item) => pad(depth + 1) + render(item, depth + 1)).join(',\n')}\n${pad(depth)}]`;
    }
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>).filter(([, item]) => item !== undefined);
      if (entries.length === 0) return '{}';
      return `{\n${entries.map(([key, item]) => `${pad(depth + 1)}${JSON.stringify(key)}: ${render(item, depth + 1)}`).join(',\n')}\n${pad(depth)}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return render(value, 0);
}

/** US dollars of model spend: two significant digits below a cent, so small local-ish costs do not read as $0.00. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '–';
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}
