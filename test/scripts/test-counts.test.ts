// The closing line of `npm test` (scripts/test-counts.mjs) from real runner reports: real vitest and real Playwright
// run on probe files in a temp folder (one whose import throws, one failing test, an unhandled error), and their JSON
// reports are counted. A file that fails to load must be a counted failure, and the line must agree with the exit code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCounts, playwrightCounts, summarize, vitestCounts } from '../../scripts/test-counts.mjs';
import { runNode } from '../support/run-node.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const PLAYWRIGHT = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
// The probes get a bare environment so the outer vitest's worker variables do not leak into the inner runs.
const ENV = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function probeDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-test-counts-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** Runs real vitest on the probe files (globals, so they import nothing) and returns its JSON report and exit code. */
async function vitestOn(files: Record<string, string>) {
  const dir = probeDir({ 'vitest.config.mjs': "export default { test: { globals: true, include: ['*.test.mjs'] } };\n", ...files });
  const out = path.join(dir, 'report.json');
  const run = await runNode([VITEST, 'run', '--root', dir, '--reporter=json', `--outputFile.json=${out}`], {
    cwd: dir,
    env: ENV,
    timeoutMs: 60_000,
  });
  return { report: JSON.parse(fs.readFileSync(out, 'utf8')), code: run.code, relative: (f: string) => path.relative(dir, f) };
}

const BOOM = "throw new Error('probe import failure');\n";

describe('vitest counts', () => {
  it('counts a test file whose import throws as a failure, beside a failing, a passing and a skipped test', async () => {
    const { report, code, relative } = await vitestOn({
      'boom.test.mjs': BOOM,
      'mixed.test.mjs': "it('passes', () => {});\nit('fails', () => expect(1).toBe(2));\nit.skip('skipped', () => {});\n",
    });
    expect(code).toBe(1);
    // vitest itself counts only the one failing test: the file that never ran has no test in numFailedTests.
    expect(report.numFailedTests).toBe(1);
    const counts = vitestCounts(report, code, relative);
    expect(counts).toMatchObject({ passed: 1, failed: 2, skipped: 1 });
    expect(counts.problems).toEqual(['vitest: boom.test.mjs failed to run: probe import failure']);
    const summary = summarize([counts]);
    expect(summary.line).toBe('1 passed, 2 failed, 1 skipped');
    expect(summary.exitCode).toBe(1);
  });

  it('a run where only an import fails says 1 failed, not 0', async () => {
    const { report, code, relative } = await vitestOn({ 'boom.test.mjs': BOOM, 'ok.test.mjs': "it('passes', () => {});\n" });
    expect(report.numFailedTests).toBe(0);
    const summary = summarize([vitestCounts(report, code, relative)]);
    expect(summary.line).toBe('1 passed, 1 failed, 0 skipped');
    expect(summary.exitCode).toBe(1);
  });

  it('a non-zero exit with a clean report (an unhandled error) is one failure', async () => {
    const { report, code } = await vitestOn({
      'late.test.mjs':
        "it('passes, then throws', async () => {\n  setTimeout(() => { throw new Error('late'); }, 1);\n  await new Promise((r) => setTimeout(r, 50));\n});\n",
    });
    expect(report.success).toBe(true);
    expect(code).not.toBe(0);
    const counts = vitestCounts(report, code);
    expect(counts).toMatchObject({ passed: 1, failed: 1 });
    expect(counts.problems[0]).toMatch(/^vitest exited 1 with no failed test/);
  });

  it('a clean run counts no failure and exits 0', async () => {
    const { report, code } = await vitestOn({ 'ok.test.mjs': "it('a', () => {});\nit.todo('b');\n" });
    expect(code).toBe(0);
    const summary = summarize([vitestCounts(report, code)]);
    expect(summary).toMatchObject({ line: '1 passed, 0 failed, 1 skipped', exitCode: 0, problems: [] });
  });

  it('a missing report is a failure', () => {
    expect(vitestCounts(null, 1)).toEqual({ passed: 0, failed: 1, skipped: 0, problems: ['vitest wrote no report'] });
  });
});

describe('Playwright counts', () => {
  it('counts the global error of a spec whose import throws as a failure', async () => {
    const dir = probeDir({
      'playwright.config.mjs': "export default { testDir: '.', testMatch: '*.spec.mjs', workers: 1 };\n",
      'boom.spec.mjs': BOOM,
    });
    const out = path.join(dir, 'report.json');
    const run = await runNode([PLAYWRIGHT, 'test', '-c', path.join(dir, 'playwright.config.mjs'), '--reporter=json'], {
      cwd: dir,
      env: { ...ENV, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
      timeoutMs: 60_000,
    });
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(report.stats.unexpected).toBe(0);
    const counts = playwrightCounts('playwright (probe)', report, run.code);
    expect(counts.failed).toBe(report.errors.length);
    expect(counts.failed).toBeGreaterThanOrEqual(1);
    expect(counts.problems).toContain('playwright (probe): global error: Error: probe import failure');
    expect(summarize([counts]).exitCode).toBe(1);
  });

  it('a non-zero exit with a clean report, or no report, is a failure', () => {
    const clean = { stats: { expected: 3, unexpected: 0, flaky: 1, skipped: 2 }, errors: [] };
    expect(playwrightCounts('e2e', clean, 0)).toEqual({ passed: 4, failed: 0, skipped: 2, problems: [] });
    expect(playwrightCounts('e2e', clean, 1)).toMatchObject({
      passed: 4,
      failed: 1,
      problems: ['e2e exited 1 with no failed test in its report'],
    });
    expect(playwrightCounts('e2e', null, 0)).toMatchObject({ failed: 1, problems: ['e2e wrote no report'] });
  });
});

describe('summary', () => {
  it('a failed check is a counted failure, so the line never says 0 failed with a failing exit', () => {
    const summary = summarize([
      checkCounts('lint (biome)', false),
      checkCounts('build', true),
      { passed: 5, failed: 0, skipped: 1, problems: [] },
    ]);
    expect(summary).toMatchObject({ line: '5 passed, 1 failed, 1 skipped', exitCode: 1, problems: ['lint (biome) failed'] });
    expect(summarize([checkCounts('build', true)])).toMatchObject({ line: '0 passed, 0 failed, 0 skipped', exitCode: 0 });
  });
});
