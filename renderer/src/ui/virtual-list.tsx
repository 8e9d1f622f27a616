// A windowed list: only the rows in (or near) the viewport are in the DOM, so transcripts of 10,000 messages scroll
// smoothly. Rows have a fixed height or are measured as they render; "follow" keeps the list pinned to the newest row
// until the reader scrolls up, leaves the reader's place alone while new rows arrive, and offers "Jump to latest".
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type WheelEvent,
} from 'react';
import './virtual-list.css';
import { isAtBottom, rowOffsets, visibleWindow } from './virtual-window.js';

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T, index: number) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** Every row's height when `measure` is off; the first guess for rows not yet measured otherwise. */
  rowHeight: number;
  measure?: boolean;
  /** Rows rendered beyond each edge of the viewport, so fast scrolling does not show blank space. */
  overscan?: number;
  /** CSS height of the scrolling box. */
  height: number | string;
  /** Accessible name of the list. */
  label: string;
  /** Stay at the newest row while the reader is there. */
  follow?: boolean;
  /** Viewport height assumed before the box is measured (first paint, server rendering). */
  initialViewport?: number;
  className?: string;
  testId?: string;
  empty?: ReactNode;
  /** Brings this row into view whenever it changes (a selection made elsewhere, e.g. by a slider). */
  reveal?: number | null;
}

const KEY_STEP_PX = 40;

/** The box's own height, kept current across window and panel resizes. */
function useBoxHeight(box: RefObject<HTMLElement | null>, initialViewport: number): number {
  const [viewport, setViewport] = useState(initialViewport);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setViewport(el.clientHeight || initialViewport);
    const observer = new ResizeObserver(() => setViewport(el.clientHeight || initialViewport));
    observer.observe(el);
    return () => observer.disconnect();
  }, [box, initialViewport]);
  return viewport;
}

/**
 * The measured height of each rendered row by key, with a version that changes when any did. One observer for the
 * rendered rows; a burst of measurements becomes one re-render.
 */
function useRowHeights(measure: boolean) {
  const measured = useRef(new Map<string, number>());
  const [measureVersion, setMeasureVersion] = useState(0);
  const rowObserver = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    if (!measure) return;
    let frame = 0;
    const observer = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const key = (entry.target as HTMLElement).dataset.rowKey;
        const size = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
        if (key === undefined || size <= 0) continue;
        if (measured.current.get(key) !== size) {
          measured.current.set(key, size);
          changed = true;
        }
      }
      if (changed && frame === 0)
        frame = requestAnimationFrame(() => {
          frame = 0;
          setMeasureVersion((v) => v + 1);
        });
    });
    rowObserver.current = observer;
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      rowObserver.current = null;
    };
  }, [measure]);
  const observeRow = useCallback((el: HTMLElement | null) => {
    if (!el) return;
    rowObserver.current?.observe(el);
    return () => rowObserver.current?.unobserve(el);
  }, []);
  return { measured, measureVersion, observeRow };
}

/** Where a scrolling key moves the box (undefined: not a scrolling key). */
function keyScrollTarget(el: HTMLElement, key: string): number | undefined {
  const page = Math.max(KEY_STEP_PX, el.clientHeight * 0.9);
  const moves: Record<string, number> = {
    ArrowDown: el.scrollTop + KEY_STEP_PX,
    ArrowUp: el.scrollTop - KEY_STEP_PX,
    PageDown: el.scrollTop + page,
    PageUp: el.scrollTop - page,
    Home: 0,
    End: el.scrollHeight,
  };
  return moves[key];
}

/** The rendered rows, `start` to `end`, each labelled with its place in the whole list. */
function windowRows<T>(
  items: readonly T[],
  keys: readonly string[],
  start: number,
  end: number,
  renderItem: (item: T, index: number) => ReactNode,
  row: { measure: boolean; rowHeight: number; observeRow: (el: HTMLElement | null) => (() => void) | undefined },
): ReactNode[] {
  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const item = items[i] as T;
    const key = keys[i] as string;
    rows.push(
      <li
        key={key}
        aria-posinset={i + 1}
        aria-setsize={items.length}
        className="vlist-row"
        data-row-key={key}
        data-row-index={i}
        ref={row.measure ? row.observeRow : undefined}
        style={row.measure ? undefined : { height: row.rowHeight }}
      >
        {renderItem(item, i)}
      </li>,
    );
  }
  return rows;
}

/** Each row's top (and the total height last): measured heights where known, `rowHeight` for the rest. */
function rowOffsetsOf(keys: readonly string[], measured: ReadonlyMap<string, number> | null, rowHeight: number): Float64Array {
  const heights = new Float64Array(keys.length);
  for (let i = 0; i < keys.length; i++) heights[i] = (measured?.get(keys[i] as string) ?? 0) || rowHeight;
  return rowOffsets(heights);
}

/** Whether a pointer is held on the box (the reader dragging its scrollbar), and the handlers that track it. */
function usePointerHeld() {
  const draggingRef = useRef(false);
  const held = (value: boolean) => () => {
    draggingRef.current = value;
  };
  return { draggingRef, dragHandlers: { onPointerDown: held(true), onPointerUp: held(false), onPointerCancel: held(false) } };
}

/** At the bottom (following live, or after End): new rows, or rows that grew once measured, keep the last one in view. */
function useKeepLatestInView(
  box: RefObject<HTMLElement | null>,
  pinnedRef: RefObject<boolean>,
  total: number,
  count: number,
  setScrollTop: (top: number) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-runs whenever the content height or row count changes.
  useLayoutEffect(() => {
    const el = box.current;
    if (el && pinnedRef.current && el.scrollHeight > el.clientHeight) {
      el.scrollTop = el.scrollHeight;
      setScrollTop(el.scrollTop);
    }
  }, [total, count]);
}

