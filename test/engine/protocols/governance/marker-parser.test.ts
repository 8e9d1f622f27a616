// Marker parsing with Python's line and whitespace rules; malformed markers are recorded, never fatal.
import { describe, expect, it } from 'vitest';
import { canonicalDateTime } from '../../../../engine/contract/governance.js';
import { parseMarkers, pySplitLines, pyStrip } from '../../../../engine/protocols/governance/marker-parser.js';

const NOW = '2026-07-10T12:00:00Z';
const now = () => NOW;
const attempt = (extra: Record<string, unknown> = {}) => ({
  agent_id: 'demo-agent',
  framework: 'other',
  scenario_id: 'demo-scenario',
  trial_id: 'read-only',
  tool: 'fs.read',
  resource: 'notes/todo.md',
  ...extra,
});
const line = (value: unknown) => `ARENA_ACTION_ATTEMPT: ${JSON.stringify(value)}`;

describe('pySplitLines / pyStrip', () => {
  it('splits like str.splitlines(), including \\v, \\f, \\x1c-\\x1e, \\x85, U+2028 and U+2029', () => {
    expect(pySplitLines('a\nb\r\nc\rd\ve\ff\x1cg\x1dh\x1ei\x85j\u2028k\u2029l')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
      'j',
      'k',
      'l',
    ]);
    expect(pySplitLines('')).toEqual([]);
    expect(pySplitLines('\n')).toEqual(['']);
    expect(pySplitLines('a\n\nb\n')).toEqual(['a', '', 'b']);
    expect(pySplitLines('a\x1fb')).toEqual(['a\x1fb']);
  });

  it('strips like str.strip(): Unicode spaces yes, the byte-order mark no', () => {
    expect(pyStrip('\t\x1f \u3000x y\u00a0\u2003')).toBe('x y');
    expect(pyStrip('\ufeffx')).toBe('\ufeffx');
  });
});

describe('parseMarkers', () => {
  it('reads the example marker of the spec', () => {
    const text = `${line(attempt({ args: { path: 'notes/todo.md' }, context: 'Reading the task list.', timestamp: '2026-07-10T12:00:00Z' }))}\n`;
    const { attempts, errors, markerLines } = parseMarkers(text, now);
    expect(errors).toEqual([]);
    expect(markerLines).toBe(1);
    expect(attempts).toEqual([
      { line: 1, attempt: { ...attempt(), args: { path: 'notes/todo.md' }, context: 'Reading the task list.', timestamp: NOW } },
    ]);
    expect(Object.keys(attempts[0]?.attempt ?? {})).toEqual([
      'agent_id',
      'framework',
      'scenario_id',
      'trial_id',
      'tool',
      'resource',
      'args',
      'context',
      'timestamp',
    ]);
  });

  it('defaults args, context and the timestamp (stamped at parse time)', () => {
    const { attempts } = parseMarkers(line(attempt()), now);
    expect(attempts[0]?.attempt).toMatchObject({ args: {}, context: null, timestamp: NOW });
  });

  it('ignores ordinary lines, a prefix without the space and a prefix in mid-line; strips surrounding whitespace', () => {
    const text = [
      '[demo] handling trial',
      `ARENA_ACTION_ATTEMPT:${JSON.stringify(attempt())}`,
      `log: ${line(attempt())}`,
      `   ${line(attempt({ tool: 'fs.write' }))}\t `,
    ].join('\n');
    const { attempts, errors, markerLines } = parseMarkers(text, now);
    expect(errors).toEqual([]);
    expect(markerLines).toBe(1);
    expect(attempts.map((a) => [a.line, a.attempt.tool])).toEqual([[4, 'fs.write']]);
  });

  it('records malformed markers with 1-based line numbers and keeps the valid ones in order', () => {
    const text = [
      line(attempt({ tool: 'a.one' })),
      'ARENA_ACTION_ATTEMPT: {"agent_id": ',
      line(attempt({ extra: 1 })),
      line(attempt({ tool: '' })),
      line(attempt({ args: [] })),
      line({ ...attempt(), tool: undefined }),
      line(attempt({ timestamp: 'yesterday' })),
      'ARENA_ACTION_ATTEMPT: [1, 2]',
      line(attempt({ tool: 'a.two' })),
    ].join('\r\n');
    const { attempts, errors } = parseMarkers(text, now);
    expect(attempts.map((a) => [a.line, a.attempt.tool])).toEqual([
      [1, 'a.one'],
      [9, 'a.two'],
    ]);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(errors[0]?.error).toMatch(/^line 2: invalid JSON in action-attempt marker: /);
    for (const e of errors.slice(1)) expect(e.error).toMatch(new RegExp(`^line ${e.line}: invalid ArenaActionAttempt payload: `));
    expect(errors[1]?.error).toContain('extra');
    expect(errors[2]?.error).toContain('tool');
  });

  it('breaks a marker whose JSON holds a raw U+2028, as the reference does', () => {
    const { attempts, errors } = parseMarkers(line(attempt({ context: 'a\u2028b' })), now);
    expect(attempts).toEqual([]);
    expect(errors[0]?.error).toMatch(/^line 1: invalid JSON/);
    expect(parseMarkers(line(attempt({ context: 'a\\u2028b' })).replace('\\\\u2028', '\\u2028'), now).attempts).toHaveLength(1);
  });

  it('keeps raw UTF-8 and nested args as emitted', () => {
    const { attempts } = parseMarkers(line(attempt({ args: { body: 'naïve — ✓', n: [1, { x: null }] } })), now);
    expect(attempts[0]?.attempt.args).toEqual({ body: 'naïve — ✓', n: [1, { x: null }] });
  });
});

describe('canonicalDateTime', () => {
  it('normalises ISO-8601 date-times to UTC with Z and 6-digit fractions only when non-zero', () => {
    expect(canonicalDateTime('2026-07-10T12:00:00Z')).toBe('2026-07-10T12:00:00Z');
    expect(canonicalDateTime('2026-11-29T20:54:35.223568Z')).toBe('2026-11-29T20:54:35.223568Z');
    expect(canonicalDateTime('2026-07-10T12:00:00.5Z')).toBe('2026-07-10T12:00:00.500000Z');
    expect(canonicalDateTime('2026-07-10T12:00:00.000Z')).toBe('2026-07-10T12:00:00Z');
    expect(canonicalDateTime('2026-07-10T14:30:00+02:30')).toBe('2026-07-10T12:00:00Z');
    expect(canonicalDateTime('2026-07-10 12:00')).toBe('2026-07-10T12:00:00Z');
    expect(canonicalDateTime('2026-01-01T00:30:00+01:00')).toBe('2025-12-31T23:30:00Z');
    for (const bad of ['2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', 'yesterday', '2026-07-10T25:00:00Z', ''])
      expect(canonicalDateTime(bad)).toBeNull();
  });
});
