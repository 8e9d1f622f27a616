// The match viewer's one timeline, built from a stored transcript or a live session: every channel in time order,
// seats named after their agents, direct messages marked "sender → recipient", withheld text marked as redacted, and
// each action paired with the operator's answer. Pure, so the rules are unit-tested.
import type { ChatMessage } from '../../../../engine/contract/specarena.js';
import type { TranscriptEntry } from '../../../../engine/contract/tournament.js';

export type TranscriptChannel = TranscriptEntry['channel'];
/** A stored line, or a live one whose text may have been withheld from this reader. */
export type TranscriptLine = TranscriptEntry & { redacted?: boolean };

export type Party = { kind: 'seat'; seat: number } | { kind: 'operator' } | { kind: 'other'; name: string };

export type EntryKind = 'action' | 'reply' | 'operator' | 'chat' | 'match' | 'model';

export interface TimelineEntry {
  key: string;
  /** Position in the source transcript (stable across live updates). */
  index: number;
  channel: TranscriptChannel;
  kind: EntryKind;
  from: Party;
  /** null: everyone. */
  to: Party | null;
  content: string;
  /** The text was withheld from this reader (never shown as an empty message). */
  redacted: boolean;
  timestamp: number;
  /** 'action' entries: the action type the agent gave, when it gave one. */
  actionType?: string | undefined;
  /** 'action' entries: the operator's answers (positions in the timeline); empty when it said nothing back. */
  replies?: number[];
  /** 'reply' entries: the action it answers (position in the timeline). */
  replyTo?: number;
  data?: Record<string, unknown> | undefined;
  /** ClawArena events shown to some seats only (0-based seats); undefined when public. */
  audience?: number[] | undefined;
  /** The line as recorded, for the board and the raw view. */
  source: TranscriptLine;
}

function partyOf(value: number | string | null | undefined): Party | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return { kind: 'seat', seat: value };
  if (value === 'operator') return { kind: 'operator' };
  return { kind: 'other', name: value };
}

/** Who wrote a ClawArena event: the match itself, or the server playing a seat's default move after its deadline. */
const OTHER_LABELS: Record<string, string> = { match: 'Match', server: 'Server (default move)' };

/** "honest-exact (seat 1)": seats count from 1 for people; the agent id says who sat there. */
export function partyLabel(party: Party | null, seatAgents: readonly string[]): string {
  if (party === null) return 'everyone';
  if (party.kind === 'operator') return 'Operator';
  if (party.kind === 'other') return OTHER_LABELS[party.name] ?? party.name;
  const agent = seatAgents[party.seat];
  return agent ? `${agent} (seat ${party.seat + 1})` : `Seat ${party.seat + 1}`;
}

/** The header of a line: "A" for public lines, "A → B" for direct ones. */
export function senderLine(entry: Pick<TimelineEntry, 'from' | 'to'>, seatAgents: readonly string[]): string {
  const from = partyLabel(entry.from, seatAgents);
  return entry.to === null ? from : `${from} → ${partyLabel(entry.to, seatAgents)}`;
}

/** The engine's refusal of an action (recorded by the tournament runner from the HTTP answer the agent got). */
export function isRefusal(entry: Pick<TimelineEntry, 'data'>): boolean {
  return entry.data?.kind === 'refusal';
}

export function isDirect(entry: Pick<TimelineEntry, 'to'>): boolean {
  return entry.to !== null;
}

const ACTION_TYPE = /^\((\w[\w-]*)\) ([\s\S]*)$/;

/** An operator-channel line from a seat to the operator is an action; the engine logs it as "(type) content". */
function splitAction(content: string): { actionType: string | undefined; content: string } {
  const m = ACTION_TYPE.exec(content);
  return m ? { actionType: m[1], content: m[2] ?? '' } : { actionType: undefined, content };
}

const samePartyAs = (a: Party | null, b: Party | null) =>
  a !== null &&
  b !== null &&
  a.kind === b.kind &&
  (a.kind !== 'seat' || (b.kind === 'seat' && a.seat === b.seat)) &&
  (a.kind !== 'other' || (b.kind === 'other' && a.name === b.name));

/**
 * Orders the entries (time, then transcript index) and classifies them. An operator message that follows a seat's
 * action — addressed to that seat, or public — before that seat or anyone else acts again is the action's result.
 */