/** A row picked elsewhere scrolls into view (a third from the top) unless it is already shown; the list stops following. */
function useRevealRow(
  box: RefObject<HTMLElement | null>,
  reveal: number | null,
  offsets: ArrayLike<number>,
  unpin: () => void,
  setScrollTop: (top: number) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new row to reveal moves the list, not new offsets.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || reveal === null || reveal < 0 || reveal >= offsets.length - 1) return;
    const top = offsets[reveal] ?? 0;
    const bottom = offsets[reveal + 1] ?? top;
    if (top >= el.scrollTop && bottom <= el.scrollTop + el.clientHeight) return;
    unpin();
    el.scrollTop = Math.max(0, top - el.clientHeight / 3);
    setScrollTop(el.scrollTop);
  }, [reveal]);
}

function scrollBy(el: HTMLElement, top: number): void {
  el.scrollTop = Math.max(0, Math.min(el.scrollHeight - el.clientHeight, top));
}

/** A short list takes only the room it needs (border included); a long one scrolls inside `height`. */
function frameHeightOf(count: number, height: number | string, total: number): number | string {
  const fit = total + 2;
  return count === 0 ? height : typeof height === 'number' ? Math.min(height, fit) : `min(${height}, ${fit}px)`;
}

export function VirtualList<T>({
  items,
  itemKey,
  renderItem,
  rowHeight,
  measure = true,
  overscan = 6,
  height,
  label,
  follow = false,
  initialViewport = 600,
  className,
  testId,
  empty,
  reveal = null,
}: VirtualListProps<T>) {
  const box = useRef<HTMLElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  // First, so its layout effect runs ahead of the ones below that scroll the box.
  const viewport = useBoxHeight(box, initialViewport);
  const { measured, measureVersion, observeRow } = useRowHeights(measure);
  const pinnedRef = useRef(follow);
  const [pinned, setPinned] = useState(follow);
  const setPin = (value: boolean) => {
    pinnedRef.current = value;
    setPinned(value);
  };

  const keys = useMemo(() => items.map((item, index) => itemKey(item, index)), [items, itemKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `measureVersion` signals new measurements in the ref'd map.
  const offsets = useMemo(
    () => rowOffsetsOf(keys, measure ? measured.current : null, rowHeight),
    [keys, measure, rowHeight, measureVersion],
  );
  const total = offsets[offsets.length - 1] ?? 0;
  const { start, end } = visibleWindow(offsets, scrollTop, viewport, overscan);

  useKeepLatestInView(box, pinnedRef, total, items.length, setScrollTop);
  useRevealRow(box, reveal, offsets, () => setPin(false), setScrollTop);

  const { draggingRef, dragHandlers } = usePointerHeld();
  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    setScrollTop(el.scrollTop);
    // A box that does not scroll (any more) says nothing about the reader: the browser fires a scroll event when it
    // clamps the position of a list that shrank to fit (rows measured shorter than guessed), and taking that for a
    // reader scrolling away stopped a live timeline following at its first overflow.
    if (el.scrollHeight <= el.clientHeight) return;
    const atBottom = isAtBottom(el.scrollTop, el.scrollHeight, el.clientHeight);
    // Only the reader lets go (wheel or key up, a scrollbar drag): the list's own scroll can land after a new row was
    // measured taller, briefly short of the end, and on a busy machine that stopped following mid-game.
    if (atBottom && !pinnedRef.current) setPin(true);
    else if (!atBottom && pinnedRef.current && draggingRef.current) setPin(false);
  };

  // A reader turning back is known before the scroll lands: a wheel or a key towards the top lets go of the newest row
  // at once, so a line arriving mid-way through a smooth scroll cannot pull the box back down.
  const letGo = () => {
    if (pinnedRef.current) setPin(false);
  };
  const onWheel = (event: WheelEvent<HTMLElement>) => {
    if (event.deltaY < 0) letGo();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const el = box.current;
    if (!el || event.target !== el) return;
    const target = keyScrollTarget(el, event.key);
    if (target === undefined) return;
    event.preventDefault();
    if (target < el.scrollTop) letGo();
    scrollBy(el, target);
  };

  const jumpToLatest = () => {
    const el = box.current;
    setPin(true);
    if (el) el.scrollTop = el.scrollHeight;
  };

  const frameHeight = frameHeightOf(items.length, height, total);
  const rows = windowRows(items, keys, start, end, renderItem, { measure, rowHeight, observeRow });

  return (
    <div className={`vlist-frame${className ? ` ${className}` : ''}`} style={{ height: frameHeight }}>
      {/* A labelled scrolling region, focusable so keyboard users can scroll it; the rows are an <ol> inside. */}
      <section
        ref={box}
        className="vlist"
        aria-label={`${label} (scrollable)`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        tabIndex={0}
        onScroll={onScroll}
        {...dragHandlers}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
        data-testid={testId}
        data-row-count={items.length}
        data-window-start={start}
        data-window-end={end}
      >
        {items.length === 0 ? (
          <div className="vlist-empty">{empty}</div>
        ) : (
          <div className="vlist-spacer" style={{ height: total }}>
            <ol className="vlist-window" aria-label={label} style={{ transform: `translateY(${offsets[start] ?? 0}px)` }}>
              {rows}
            </ol>
          </div>
        )}
      </section>
      {follow && !pinned && items.length > 0 ? (
        <button type="button" className="button button-small button-primary vlist-follow" onClick={jumpToLatest}>
          Jump to latest
        </button>
      ) : null}
    </div>
  );
}
