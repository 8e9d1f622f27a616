// Reads `ARENA_ACTION_ATTEMPT: {json}` markers from an agent's stdout (spec §4.3). Line splitting and stripping follow
// Python's str.splitlines()/str.strip(), so verdicts match the reference even for odd separators. A malformed marker is
// recorded and skipped, never fatal.
import { type ArenaActionAttempt, ArenaActionAttemptInputSchema, MARKER_PREFIX } from '../../contract/governance.js';
import { issueDetail } from '../../contract/schema-issues.js';

export interface ParsedAttempt {
  line: number;
  attempt: ArenaActionAttempt;
}

export interface MarkerError {
  line: number;
  error: string;
}

export interface MarkerParse {
  attempts: ParsedAttempt[];
  errors: MarkerError[];
  /** Lines that carried the prefix, valid or not. */
  markerLines: number;
}

// Line boundaries of Python's str.splitlines() (\r\n counts as one).
const LINE_BREAKS = new Set(['\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029']);
// Characters Python's str.strip() removes (str.isspace()); unlike JavaScript's trim(), not U+FEFF.
const PY_SPACE =
  '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

export function pySplitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!LINE_BREAKS.has(text[i] as string)) continue;
    lines.push(text.slice(start, i));
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    start = i + 1;
  }
  // A trailing line break does not start another line.
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PY_SPACE.includes(text[start] as string)) start++;
  while (end > start && PY_SPACE.includes(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

/** `now` stamps attempts that carry no timestamp, at parse time (spec §5.4). */
export function parseMarkers(stdout: string, now: () => string): MarkerParse {
  const attempts: ParsedAttempt[] = [];
  const errors: MarkerError[] = [];
  let markerLines = 0;
  pySplitLines(stdout).forEach((raw, index) => {
    const line = index + 1;
    const text = pyStrip(raw);
    if (!text.startsWith(MARKER_PREFIX)) return;
    markerLines++;
    let payload: unknown;
    try {
      payload = JSON.parse(text.slice(MARKER_PREFIX.length));
    } catch (error) {
      errors.push({ line, error: `line ${line}: invalid JSON in action-attempt marker: ${(error as Error).message}` });
      return;
    }
    const parsed = ArenaActionAttemptInputSchema.safeParse(payload);
    if (!parsed.success) {
      errors.push({ line, error: `line ${line}: invalid ArenaActionAttempt payload: ${issueDetail(parsed.error)}` });
      return;
    }
    attempts.push({ line, attempt: { ...parsed.data, timestamp: parsed.data.timestamp ?? now() } });
  });
  return { attempts, errors, markerLines };
}
