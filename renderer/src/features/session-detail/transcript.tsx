import { useEffect, useRef } from 'react';
import type { ChatMessage } from '../../../../engine/contract/specarena.js';
import { formatClock, formatDateTime } from '../../ui/format.js';
import { participantLabel } from './session-view.js';

/** A channel's messages, oldest first; follows new messages while the reader is at the bottom. */
export function Transcript({
  messages,
  invites,
  empty,
  testId,
}: {
  messages: ChatMessage[];
  invites: string[];
  empty: string;
  testId: string;
}) {
  const list = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the messages change (a redacted copy replaced by the full text changes heights too).
  useEffect(() => {
    const el = list.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  if (messages.length === 0) {
    return (
      <p className="empty" data-testid={testId}>
        {empty}
      </p>
    );
  }
  return (
    <ol
      className="transcript"
      ref={list}
      data-testid={testId}
      onScroll={(event) => {
        const el = event.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {messages.map((message) => (
        <li
          key={message.index ?? `${message.timestamp}-${message.from}`}
          className={message.from === 'operator' ? 'msg msg-operator' : 'msg'}
        >
          <div className="msg-meta">
            <time dateTime={new Date(message.timestamp).toISOString()} title={formatDateTime(message.timestamp)}>
              {formatClock(message.timestamp)}
            </time>
            <span className="msg-from">{participantLabel(message.from, invites)}</span>
            {message.to ? <span className="msg-to">→ {participantLabel(message.to, invites)}</span> : null}
            {message.type ? <span className="tag">{message.type}</span> : null}
          </div>
          {message.redacted ? <div className="msg-body muted">(private message)</div> : <div className="msg-body">{message.content}</div>}
        </li>
      ))}
    </ol>
  );
}
