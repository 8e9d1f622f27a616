// The test SSE reader itself: frames split correctly however TCP chunks them (spec Appendix A.1's upstream reader bug).
import { describe, expect, it } from 'vitest';
import { splitFrames } from '../../support/sse.js';

describe('splitFrames', () => {
  it('returns every complete frame of one chunk and keeps the partial tail', () => {
    const chunk = 'data: {"type":"initial","messages":[]}\n\ndata: {"type":"game_ended","data":{}}\n\n: ping\n\ndata: {"type":"new_me';
    const { frames, rest } = splitFrames(chunk);
    expect(frames.map((f) => f.json?.type ?? `:${f.comment}`)).toEqual(['initial', 'game_ended', ':ping']);
    expect(rest).toBe('data: {"type":"new_me');
  });

  it('reassembles a frame split across chunks and reads id lines', () => {
    const first = splitFrames('data: {"type":"new_message","mess');
    expect(first.frames).toEqual([]);
    const second = splitFrames(`${first.rest}age":{"index":7}}\nid: 7\n\n`);
    expect(second.rest).toBe('');
    expect(second.frames).toHaveLength(1);
    expect(second.frames[0]).toMatchObject({ id: '7', lines: ['data: {"type":"new_message","message":{"index":7}}', 'id: 7'] });
    expect(second.frames[0]?.json).toEqual({ type: 'new_message', message: { index: 7 } });
  });

  it('accepts CRLF line endings and multi-line data', () => {
    const { frames } = splitFrames('data: {"a":\r\ndata: 1}\r\n\r\n');
    expect(frames[0]?.data).toBe('{"a":\n1}');
  });
});
