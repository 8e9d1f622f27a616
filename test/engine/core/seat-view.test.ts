import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../engine/contract/tournament.js';
import { transcriptAsSeat } from '../../../engine/core/seat-view.js';

const line = (index: number, fields: Partial<TranscriptEntry>): TranscriptEntry => ({
  index,
  channel: 'operator',
  from: 'operator',
  to: null,
  content: `line ${index}`,
  timestamp: 1000 + index,
  ...fields,
});

describe('a game as one seat saw it', () => {
  const transcript: TranscriptEntry[] = [
    line(0, { content: 'game started' }),
    line(1, { to: 0, content: 'seat 1 wealth: $12M', data: { wealth: 12 } }),
    line(2, { to: 1, content: 'seat 2 wealth: $59M', data: { wealth: 59 } }),
    line(3, { channel: 'chat', from: 0, to: 1, content: 'psst, seat 2' }),
    line(4, { channel: 'chat', from: 1, to: null, content: 'hello all' }),
    line(5, { channel: 'match', from: 'match', content: 'dice_rolled', visibility: [0], data: { dice: [1, 2, 3] } }),
    line(6, { channel: 'match', from: 'match', content: 'dice_rolled', visibility: [1], data: { dice: [6, 6, 6] } }),
    line(7, { channel: 'match', from: 'match', content: 'bid', visibility: 'public', data: { quantity: 2 } }),
    line(8, { channel: 'model', from: 0, content: 'I hold 1 2 3' }),
    line(9, { channel: 'model', from: 1, content: 'I hold three sixes' }),
    line(10, { from: 1, to: 'operator', content: '(guess) 41' }),
  ];

  it('keeps public lines, its own direct lines, its own private events and its own model turns', () => {
    const seen = transcriptAsSeat(transcript, 0);
    expect(seen.map((e) => e.index)).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 10]);
    expect(seen.find((e) => e.index === 1)).toEqual(transcript[1]);
    expect(seen.find((e) => e.index === 3)?.content).toBe('psst, seat 2');
  });

  it("withholds the text and data of other parties' direct lines, and drops events and turns it never received", () => {
    const seen = transcriptAsSeat(transcript, 0);
    const other = seen.find((e) => e.index === 2);
    expect(other).toEqual({ index: 2, channel: 'operator', from: 'operator', to: 1, content: '', timestamp: 1002, redacted: true });
    const text = JSON.stringify(seen);
    for (const secret of ['$59M', '6,6,6', 'three sixes']) expect(text).not.toContain(secret);
  });

  it("shows the other seat its own side: seat 2 reads its wealth and the DM to it, not seat 1's", () => {
    const seen = transcriptAsSeat(transcript, 1);
    expect(seen.map((e) => e.index)).toEqual([0, 1, 2, 3, 4, 6, 7, 9, 10]);
    expect(seen.find((e) => e.index === 1)?.redacted).toBe(true);
    expect(seen.find((e) => e.index === 3)?.content).toBe('psst, seat 2');
    expect(JSON.stringify(seen)).not.toContain('$12M');
  });
});