export function buildTimeline(entries: readonly TranscriptLine[], names?: InviteNames): TimelineEntry[] {
  const rename = names ? inviteRenamer(names) : (text: string) => text;
  const sorted = [...entries].sort((a, b) => a.timestamp - b.timestamp || a.index - b.index);
  const out: TimelineEntry[] = [];
  let openAction: number | null = null;
  for (const e of sorted) {
    const from = partyOf(e.from) ?? { kind: 'other', name: 'unknown' };
    const to = partyOf(e.to);
    const base = {
      key: `${e.channel}:${e.index}`,
      index: e.index,
      channel: e.channel,
      from,
      to,
      content: rename(e.content),
      redacted: e.redacted === true,
      timestamp: e.timestamp,
      data: e.data,
      audience: Array.isArray(e.visibility) ? e.visibility : undefined,
      source: e,
    };
    const position = out.length;
    if (e.channel === 'operator' && from.kind === 'seat' && (to === null || to.kind === 'operator')) {
      const { actionType, content } = splitAction(e.content);
      out.push({ ...base, kind: 'action', content, actionType, replies: [] });
      openAction = position;
      continue;
    }
    if (e.channel === 'operator' && from.kind === 'operator') {
      const action = openAction === null ? undefined : out[openAction];
      if (action && (to === null || samePartyAs(to, action.from))) {
        action.replies?.push(position);
        out.push({ ...base, kind: 'reply', replyTo: openAction as number });
      } else out.push({ ...base, kind: 'operator' });
      continue;
    }
    out.push({
      ...base,
      kind: e.channel === 'chat' ? 'chat' : e.channel === 'match' ? 'match' : e.channel === 'model' ? 'model' : 'operator',
    });
  }
  return out;
}

export interface InviteNames {
  invites: readonly string[];
  seatAgents: readonly string[];
}

/** Operators name players by invite ("Player inv_… sent a guess"); readers know them by agent and seat. */
export function inviteRenamer({ invites, seatAgents }: InviteNames): (text: string) => string {
  const pairs = invites
    .map((invite, seat) => [invite, partyLabel({ kind: 'seat', seat }, seatAgents)] as const)
    .filter(([invite]) => invite.length >= 8);
  if (pairs.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const [invite, label] of pairs) if (out.includes(invite)) out = out.split(invite).join(label);
    return out;
  };
}

/** A live session's two channels as transcript entries: invites become seat numbers, as in the stored record. */
export function liveTranscript(
  operatorLog: readonly ChatMessage[],
  chat: readonly ChatMessage[],
  invites: readonly string[],
): TranscriptLine[] {
  const who = (value: string | null | undefined): number | string | null => {
    if (value === null || value === undefined) return null;
    const seat = invites.indexOf(value);
    return seat >= 0 ? seat : value;
  };
  const rows = [...operatorLog.map((m) => ({ m, channel: 'operator' as const })), ...chat.map((m) => ({ m, channel: 'chat' as const }))];
  return rows.map(({ m, channel }, i) => ({
    // Both channels number from 1; keep their indices apart so keys stay unique.
    index: (m.index ?? i) * 2 + (channel === 'chat' ? 1 : 0),
    channel,
    from: who(m.from) ?? 'unknown',
    to: who(m.to),
    content: m.content,
    timestamp: m.timestamp,
    ...(m.redacted ? { redacted: true } : {}),
  }));
}

/** "+1:05.3" from the game's start; "−0:00.2" for lines written just before it (clock skew between processes). */
export function relativeStamp(timestamp: number, startedAt: number): string {
  const delta = timestamp - startedAt;
  const sign = delta < 0 ? '−' : '+';
  const abs = Math.abs(delta);
  const minutes = Math.floor(abs / 60_000);
  const seconds = (abs % 60_000) / 1000;
  return `${sign}${minutes}:${seconds.toFixed(1).padStart(4, '0')}`;
}

export type ChannelFilter = Record<TranscriptChannel, boolean>;

export const ALL_CHANNELS: ChannelFilter = { operator: true, chat: true, match: true, model: true };

/** Channels switched off drop out; a result stays with its action even when filtering leaves only operator lines. */
export function filterTimeline(entries: readonly TimelineEntry[], channels: ChannelFilter, search: string): TimelineEntry[] {
  const needle = search.trim().toLowerCase();
  return entries.filter((e) => channels[e.channel] && (needle === '' || e.content.toLowerCase().includes(needle)));
}

/** What a line shows as its body: redacted text never appears as an empty message. */
export function bodyText(entry: Pick<TimelineEntry, 'redacted' | 'content'>): { text: string; redacted: boolean } {
  if (entry.redacted) return { text: 'Private message (redacted for this viewer)', redacted: true };
  return { text: entry.content, redacted: false };
}

/** A ClawArena event's payload as recorded (the raw view under its readable sentence), or null when empty. */
export function eventDetail(data: Record<string, unknown> | undefined): string | null {
  if (!data || Object.keys(data).length === 0) return null;
  return JSON.stringify(data, null, 2);
}

/** "seat 1 only", "seats 1, 3 only" for events not everyone saw. */
export function audienceLabel(audience: readonly number[] | undefined, seatAgents: readonly string[]): string | null {
  if (!audience) return null;
  if (audience.length === 0) return 'nobody';
  return `visible to ${audience.map((seat) => partyLabel({ kind: 'seat', seat }, seatAgents)).join(', ')}`;
}
