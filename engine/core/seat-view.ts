// A recorded game as one seat saw it, for "view as seat N" in the match viewer. The engine applies it before anything
// leaves for the browser, so the page never holds what that seat was not allowed to see.
import type { TranscriptEntry } from '../contract/tournament.js';

/**
 * The transcript seat `seat` saw while the game was played:
 * - a direct chat or operator line (to a seat) follows the session's own rule (redaction.ts `redactFor`): its two
 *   parties read it, every other seat sees only that it was sent — its text and data removed, marked `redacted`
 *   (the operator channel's reveal after the game is left out: this is the view during play);
 * - a ClawArena match event with a seat list is kept only for those seats: the others never received it;
 * - a model agent's turns belong to its seat alone.
 */
export function transcriptAsSeat(entries: readonly TranscriptEntry[], seat: number): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const entry of entries) {
    if (entry.channel === 'match') {
      if (entry.visibility === undefined || entry.visibility === 'public' || entry.visibility.includes(seat)) out.push(entry);
      continue;
    }
    if (entry.channel === 'model') {
      if (entry.from === seat) out.push(entry);
      continue;
    }
    if (entry.to === null || entry.to === seat || entry.from === seat) out.push(entry);
    else {
      const { data: _withheld, ...rest } = entry;
      out.push({ ...rest, content: '', redacted: true });
    }
  }
  return out;
}
