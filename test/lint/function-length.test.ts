// No function a reader cannot hold in mind: every function (React components too) in the app's source over 120 lines
// either carries a "Kept whole: <why>" comment just above it, or is on the short PENDING list below, which may only
// shrink. The scan is the TypeScript compiler's own parser (scripts/function-lengths.mjs); a probe tree proves the
// check catches a long function, accepts one with a reason and still sees one wrapped in a component helper.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FunctionLength, longFunctions, MAX_LINES, REASON_MARKER, scanFunctions } from '../../scripts/function-lengths.mjs';

/**
 * Long functions whose owners were changing them while the rest were split (splitting them at the same time would
 * have collided); each is held to its current length so it cannot grow, and leaves this list once split.
 */
const PENDING: { file: string; name: string; lines: number }[] = [];

const key = (f: { file: string; name: string }) => `${f.file} ${f.name}`;

let functions: FunctionLength[];
beforeAll(() => {
  functions = scanFunctions();
});

describe('function length', () => {
  it('the scan sees the source tree (a sanity floor, so an empty scan cannot pass)', () => {
    expect(functions.length).toBeGreaterThan(1000);
    expect(functions.some((f) => f.file === 'engine/tournaments/run/specarena-game.ts' && f.name === 'playGame')).toBe(true);
    expect(functions.some((f) => f.file.startsWith('renderer/src/') && f.file.endsWith('.tsx'))).toBe(true);
  });

  it(`every function over ${MAX_LINES} lines says why it is kept whole, or is pending and not growing`, () => {
    const pending = new Map(PENDING.map((p) => [key(p), p]));
    const problems: string[] = [];
    for (const f of longFunctions(functions)) {
      if (f.reason) continue;
      const allowed = pending.get(key(f));
      if (!allowed) {
        problems.push(
          `${f.file}:${f.line} ${f.name} is ${f.lines} lines: split it into named steps, or say why above it ("// ${REASON_MARKER} ...")`,
        );
      } else if (f.lines > allowed.lines) {
        problems.push(`${f.file}:${f.line} ${f.name} grew to ${f.lines} lines (pending split at ${allowed.lines})`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('a pending entry leaves the list once its function is split', () => {
    const long = new Set(longFunctions(functions).map(key));
    const stale = PENDING.filter((p) => !long.has(key(p))).map(key);
    expect(stale, `no longer over ${MAX_LINES} lines (remove from PENDING): ${stale.join(', ')}`).toEqual([]);
  });
});

describe('the check on a probe tree', () => {
  let dir: string;
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-function-length-'));
    fs.mkdirSync(path.join(dir, 'engine'));
    fs.writeFileSync(
      path.join(dir, 'engine', 'probe.ts'),
      [
        `export function tooLong() {\n${body(130)}\n}`,
        `// ${REASON_MARKER} a flat table of probe values, one per line`,
        `export function explained() {\n${body(130)}\n}`,
        `export function short() {\n${body(10)}\n}`,
        `// ${REASON_MARKER}`,
        `export function emptyReason() {\n${body(130)}\n}`,
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(dir, 'engine', 'view.tsx'),
      `export const View = memo(function View() {\n${body(125)}\n  return <div />;\n});\n`,
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('flags the long ones without a reason, by name and length, and passes the rest', () => {
    const long = longFunctions(scanFunctions(dir, ['engine']));
    const byName = new Map(long.map((f) => [f.name, f]));
    expect([...byName.keys()].sort()).toEqual(['View', 'emptyReason', 'explained', 'tooLong']);
    expect(byName.get('tooLong')).toMatchObject({ file: 'engine/probe.ts', line: 1, lines: 132, reason: undefined });
    expect(byName.get('explained')?.reason).toBe('a flat table of probe values, one per line');
    expect(byName.get('emptyReason')?.reason).toBeUndefined();
    expect(byName.get('View')?.lines).toBe(128);
  });
});
