import { describe, expect, it } from 'vitest';
import type { ScoringEntry } from '../../engine/contract/specarena.js';
import { metricColumns, metricLabel, rankEntries, strategyLabel } from '../../renderer/src/features/leaderboards/metric-labels.js';
import { parseOptionsText } from '../../renderer/src/features/sessions/parse-options.js';
import { formatJson, formatNumber, humanizeKey, relativeTime, shortId } from '../../renderer/src/ui/format.js';

describe('formatting', () => {
  it('formats scores compactly with a real minus sign', () => {
    expect(formatNumber(1)).toBe('1');
    expect(formatNumber(-1)).toBe('−1');
    expect(formatNumber(0.5)).toBe('0.5');
    expect(formatNumber(2 / 3)).toBe('0.667');
    expect(formatNumber(undefined)).toBe('–');
  });

  it('describes ages relative to now', () => {
    expect(relativeTime(1000, 5000)).toBe('just now');
    expect(relativeTime(0, 30_000)).toBe('30 s ago');
    expect(relativeTime(0, 5 * 60_000)).toBe('5 min ago');
    expect(relativeTime(0, 3 * 3_600_000)).toBe('3 h ago');
    expect(relativeTime(0, 4 * 86_400_000)).toBe('4 d ago');
  });

  it('shortens ids and humanizes keys', () => {
    expect(shortId('0123456789abcdef')).toBe('01234567…');
    expect(shortId('abc')).toBe('abc');
    expect(humanizeKey('win-rate:utility')).toBe('Win Rate: Utility');
  });
});

describe('metric labels', () => {
  it('uses the strategies’ own labels and falls back to a readable key', () => {
    expect(metricLabel('average:security')).toBe('Average Security');
    expect(metricLabel('global-average:utility')).toBe('Utility');
    expect(metricLabel('new-thing:score')).toBe('New Thing: Score');
    expect(strategyLabel('win-rate')).toBe('Win rates');
  });

  it('orders columns like the descriptors and ranks by the chosen metric', () => {
    const entries: ScoringEntry[] = [
      { playerId: 'bob', gamesPlayed: 1, metrics: { 'win-rate:utility': 0.5, 'win-rate:security': 1, 'zzz:x': 1 } },
      { playerId: 'alice', gamesPlayed: 2, metrics: { 'win-rate:utility': 1, 'win-rate:security': 0 } },
    ];
    expect(metricColumns(entries)).toEqual(['win-rate:security', 'win-rate:utility', 'zzz:x']);
    expect(rankEntries(entries, 'win-rate:utility').map((e) => e.playerId)).toEqual(['alice', 'bob']);
    expect(rankEntries(entries, 'win-rate:security').map((e) => e.playerId)).toEqual(['bob', 'alice']);
  });
});

describe('create-session options', () => {
  it('accepts empty text or a JSON object and explains anything else', () => {
    expect(parseOptionsText('  ')).toEqual({ ok: true, value: undefined });
    expect(parseOptionsText('{"setSize": 8}')).toEqual({ ok: true, value: { setSize: 8 } });
    expect(parseOptionsText('[1]')).toMatchObject({ ok: false });
    expect(parseOptionsText('{oops')).toMatchObject({ ok: false, message: expect.stringMatching(/^Options must be JSON/) });
  });
});

describe('formatJson', () => {
  it('keeps arrays of plain values on one line and nests the rest', () => {
    expect(formatJson({ sets: [[1, 2], [3]], guesses: [null, [2]], empty: {}, none: [] })).toBe(
      '{\n  "sets": [\n    [1, 2],\n    [3]\n  ],\n  "guesses": [\n    null,\n    [2]\n  ],\n  "empty": {},\n  "none": []\n}',
    );
  });
});
