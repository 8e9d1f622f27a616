// The timeline pane: channel switches, a search box and the virtualised list of lines.
import { useCallback, useMemo, useState } from 'react';
import { formatDateTime } from '../../ui/format.js';
import { VirtualList } from '../../ui/virtual-list.js';
import {
  ALL_CHANNELS,
  audienceLabel,
  bodyText,
  type ChannelFilter,
  eventDetail,
  filterTimeline,
  isDirect,
  isRefusal,
  relativeStamp,
  senderLine,
  type TimelineEntry,
  type TranscriptChannel,
} from './timeline.js';

const CHANNEL_LABELS: Record<TranscriptChannel, string> = {
  operator: 'Operator',
  chat: 'Chat',
  match: 'Match events',
  model: 'Model turns',
};

const RESULT_PREVIEW_CHARS = 240;

export function TimelineView({
  timeline,
  seatAgents,
  startedAt,
  live,
  selectedKey = null,
  onSelect,
  sentence,
}: {
  timeline: TimelineEntry[];
  seatAgents: readonly string[];
  startedAt: number;
  live: boolean;
  /** The line the board is drawn after (null: the newest). */
  selectedKey?: string | null;
  onSelect?: (key: string) => void;
  /** The playable's readable sentence for a line, when it has one. */
  sentence?: (entry: TimelineEntry) => string | null;
}) {
  const [channels, setChannels] = useState<ChannelFilter>(ALL_CHANNELS);
  const [search, setSearch] = useState('');
  const present = useMemo(() => new Set(timeline.map((e) => e.channel)), [timeline]);
  const shown = useMemo(() => filterTimeline(timeline, channels, search), [timeline, channels, search]);
  const itemKey = useCallback((entry: TimelineEntry) => entry.key, []);
  const renderItem = useCallback(
    (entry: TimelineEntry) => (
      <TimelineRow
        entry={entry}
        timeline={timeline}
        seatAgents={seatAgents}
        startedAt={startedAt}
        selected={entry.key === selectedKey}
        onSelect={onSelect}
        sentence={sentence}
      />
    ),
    [timeline, seatAgents, startedAt, selectedKey, onSelect, sentence],
  );

  return (
    <section className="card mv-timeline" aria-labelledby="mv-timeline-title">
      <div className="mv-timeline-head">
        <h2 id="mv-timeline-title">Timeline</h2>
        <span className="muted small" data-testid="timeline-count">
          {shown.length === timeline.length ? `${timeline.length} lines` : `${shown.length} of ${timeline.length} lines`}
        </span>
      </div>
      <div className="filters mv-filters">
        <fieldset className="mv-channels">
          <legend className="sr-only">Channels</legend>
          {(Object.keys(CHANNEL_LABELS) as TranscriptChannel[])
            .filter((c) => present.has(c))
            .map((c) => (
              <label key={c} className="mv-check">
                <input
                  type="checkbox"
                  checked={channels[c]}
                  onChange={(event) => setChannels((previous) => ({ ...previous, [c]: event.target.checked }))}
                />
                {CHANNEL_LABELS[c]}
              </label>
            ))}
        </fieldset>
        <label className="field field-inline">
          <span className="field-label">Search</span>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} aria-label="Search the timeline" />
        </label>
      </div>
      <VirtualList
        items={shown}
        itemKey={itemKey}
        renderItem={renderItem}
        rowHeight={64}
        height="min(70vh, 720px)"
        label="Game timeline"
        follow={live}
        testId="timeline"
        reveal={selectedKey === null ? null : shown.findIndex((e) => e.key === selectedKey)}
        empty={
          timeline.length > 0
            ? 'No line matches these filters.'
            : live
              ? 'Nothing has happened in this game yet.'
              : 'No line was recorded for this game.'
        }
      />
    </section>
  );
}

