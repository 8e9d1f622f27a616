// Turns each runner's outcome into `{ passed, failed, skipped, problems }` for the closing line of `npm test`. Every
// reason for a non-zero exit is a counted failure, so "0 failed" always comes with exit 0 and the reverse.

const firstLine = (text) =>
  String(text ?? '')
    .trim()
    .split('\n')[0] || 'no message';

/** A check (lint, a type-check, the build): one failure when it exits non-zero. */
export function checkCounts(name, ok) {
  return ok ? { passed: 0, failed: 0, skipped: 0, problems: [] } : { passed: 0, failed: 1, skipped: 0, problems: [`${name} failed`] };
}

/**
 * vitest's JSON report (or null when it wrote none) and its exit code. A file that fails without a failed test in it
 * (an import that throws, a failing hook) is one failure; a non-zero exit with nothing failed in the report (an
 * unhandled error) is one more.
 */
export function vitestCounts(report, exitCode, relative = (file) => file) {
  if (!report) return { passed: 0, failed: 1, skipped: 0, problems: ['vitest wrote no report'] };
  const problems = [];
  let failed = report.numFailedTests;
  for (const file of report.testResults ?? []) {
    if (file.status !== 'failed' || (file.assertionResults ?? []).some((t) => t.status === 'failed')) continue;
    failed += 1;
    problems.push(`vitest: ${relative(file.name)} failed to run: ${firstLine(file.message)}`);
  }
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    problems.push(`vitest exited ${exitCode} with no failed test in its report (an unhandled error?)`);
  }
  return { passed: report.numPassedTests, failed, skipped: report.numPendingTests + report.numTodoTests, problems };
}

/** A Playwright JSON report (or null) and exit code: each global error (a spec that fails to load, …) is a failure. */
export function playwrightCounts(name, report, exitCode) {
  if (!report) return { passed: 0, failed: 1, skipped: 0, problems: [`${name} wrote no report`] };
  const s = report.stats ?? {};
  const errors = report.errors ?? [];
  const problems = errors.map((e) => `${name}: global error: ${firstLine(e.message)}`);
  let failed = (s.unexpected ?? 0) + errors.length;
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    problems.push(`${name} exited ${exitCode} with no failed test in its report`);
  }
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed, skipped: s.skipped ?? 0, problems };
}

/** Sums runner counts into the closing line and the exit code, which agree by construction. */
export function summarize(parts) {
  const total = { passed: 0, failed: 0, skipped: 0, problems: [] };
  for (const p of parts) {
    total.passed += p.passed;
    total.failed += p.failed;
    total.skipped += p.skipped;
    total.problems.push(...p.problems);
  }
  return {
    ...total,
    line: `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`,
    exitCode: total.failed > 0 ? 1 : 0,
  };
}
