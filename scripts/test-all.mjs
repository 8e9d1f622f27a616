// `npm test`: lint, type-check, build, then every test layer (vitest, Playwright + Chromium, Electron specs that
// skip without a binary); prints one closing line `N passed, N failed, N skipped` summed over all runners, whose
// failed count is non-zero exactly when the exit code is (see test-counts.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { checkCounts, playwrightCounts, summarize, vitestCounts } from './test-counts.mjs';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'test-results', 'reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });
const bin = (...parts) => path.join(root, 'node_modules', ...parts);

function step(name, args, env = {}) {
  process.stdout.write(`\n=== ${name}\n`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status;
}
const readReport = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);

const parts = [];

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
for (const [name, args] of checks) parts.push(checkCounts(name, step(name, args) === 0));

// vitest
const vitestReport = path.join(reports, 'vitest.json');
const vitestExit = step('vitest', [
  bin('vitest', 'vitest.mjs'),
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
parts.push(vitestCounts(readReport(vitestReport), vitestExit, (file) => path.relative(root, file)));

// Playwright layers: browser end-to-end and Electron (the latter skips itself without an Electron binary).
for (const [name, config] of [
  ['playwright (e2e, Chromium)', 'playwright.config.ts'],
  ['playwright (Electron)', 'playwright.electron.config.ts'],
]) {
  if (!fs.existsSync(path.join(root, config))) continue;
  const report = path.join(reports, `${path.basename(config, '.ts')}.json`);
  const exit = step(name, [bin('@playwright', 'test', 'cli.js'), 'test', '-c', config, '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  parts.push(playwrightCounts(name, readReport(report), exit));
}

const summary = summarize(parts);
for (const p of summary.problems) process.stdout.write(`problem: ${p}\n`);
process.stdout.write(`\n${summary.line}\n`);
process.exitCode = summary.exitCode;