function TimelineRow({
  entry,
  timeline,
  seatAgents,
  startedAt,
  selected,
  onSelect,
  sentence,
}: {
  entry: TimelineEntry;
  timeline: readonly TimelineEntry[];
  seatAgents: readonly string[];
  startedAt: number;
  selected: boolean;
  onSelect: ((key: string) => void) | undefined;
  sentence: ((entry: TimelineEntry) => string | null) | undefined;
}) {
  const body = bodyText(entry);
  const described = sentence?.(entry) ?? null;
  /** A line's readable sentence when its text is visible, else its text (or the redaction note). */
  const readable = (e: TimelineEntry) => {
    const b = bodyText(e);
    return b.redacted ? b.text : (sentence?.(e) ?? b.text);
  };
  const stamp = relativeStamp(entry.timestamp, startedAt);
  const direct = isDirect(entry) && !(entry.to?.kind === 'operator' && entry.kind === 'action');
  const replies = (entry.replies ?? []).map((p) => timeline[p]).filter((r): r is TimelineEntry => r !== undefined);
  const answered = entry.replyTo === undefined ? undefined : timeline[entry.replyTo];
  return (
    <article
      className={`mv-line mv-kind-${entry.kind}${direct ? ' mv-direct' : ''}${selected ? ' mv-selected' : ''}`}
      data-selected={selected ? 'true' : undefined}
      data-kind={entry.kind}
      data-channel={entry.channel}
      data-direct={direct ? 'true' : undefined}
      data-redacted={body.redacted ? 'true' : undefined}
    >
      <div className="mv-meta">
        {onSelect ? (
          <button
            type="button"
            className="mv-select mono"
            aria-pressed={selected}
            aria-label={`Show the board after the line at ${stamp}`}
            title={formatDateTime(entry.timestamp)}
            onClick={() => onSelect(entry.key)}
          >
            {stamp}
          </button>
        ) : (
          <time dateTime={new Date(entry.timestamp).toISOString()} title={formatDateTime(entry.timestamp)} className="mono">
            {stamp}
          </time>
        )}
        <span className={`tag mv-channel mv-channel-${entry.channel}`}>{CHANNEL_LABELS[entry.channel]}</span>
        <span className="mv-sender" data-testid="sender">
          {senderLine(entry, seatAgents)}
        </span>
        {direct ? <span className="tag mv-dm">direct</span> : null}
        {entry.kind === 'action' ? <span className="tag mv-action">action{entry.actionType ? `: ${entry.actionType}` : ''}</span> : null}
        {entry.kind === 'reply' ? (
          isRefusal(entry) ? (
            <span className="tag mv-refused-tag">refused</span>
          ) : (
            <span className="tag mv-result-tag">result</span>
          )
        ) : null}
        {entry.kind === 'model' ? <ModelTag entry={entry} /> : null}
        {entry.kind === 'match' && entry.audience ? <span className="tag mv-dm">{audienceLabel(entry.audience, seatAgents)}</span> : null}
      </div>
      <div className={body.redacted ? 'mv-body mv-redacted' : 'mv-body'} data-testid="line-text">
        {described !== null && !body.redacted ? described : body.text}
      </div>
      <RawLine entry={entry} described={described !== null && !body.redacted} />
      {entry.kind === 'action' ? (
        <div className="mv-result" data-testid="action-result">
          {replies.length === 0 ? (
            <span className="muted">No answer from the operator.</span>
          ) : (
            <>
              <span className="mv-result-label">{isRefusal(replies[0] as TimelineEntry) ? 'Refused:' : 'Result:'}</span>{' '}
              {preview(readable(replies[0] as TimelineEntry))}
              {replies.length > 1 ? <span className="muted"> (+{replies.length - 1} more)</span> : null}
            </>
          )}
        </div>
      ) : null}
      {answered ? (
        <div className="mv-reply-note muted small">
          ↳ answers {partyAction(answered, seatAgents)} at {relativeStamp(answered.timestamp, startedAt)}
        </div>
      ) : null}
    </article>
  );
}

/** The recorded line itself, one click away: a ClawArena event's JSON, or the text a readable sentence replaced. */
function RawLine({ entry, described }: { entry: TimelineEntry; described: boolean }) {
  const json = entry.kind === 'match' ? eventDetail(entry.data) : null;
  if (!json && !described) return null;
  return (
    <details className="mv-raw small">
      <summary>{entry.kind === 'match' ? `Raw event: ${entry.content}` : 'Raw text'}</summary>
      <pre className="mono mv-event-data">{json ?? entry.content}</pre>
    </details>
  );
}

function ModelTag({ entry }: { entry: TimelineEntry }) {
  const d = entry.data ?? {};
  const turn = typeof d.turn === 'number' ? `turn ${d.turn}` : 'turn';
  if (d.kind === 'fallback') return <span className="tag mv-fallback">{`${turn} · fallback`}</span>;
  const phase = typeof d.phase === 'string' && d.phase !== 'initial' ? ` · ${d.phase}` : '';
  return <span className="tag mv-model">{`${turn}${phase}`}</span>;
}

function partyAction(action: TimelineEntry, seatAgents: readonly string[]): string {
  return `the action of ${senderLine({ from: action.from, to: null }, seatAgents)}`;
}

function preview(text: string): string {
  return text.length > RESULT_PREVIEW_CHARS ? `${text.slice(0, RESULT_PREVIEW_CHARS)}…` : text;
}
