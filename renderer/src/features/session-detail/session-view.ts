// Pure shaping of a session for display: seats with identities and scores, and merging transcript updates.
import type { AdminSessionDetail } from '../../../../engine/contract/admin.js';
import type { Challenge, ChatMessage, Score } from '../../../../engine/contract/specarena.js';

export interface SeatRow {
  seat: number;
  invite: string;
  joined: boolean;
  /** The userId the agent joined with, when it gave one. */
  identity: string | undefined;
  score: Score | undefined;
}

/** One row per invite. Scores are indexed by join order (state.players), not by invite order. */
export function seatRows(session: Challenge): SeatRow[] {
  const { players, scores, playerIdentities } = session.state;
  return session.invites.map((invite, index) => {
    const playerIndex = players.indexOf(invite);
    return {
      seat: index + 1,
      invite,
      joined: playerIndex >= 0,
      identity: playerIdentities[invite],
      score: playerIndex >= 0 ? scores[playerIndex] : undefined,
    };
  });
}

/** "Player 2" for an invite of this session, "Operator" for the operator, else the raw sender. */
export function participantLabel(from: string | null | undefined, invites: readonly string[]): string {
  if (from === null || from === undefined) return 'everyone';
  if (from === 'operator') return 'Operator';
  const seat = invites.indexOf(from);
  return seat >= 0 ? `Player ${seat + 1}` : from;
}

function messageKey(message: ChatMessage): string {
  return message.index !== undefined ? `#${message.index}` : `${message.timestamp}|${message.from}|${message.content}`;
}

/**
 * Union of two transcripts of one channel, ordered by index. The public live stream redacts direct messages
 * that the admin API returns in full, so a full copy always wins over a redacted one.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byKey = new Map<string, ChatMessage>();
  for (const message of [...current, ...incoming]) {
    const key = messageKey(message);
    const existing = byKey.get(key);
    if (!existing || (existing.redacted && !message.redacted)) byKey.set(key, message);
  }
  return [...byKey.values()].sort(
    (a, b) => (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER) || a.timestamp - b.timestamp,
  );
}

export type TranscriptKey = 'operatorLog' | 'chat';

export function withLiveMessages(detail: AdminSessionDetail, key: TranscriptKey, messages: readonly ChatMessage[]): AdminSessionDetail {
  return { ...detail, [key]: mergeMessages(detail[key], messages) };
}

/** A fresh admin answer replaces the session but keeps live messages it may not contain yet. */
export function withFreshDetail(previous: AdminSessionDetail | undefined, fresh: AdminSessionDetail): AdminSessionDetail {
  if (!previous || previous.session.id !== fresh.session.id) return fresh;
  return { ...fresh, operatorLog: mergeMessages(previous.operatorLog, fresh.operatorLog), chat: mergeMessages(previous.chat, fresh.chat) };
}
