import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../engine/contract/specarena.js';
import type { TranscriptEntry } from '../../engine/contract/tournament.js';
import { modelTurns } from '../../renderer/src/features/match-viewer/model-turns.js';
import {
  ALL_CHANNELS,
  audienceLabel,
  bodyText,
  buildTimeline,
  eventDetail,
  filterTimeline,
  isRefusal,
  liveTranscript,
  partyLabel,
  relativeStamp,
  senderLine,
} from '../../renderer/src/features/match-viewer/timeline.js';

const agents = ['honest-exact', 'greedy-overclaim'];
const line = (index: number, extra: Partial<TranscriptEntry>): TranscriptEntry => ({
  index,
  channel: 'operator',
  from: 'operator',
  to: null,
  content: `line ${index}`,
  timestamp: 1000 + index,
  ...extra,
});

describe('match viewer timeline', () => {
  it('names seats after their agents and marks direct messages sender → recipient', () => {
    expect(partyLabel({ kind: 'seat', seat: 1 }, agents)).toBe('greedy-overclaim (seat 2)');
    expect(partyLabel({ kind: 'seat', seat: 5 }, agents)).toBe('Seat 6');
    expect(partyLabel({ kind: 'operator' }, agents)).toBe('Operator');
    const [dm, pub] = buildTimeline([line(0, { to: 0 }), line(1, { channel: 'chat', from: 1, to: null })]);
    expect(senderLine(dm as never, agents)).toBe('Operator → honest-exact (seat 1)');
    expect(senderLine(pub as never, agents)).toBe('greedy-overclaim (seat 2)');
  });

  it('merges channels in time order, ties broken by transcript index', () => {
    const timeline = buildTimeline([
      line(2, { channel: 'chat', from: 0, timestamp: 50 }),
      line(0, { timestamp: 10 }),
      line(1, { channel: 'match', from: 'server', timestamp: 50 }),
      line(3, { channel: 'model', from: 1, timestamp: 5 }),
    ]);
    expect(timeline.map((e) => e.key)).toEqual(['model:3', 'operator:0', 'match:1', 'chat:2']);
    expect(timeline.map((e) => e.kind)).toEqual(['model', 'operator', 'match', 'chat']);
  });

  it("pairs each action with the operator's answers to that seat, and shows unanswered actions as such", () => {
    const timeline = buildTimeline([
      line(0, { content: 'Your private set is 1, 2, 3', to: 0 }),
      line(1, { from: 0, to: 'operator', content: '(guess) 1, 2' }),
      line(2, { to: 0, content: 'Guess recorded' }),
      line(3, { to: 1, content: 'A private word for seat 2' }),
      line(4, { from: 1, to: 'operator', content: '(guess) 9' }),
      line(5, { from: 0, to: 'operator', content: 'no type' }),
      line(6, { content: 'Game over' }),
    ]);
    const [setup, action, reply, other, unanswered, second, end] = timeline;
    expect(setup?.kind).toBe('operator');
    expect(action).toMatchObject({ kind: 'action', actionType: 'guess', content: '1, 2', replies: [2] });
    expect(reply).toMatchObject({ kind: 'reply', replyTo: 1 });
    // A message to another seat is not the result of seat 1's action.
    expect(other?.kind).toBe('operator');
    expect(unanswered).toMatchObject({ kind: 'action', replies: [] });
    // A public operator line after an action answers it.
    expect(second).toMatchObject({ kind: 'action', actionType: undefined, content: 'no type', replies: [6] });
    expect(end).toMatchObject({ kind: 'reply', replyTo: 5 });
  });

  it('pairs a refused action with the refusal the runner recorded, marked as a refusal', () => {
    const timeline = buildTimeline([
      line(0, { from: 1, to: 'operator', content: '(guess) not a number', timestamp: 2000 }),
      line(1, {
        to: 1,
        content: 'Refused (INVALID_GUESS): Invalid guess',
        timestamp: 2000,
        data: { kind: 'refusal', code: 'INVALID_GUESS' },
      }),
      line(2, { to: 1, content: 'Player 2 outcome: …', timestamp: 2100 }),
    ]);
    const [action, refusal, result] = timeline;
    expect(action).toMatchObject({ kind: 'action', actionType: 'guess', replies: [1, 2] });
    expect(refusal).toMatchObject({ kind: 'reply', replyTo: 0 });
    expect(isRefusal(refusal as never)).toBe(true);
    expect(isRefusal(result as never)).toBe(false);
  });

  it('never shows withheld text as an empty message', () => {
    expect(bodyText({ redacted: true, content: '' })).toEqual({ text: 'Private message (redacted for this viewer)', redacted: true });
    expect(bodyText({ redacted: false, content: 'hi' })).toEqual({ text: 'hi', redacted: false });
  });

  it('turns a live session into seat-numbered lines with unique keys and keeps redactions', () => {
    const msg = (index: number, extra: Partial<ChatMessage>): ChatMessage => ({
      channel: 'c',
      from: 'operator',
      content: 'x',
      index,
      timestamp: index,
      ...extra,
    });
    const lines = liveTranscript(
      [msg(1, { to: 'inv_b', content: '', redacted: true }), msg(2, { from: 'inv_a', to: 'operator' })],
      [msg(1, { from: 'inv_b' })],
      ['inv_a', 'inv_b'],
    );
    expect(lines.map((l) => [l.channel, l.from, l.to, l.redacted === true])).toEqual([
      ['operator', 'operator', 1, true],
      ['operator', 0, 'operator', false],
      ['chat', 1, null, false],
    ]);
    const keys = buildTimeline(lines).map((e) => e.key);
    expect(new Set(keys).size).toBe(3);
    expect(buildTimeline(lines)[0]?.redacted).toBe(true);
  });

  it('writes times relative to the game start', () => {
    expect(relativeStamp(1000, 1000)).toBe('+0:00.0');
    expect(relativeStamp(66_300, 1000)).toBe('+1:05.3');
    expect(relativeStamp(800, 1000)).toBe('−0:00.2');
  });

  it('filters by channel and text', () => {
    const timeline = buildTimeline([line(0, {}), line(1, { channel: 'chat', from: 0, content: 'Hello there' })]);
    expect(filterTimeline(timeline, { ...ALL_CHANNELS, chat: false }, '').map((e) => e.channel)).toEqual(['operator']);
    expect(filterTimeline(timeline, ALL_CHANNELS, 'HELLO').map((e) => e.index)).toEqual([1]);
  });

  it('reads model turns with their prompt, usage and fallback when recorded', () => {
    const turns = modelTurns([
      line(7, {
        channel: 'model',
        from: 1,
        content: '{"action":"guess"}',
        data: {
          turn: 2,
          phase: 'rethink',
          attempt: 1,
          prompt: 'user: play',
          truncated: false,
          prompt_tokens: 120,
          latency_ms: 800,
          fallback: { cause: 'model_illegal' },
        },
      }),
      line(8, { channel: 'model', from: 0, content: 'ok', data: { turn: 1, prompt: 'p' } }),
      line(9, { channel: 'chat', from: 0 }),
      line(10, {
        channel: 'model',
        from: 1,
        content: 'fallback (model_timeout): wait',
        data: { kind: 'fallback', turn: 2, fallback_cause: 'model_timeout', detail: 'no answer in 5 s', action: 'wait' },
      }),
    ]);
    expect(turns.map((t) => [t.seat, t.turn, t.kind])).toEqual([
      [0, 1, 'call'],
      [1, 2, 'call'],
      [1, 2, 'fallback'],
    ]);
    expect(turns[2]).toMatchObject({ fallback: 'model_timeout', detail: 'no answer in 5 s', action: 'wait' });
    expect(turns[1]).toMatchObject({
      phase: 'rethink',
      prompt: 'user: play',
      promptTokens: 120,
      completionTokens: null,
      latencyMs: 800,
      fallback: 'model_illegal',
    });
  });

  it('shows ClawArena events with their payload and who could see them', () => {
    const [event] = buildTimeline([
      line(0, { channel: 'match', from: 'server', content: 'dice_rolled', visibility: [1], data: { dice: [3, 5] } }),
    ]);
    expect(event?.kind).toBe('match');
    // The server's default move for a seat says so instead of an internal name.
    expect(senderLine({ from: { kind: 'other', name: 'server' }, to: null }, agents)).toBe('Server (default move)');
    expect(senderLine({ from: { kind: 'other', name: 'match' }, to: null }, agents)).toBe('Match');
    expect(audienceLabel(event?.audience, agents)).toBe('visible to greedy-overclaim (seat 2)');
    expect(audienceLabel(undefined, agents)).toBeNull();
    expect(JSON.parse(eventDetail(event?.data) ?? 'null')).toEqual({ dice: [3, 5] });
    expect(eventDetail({})).toBeNull();
    // The raw view is the whole payload, never cut.
    expect(eventDetail({ text: 'x'.repeat(1000) })).toContain('x'.repeat(1000));
  });
});
