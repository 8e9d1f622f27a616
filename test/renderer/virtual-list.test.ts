// Renders the real VirtualList (server-side, so no DOM library is needed) with 10,000 rows and checks that only a
// window of them is in the markup, with the spacer as tall as every row together.
import { createElement, type FunctionComponent, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

interface Item {
  id: number;
  text: string;
}
interface Props {
  items: Item[];
  itemKey(item: Item): string;
  renderItem(item: Item): ReactNode;
  rowHeight: number;
  measure: boolean;
  overscan: number;
  height: number;
  label: string;
  initialViewport: number;
}
// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const VIRTUAL_LIST = '../../renderer/src/ui/virtual-list.js';
const { VirtualList } = (await import(VIRTUAL_LIST)) as { VirtualList: FunctionComponent<Props> };

const items: Item[] = Array.from({ length: 10_000 }, (_, i) => ({ id: i, text: `message ${i}` }));

function render(rowHeight: number, initialViewport: number, measure: boolean): string {
  return renderToStaticMarkup(
    createElement(VirtualList, {
      items,
      itemKey: (item) => String(item.id),
      renderItem: (item) => createElement('span', null, item.text),
      rowHeight,
      measure,
      overscan: 4,
      height: 600,
      label: 'Messages',
      initialViewport,
    }),
  );
}

describe('VirtualList with 10,000 entries', () => {
  it('puts only a window of rows in the DOM', () => {
    const html = render(30, 600, false);
    const rows = html.match(/<li/g) ?? [];
    // 600 / 30 = 20 visible rows plus 4 overscan below (none above at the top).
    expect(rows.length).toBe(24);
    expect(html).toContain('message 0<');
    expect(html).toContain('message 23<');
    expect(html).not.toContain('message 24<');
    expect(html).not.toContain('message 9999<');
    expect(html).toContain('height:300000px');
    expect(html).toContain('aria-setsize="10000"');
    expect(html).toContain('aria-label="Messages"');
  });

  it('keeps the window small with measured rows before they are measured', () => {
    const html = render(64, 700, true);
    const rows = html.match(/<li/g) ?? [];
    expect(rows.length).toBeLessThanOrEqual(20);
    expect(rows.length).toBeGreaterThan(5);
  });
});
