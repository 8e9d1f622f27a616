// Windowing maths for the virtual list: row offsets from heights, the rows a viewport shows, and whether the reader
// sits at the bottom. Pure, so the DOM component stays thin and the numbers are unit-tested.

/** Prefix sums: offsets[i] is the top of row i, offsets[n] the total height. */
export function rowOffsets(heights: ArrayLike<number>): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = (offsets[i] as number) + (heights[i] as number);
  return offsets;
}

/** The row under vertical position `y` (clamped to the list). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] as number) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface RowWindow {
  /** First rendered row. */
  start: number;
  /** One past the last rendered row. */
  end: number;
}

/** Rows intersecting [scrollTop, scrollTop + viewport), widened by `overscan` rows on each side. */
export function visibleWindow(offsets: Float64Array, scrollTop: number, viewport: number, overscan: number): RowWindow {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop);
  const first = rowAt(offsets, top);
  const last = rowAt(offsets, top + Math.max(0, viewport) - 0.5);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + 1 + overscan) };
}

/** Within `slack` pixels of the bottom counts as "at the bottom": following live stays on. */
export function isAtBottom(scrollTop: number, scrollHeight: number, clientHeight: number, slack = 24): boolean {
  return scrollHeight - scrollTop - clientHeight <= slack;
}
