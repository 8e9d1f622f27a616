import { describe, expect, it } from 'vitest';
import { isAtBottom, rowAt, rowOffsets, visibleWindow } from '../../renderer/src/ui/virtual-window.js';

describe('virtual list windowing', () => {
  it('turns heights into row tops and a total', () => {
    expect([...rowOffsets([10, 20, 30])]).toEqual([0, 10, 30, 60]);
    expect([...rowOffsets([])]).toEqual([0]);
  });

  it('finds the row under a position, clamped to the list', () => {
    const offsets = rowOffsets([10, 20, 30]);
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 9.9)).toBe(0);
    expect(rowAt(offsets, 10)).toBe(1);
    expect(rowAt(offsets, 59)).toBe(2);
    expect(rowAt(offsets, 500)).toBe(2);
    expect(rowAt(offsets, -5)).toBe(0);
  });

  it('renders only the rows a viewport shows plus overscan, out of 10,000', () => {
    const offsets = rowOffsets(new Array(10_000).fill(40));
    // 600 px of 40 px rows at the very top: rows 0–14, plus 5 below.
    expect(visibleWindow(offsets, 0, 600, 5)).toEqual({ start: 0, end: 20 });
    // Scrolled to row 5000 exactly.
    expect(visibleWindow(offsets, 200_000, 600, 5)).toEqual({ start: 4995, end: 5020 });
    // At the bottom: the window ends at the last row.
    const bottom = visibleWindow(offsets, 400_000 - 600, 600, 5);
    expect(bottom.end).toBe(10_000);
    expect(bottom.end - bottom.start).toBeLessThanOrEqual(15 + 10);
  });

  it('handles mixed measured heights: a partly visible row counts', () => {
    const offsets = rowOffsets([100, 10, 10, 300, 10]);
    expect(visibleWindow(offsets, 105, 20, 0)).toEqual({ start: 1, end: 4 });
    expect(visibleWindow(offsets, 105, 10, 0)).toEqual({ start: 1, end: 3 });
    expect(visibleWindow(offsets, 125, 1, 0)).toEqual({ start: 3, end: 4 });
  });

  it('gives an empty window for an empty list', () => {
    expect(visibleWindow(rowOffsets([]), 0, 600, 5)).toEqual({ start: 0, end: 0 });
  });

  it('counts the last few pixels as the bottom, so following survives rounding', () => {
    expect(isAtBottom(380, 1000, 600)).toBe(true);
    expect(isAtBottom(390, 1000, 600)).toBe(true);
    expect(isAtBottom(300, 1000, 600)).toBe(false);
  });
});
