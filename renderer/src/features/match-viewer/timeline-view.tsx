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
}: {
  timeline: TimelineEntry[];
  seatAgents: readonly string[];
  startedAt: number;
  live: boolean;
}) {
  const [channels, setChannels] = useState<ChannelFilter>(ALL_CHANNELS);
  const [search, setSearch] = useState('');
  const present = useMemo(() => new Set(timeline.map((e) => e.channel)), [timeline]);
  const shown = useMemo(() => filterTimeline(timeline, channels, search), [timeline, channels, search]);
  const itemKey = useCallback((entry: TimelineEntry) => entry.key, []);
  const renderItem = useCallback(
    (entry: TimelineEntry) => <TimelineRow entry={entry} timeline={timeline} seatAgents={seatAgents} startedAt={startedAt} />,
    [timeline, seatAgents, startedAt],
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
        empty={timeline.length === 0 ? 'Nothing has happened in this game yet.' : 'No line matches these filters.'}
      />
    </section>
  );
}

function TimelineRow({
  entry,
  timeline,
  seatAgents,
  startedAt,
}: {
  entry: TimelineEntry;
  timeline: readonly TimelineEntry[];
  seatAgents: readonly string[];
  startedAt: number;
}) {
  const body = bodyText(entry);
  const direct = isDirect(entry) && !(entry.to?.kind === 'operator' && entry.kind === 'action');
  const replies = (entry.replies ?? []).map((p) => timeline[p]).filter((r): r is TimelineEntry => r !== undefined);
  const answered = entry.replyTo === undefined ? undefined : timeline[entry.replyTo];
  return (
    <article
      className={`mv-line mv-kind-${entry.kind}${direct ? ' mv-direct' : ''}`}
      data-kind={entry.kind}
      data-channel={entry.channel}
      data-direct={direct ? 'true' : undefined}
      data-redacted={body.redacted ? 'true' : undefined}
    >
      <div className="mv-meta">
        <time dateTime={new Date(entry.timestamp).toISOString()} title={formatDateTime(entry.timestamp)} className="mono">
          {relativeStamp(entry.timestamp, startedAt)}
        </time>
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
      <div className={body.redacted ? 'mv-body mv-redacted' : 'mv-body'}>{body.text}</div>
      {entry.kind === 'match' && eventDetail(entry.data) ? <div className="mv-event-data mono small">{eventDetail(entry.data)}</div> : null}
      {entry.kind === 'action' ? (
        <div className="mv-result" data-testid="action-result">
          {replies.length === 0 ? (
            <span className="muted">No answer from the operator.</span>
          ) : (
            <>
              <span className="mv-result-label">{isRefusal(replies[0] as TimelineEntry) ? 'Refused:' : 'Result:'}</span>{' '}
              {preview(bodyText(replies[0] as TimelineEntry).text)}
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
