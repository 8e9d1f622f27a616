// `npm test`: lint, type-check, build, then every test layer (vitest, Playwright + Chromium, Electron specs that
// skip without a binary); prints one closing line `N passed, N failed, N skipped` summed over all runners.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'test-results', 'reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });
const bin = (...parts) => path.join(root, 'node_modules', ...parts);

function step(name, args, env = {}) {
  process.stdout.write(`\n=== ${name}\n`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

const checks = [
  ['lint (biome)', [bin('@biomejs', 'biome', 'bin', 'biome'), 'check', '.']],
  ['typecheck', [bin('typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']],
  ['typecheck (std layer)', [bin('typescript', 'bin', 'tsc'), '-p', 'tsconfig.std.json']],
  ...(fs.existsSync(path.join(root, 'tsconfig.renderer.json'))
    ? [
        ['typecheck (renderer)', [bin('typescript', 'bin', 'tsc'), '-p', 'tsconfig.renderer.json']],
        ['typecheck (renderer build config)', [bin('typescript', 'bin', 'tsc'), '-p', 'renderer/tsconfig.node.json']],
      ]
    : []),
  ['build', ['scripts/build.mjs']],
];
for (const [name, args] of checks) if (!step(name, args)) problems.push(`${name} failed`);

// vitest
const vitestReport = path.join(reports, 'vitest.json');
step('vitest', [bin('vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
if (fs.existsSync(vitestReport)) {
  const r = JSON.parse(fs.readFileSync(vitestReport, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests + (r.numRuntimeErrorTests ?? 0);
  totals.skipped += r.numPendingTests + r.numTodoTests;
  if (r.numFailedTestSuites > 0 && r.numFailedTests === 0) problems.push(`vitest: ${r.numFailedTestSuites} test files failed to run`);
} else problems.push('vitest wrote no report');

// Playwright layers: browser end-to-end and Electron (the latter skips itself without an Electron binary).
function countPlaywright(file) {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const s = r.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
  if ((r.errors ?? []).length > 0) problems.push(`${path.basename(file)}: ${r.errors.length} global errors`);
}
for (const [name, config] of [
  ['playwright (e2e, Chromium)', 'playwright.config.ts'],
  ['playwright (Electron)', 'playwright.electron.config.ts'],
]) {
  if (!fs.existsSync(path.join(root, config))) continue;
  const report = path.join(reports, `${path.basename(config, '.ts')}.json`);
  step(name, [bin('@playwright', 'test', 'cli.js'), 'test', '-c', config, '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  if (fs.existsSync(report)) countPlaywright(report);
  else problems.push(`${name} wrote no report`);
}

for (const p of problems) process.stdout.write(`problem: ${p}\n`);
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exitCode = totals.failed > 0 || problems.length > 0 ? 1 : 0;
