// Geometry for the live view's charts: linear scales, readable tick values, a shared axis for rating intervals,
// down-sampling of long series and the heat-map colour ramp. Pure functions, unit-tested.

export type Scale = (value: number) => number;

/** Maps [d0, d1] onto [r0, r1]; a zero-width domain maps everything to the middle of the range. */
export function linearScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Scale {
  if (d1 === d0) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (value) => r0 + (value - d0) * k;
}

/** A step of 1, 2 or 5 × 10^k giving about `count` intervals over [min, max]. */
export function niceStep(min: number, max: number, count: number): number {
  const span = Math.abs(max - min);
  if (span === 0 || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  const nice = residual > 5 ? 10 : residual > 2 ? 5 : residual > 1 ? 2 : 1;
  return nice * magnitude;
}

/** The domain widened outward to whole steps, and the tick values inside it. */
export function niceDomain(min: number, max: number, count = 5): { domain: [number, number]; ticks: number[] } {
  let lo = min;
  let hi = max;
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const step = niceStep(lo, hi, count);
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  // Rounded to the step's precision, so 0.1 + 0.2 style float noise never reaches a label.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  for (let v = start; v <= end + step / 2; v += step) ticks.push(Number(v.toFixed(decimals)));
  return { domain: [start, end], ticks };
}

export interface IntervalRow {
  rating: number | null;
  rating_lower: number | null;
  rating_upper: number | null;
}

/** One axis for every agent's interval bar, so bars compare by position; null when no agent has a rating yet. */
export function intervalAxis(rows: readonly IntervalRow[], count = 4): { domain: [number, number]; ticks: number[] } | null {
  const values = rows
    .flatMap((r) => [r.rating_lower, r.rating, r.rating_upper])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return null;
  return niceDomain(Math.min(...values), Math.max(...values), count);
}

/**
 * At most `max` points, always keeping the first and last, spread evenly by position — enough for a line chart
 * a few hundred pixels wide; a rating history can hold thousands of games.
 */
export function samplePoints<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  if (max <= 1) return points.length > 0 ? [points[points.length - 1] as T] : [];
  const out: T[] = [];
  const step = (points.length - 1) / (max - 1);
  let previous = -1;
  for (let i = 0; i < max; i++) {
    const index = Math.round(i * step);
    if (index !== previous) out.push(points[index] as T);
    previous = index;
  }
  return out;
}

/** SVG path through the points ("M x y L x y …"), coordinates rounded to a tenth of a pixel. */
export function linePath(points: readonly (readonly [number, number])[]): string {
  return points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${Math.round(x * 10) / 10} ${Math.round(y * 10) / 10}`).join(' ');
}

/** LLR position on the gauge from 0 (the H0 bound) to 1 (the H1 bound), clamped. */
export function gaugePosition(llr: number, lower: number, upper: number): number {
  if (!(upper > lower)) return 0.5;
  return Math.min(1, Math.max(0, (llr - lower) / (upper - lower)));
}

/** Share of the high colour in a heat-map cell: 0 % score → 0, 50 % → 50, 100 % → 100 (whole percent). */
export function heatMix(scorePct: number): number {
  return Math.round(Math.min(100, Math.max(0, scorePct)));
}
