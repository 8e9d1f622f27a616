// The timeline and the board side by side, sharing one selected line: picking a line (or scrubbing the slider)
// replays the game's board up to it; with nothing picked the board follows the newest line.
import { useCallback, useMemo, useState } from 'react';
import { type BoardLine, boardContext } from '../../../../engine/core/board.js';
import { BoardPane } from './board-pane.js';
import { boardViewFor } from './board-views.js';
import type { TimelineEntry } from './timeline.js';
import { TimelineView } from './timeline-view.js';

export function MatchPlay({
  playable,
  timeline,
  seatAgents,
  invites,
  startedAt,
  live,
}: {
  playable: string;
  timeline: TimelineEntry[];
  seatAgents: readonly string[];
  invites: readonly string[];
  startedAt: number;
  live: boolean;
}) {
  const view = boardViewFor(playable);
  const lines = useMemo<BoardLine[]>(() => timeline.map((e) => e.source), [timeline]);
  const ctx = useMemo(() => boardContext(lines, seatAgents, invites), [lines, seatAgents, invites]);
  const [selected, setSelected] = useState<string | null>(null);
  const position = selected === null ? -1 : timeline.findIndex((e) => e.key === selected);
  const at = position >= 0 ? position : timeline.length - 1;
  const sentence = useCallback((entry: TimelineEntry) => view?.model.sentence(entry.source, ctx) ?? null, [view, ctx]);
  const select = useCallback(
    (index: number | null) =>
      setSelected(index === null ? null : (timeline[Math.max(0, Math.min(index, timeline.length - 1))]?.key ?? null)),
    [timeline],
  );
  return (
    <div className={view ? 'mv-play' : undefined}>
      <TimelineView
        timeline={timeline}
        seatAgents={seatAgents}
        startedAt={startedAt}
        live={live}
        selectedKey={position >= 0 ? selected : null}
        onSelect={(key) => setSelected((previous) => (previous === key ? null : key))}
        sentence={sentence}
      />
      {view ? (
        <BoardPane
          view={view}
          lines={lines}
          ctx={ctx}
          at={at}
          following={position < 0}
          onSelect={select}
          entry={timeline[at]}
          startedAt={startedAt}
        />
      ) : null}
    </div>
  );
}
