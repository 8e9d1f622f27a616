// Who may read which chat message (spec §5.4). Pure, so sync, SSE snapshots and live frames share one rule.
import type { ChatMessage } from '../contract/specarena.js';

const OPERATOR_CHANNEL_PREFIX = 'challenge_';

export function operatorChannel(sessionId: string): string {
  return `${OPERATOR_CHANNEL_PREFIX}${sessionId}`;
}

export function isOperatorChannel(channel: string): boolean {
  return channel.startsWith(OPERATOR_CHANNEL_PREFIX);
}

/** The session id a channel belongs to: `challenge_<id>` and the bare `<id>` both map to `<id>`. */
export function sessionIdOfChannel(channel: string): string {
  return isOperatorChannel(channel) ? channel.slice(OPERATOR_CHANNEL_PREFIX.length) : channel;
}

export function redactFor(message: ChatMessage, viewer: string | null): ChatMessage {
  if (message.to === undefined || message.to === null) return message;
  if (viewer !== null && (message.to === viewer || message.from === viewer)) return message;
  return { ...message, content: '', redacted: true };
}

/** Sync and SSE `initial`: a revealed channel (operator channel of an ended session) is returned in full. */
export function redactAll(messages: readonly ChatMessage[], viewer: string | null, revealed: boolean): ChatMessage[] {
  return revealed ? [...messages] : messages.map((m) => redactFor(m, viewer));
}
