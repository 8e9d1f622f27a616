// Output is inert: control characters and bidi overrides become visible escapes; JSON keeps its values; a CSV text
// cell never starts a formula.
import { describe, expect, it } from 'vitest';
import { csvText, inertJson, inertText } from '../../../engine/core/inert-text.js';

const HOSTILE = '\x1b[2J\x07bell\rover \u202egpj.exe\u2066iso\u2069 \x9b31m tab\there\nline';

describe('inert text', () => {
  it('escapes C0 (but tab and newline), DEL, C1 and bidi controls', () => {
    expect(inertText(HOSTILE)).toBe('\\x1b[2J\\x07bell\\rover \\u202egpj.exe\\u2066iso\\u2069 \\x9b31m tab\there\nline');
    expect(inertText('plain ünïcode 名前 text')).toBe('plain ünïcode 名前 text');
  });

  it('JSON: the same characters as \\u escapes, parsing back to the same value', () => {
    const json = inertJson(JSON.stringify({ detail: HOSTILE }));
    expect([...json].filter((c) => inertText(c) !== c)).toEqual([]);
    expect(JSON.parse(json)).toEqual({ detail: HOSTILE });
  });

  it('CSV: formula prefixes get a leading quote, numbers stay numbers, quoting per RFC 4180', () => {
    expect(csvText('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(['+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx'].map(csvText)).toEqual(["'+cmd", "'-2+3", "'@SUM(A1)", "'\tx", "'\\rx"]);
    expect(['-1.5', '+3', '1e5', 'ok', 'a,b'].map(csvText)).toEqual(['-1.5', '+3', '1e5', 'ok', '"a,b"']);
  });
});
