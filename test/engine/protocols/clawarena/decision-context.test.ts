// Canonical JSON, decision_context v2 stable ids, checksums and session deltas against hand-computed values
// (the expected digests were computed with Python's hashlib from the literal canonical strings below).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyDelta, computeDelta, stableId, stateChecksum } from '../../../../engine/protocols/clawarena/decision-context.js';
import { canonicalJson } from '../../../../engine/runtime/canonical-json.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('canonical JSON', () => {
  it('sorts keys by code point, keeps arrays, writes 1.0 as 1, -0 as 0, and leaves non-ASCII raw', () => {
    const value = { b: 1, a: [true, null, 1.5, 1.0], é: 'ü\n', '\u{1F600}': 0, '\uE000': 0, Z: -0 };
    const expected = '{"Z":0,"a":[true,null,1.5,1],"b":1,"é":"ü\\n","\uE000":0,"\u{1F600}":0}';
    expect(canonicalJson(value)).toBe(expected);
    expect(sha(expected)).toBe('18c60ea87c9598e1e5a918dd6bf72becd30e943a336e901ac930cb777e3c8838');
  });

  it('escapes only what JSON requires', () => {
    expect(canonicalJson({ s: 'a"b\\c\u0001\u007f/é' })).toBe('{"s":"a\\"b\\\\c\\u0001\u007f/é"}');
    expect(canonicalJson([1e21, 0.1, -5])).toBe('[1e+21,0.1,-5]');
    expect(() => canonicalJson({ x: Number.NaN })).toThrow();
  });
});

describe('decision_context v2', () => {
  const content = {
    game_type: 'liars_dice',
    rules: { title: 'T', rules: ['r1'] },
    strategy: null,
    user_preferences: { strategy_hint: null, risk_profile: 'balanced' },
    message_language: null,
  };

  it('stable.id is dc2- plus 24 hex of SHA-256 over the canonical five-field object', () => {
    const canonical =
      '{"game_type":"liars_dice","message_language":null,"rules":{"rules":["r1"],"title":"T"},"strategy":null,"user_preferences":{"risk_profile":"balanced","strategy_hint":null}}';
    expect(canonicalJson(content)).toBe(canonical);
    expect(stableId(content)).toBe('dc2-4bcac20be2bfe7e66d8c3d4b');
  });

  it('stable.id changes iff one of the five fields changes', () => {
    const base = stableId(content);
    expect(stableId({ ...content, rules: { rules: ['r1'], title: 'T' } })).toBe(base);
    expect(stableId({ ...content, message_language: 'German' })).not.toBe(base);
    expect(stableId({ ...content, user_preferences: { strategy_hint: 'bluff', risk_profile: 'balanced' } })).not.toBe(base);
    expect(stableId({ ...content, strategy: { objective: 'o', priorities: [], cautions: [] } })).not.toBe(base);
  });

  it('state_checksum is sha256: plus the hex digest of the canonical state', () => {
    const state = { your_dice: [1, 2, 3], last_bid: { quantity: 2, face: 3 }, finished: false };
    expect(stateChecksum(state)).toBe('sha256:869f9638ae43eaefbafe77280d3835cf2bed8ba1d6c45acb0f8d18d4091fda5c');
  });

  it('computes top-level deltas with _appended, _literal and sorted removals, and they apply back exactly', () => {
    const base = {
      bid_history: [{ q: 1 }],
      last_bid: { quantity: 1, face: 2 },
      same: [1, 2],
      shrunk: [1, 2, 3],
      gone_b: 1,
      gone_a: 2,
      rewritten: [9, 9],
    };
    const current = {
      bid_history: [{ q: 1 }, { q: 2 }],
      last_bid: { quantity: 2, face: 2 },
      same: [1, 2],
      shrunk: [1, 2],
      rewritten: [8, 9, 9],
      tricky: { _appended: [1] },
      tricky2: { _literal: 'x' },
      fresh: 'new',
    };
    const { delta, removed } = computeDelta(base, current);
    expect(delta).toEqual({
      bid_history: { _appended: [{ q: 2 }] },
      last_bid: { quantity: 2, face: 2 },
      shrunk: [1, 2],
      rewritten: [8, 9, 9],
      tricky: { _literal: { _appended: [1] } },
      tricky2: { _literal: { _literal: 'x' } },
      fresh: 'new',
    });
    expect(removed).toEqual(['gone_a', 'gone_b']);
    const rebuilt = applyDelta(base, delta, removed);
    expect(canonicalJson(rebuilt)).toBe(canonicalJson(current));
    expect(stateChecksum(rebuilt)).toBe(stateChecksum(current));
    expect(computeDelta(current, current)).toEqual({ delta: {}, removed: [] });
    expect(() => applyDelta({ x: 1 }, { x: { _appended: [2] } }, [])).toThrow();
  });
});
