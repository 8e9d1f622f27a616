// A ClawArena match's event log as tournament transcript entries (channel 'match'): the stored game's timeline and
// the admin's live feed of a running match read the same shape. events.jsonl writes them as match_event lines.
import type { TranscriptEntry } from '../../contract/tournament.js';
import type { StoredClawEvent } from '../../db/store.js';

/** Entries for `events`, the match's log in order; `offset` is the position of its first event in the whole log. */
export function matchTranscript(events: readonly StoredClawEvent[], offset = 0): TranscriptEntry[] {
  return events.map((e, i) => ({
    index: offset + i,
    channel: 'match' as const,
    from: e.isAuto ? 'server' : 'match',
    to: null,
    content: e.type,
    timestamp: e.createdAt,
    event_seq: e.eventSeq,
    is_auto: e.isAuto,
    visibility: e.visibility,
    data: e.data,
  }));
}
