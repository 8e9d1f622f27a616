// The board beside the timeline: the playable's own view of its state after the selected line, and a slider with
// step buttons to replay the game line by line.
import { useMemo } from 'react';
import type { BoardContext, BoardLine } from '../../../../engine/core/board.js';
import type { AnyBoardView } from './board-views.js';
import './board-views.css';
import { relativeStamp, type TimelineEntry } from './timeline.js';

export function BoardPane({
  view,
  lines,
  ctx,
  at,
  following,
  onSelect,
  entry,
  startedAt,
}: {
  view: AnyBoardView;
  lines: readonly BoardLine[];
  ctx: BoardContext;
  /** Position in the timeline the board is drawn after (-1: before the first line). */
  at: number;
  following: boolean;
  onSelect(index: number | null): void;
  entry: TimelineEntry | undefined;
  startedAt: number;
}) {
  const board = useMemo(() => view.model.board(lines, at, ctx), [view, lines, at, ctx]);
  const View = view.View;
  const last = lines.length - 1;
  return (
    <section
      className="card mv-board"
      aria-labelledby="mv-board-title"
      data-testid="board"
      data-position={at + 1}
      data-playable={view.model.id}
    >
      <div className="mv-timeline-head">
        <h2 id="mv-board-title">Board</h2>
        <span className="muted small" data-testid="board-position">
          {lines.length === 0
            ? 'no lines yet'
            : `after line ${at + 1} of ${lines.length}${entry ? ` (${relativeStamp(entry.timestamp, startedAt)})` : ''}${following ? ' · latest' : ''}`}
        </span>
      </div>
      {lines.length > 0 ? (
        <div className="mv-scrub">
          <button type="button" className="button button-small" onClick={() => onSelect(Math.max(0, at - 1))} disabled={at <= 0}>
            Previous line
          </button>
          <input
            type="range"
            min={1}
            max={lines.length}
            value={at + 1}
            aria-label="Replay the board up to line"
            aria-valuetext={`line ${at + 1} of ${lines.length}`}
            onChange={(event) => onSelect(Number(event.target.value) - 1)}
          />
          <button type="button" className="button button-small" onClick={() => onSelect(Math.min(last, at + 1))} disabled={at >= last}>
            Next line
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => onSelect(null)}
            disabled={following}
            aria-pressed={following}
          >
            Latest
          </button>
        </div>
      ) : null}
      <div className="mv-board-body" data-testid="board-view">
        <View board={board} ctx={ctx} />
      </div>
    </section>
  );
}
