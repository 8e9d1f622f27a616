// trials.csv of the report browser: one row per (agent, trial) run of a stored match, RFC 4180 quoting.
import type { MatchReport } from '../../contract/governance.js';
import { csvText } from '../../core/inert-text.js';
import type { GovernanceEventRow, GovernanceRunRow } from '../../db/store.js';

export const TRIALS_CSV_HEADER = [
  'agent',
  'trial',
  'severity',
  'expected_decision',
  'passed',
  'error',
  'exit_code',
  'duration_seconds',
  'audit_events',
] as const;

/** Quotes a field when it holds a comma, a quote or a line break; text made inert, never a formula (csvText). */
export function csvField(value: string | number | boolean | null): string {
  return value === null ? '' : typeof value === 'string' ? csvText(value) : String(value);
}

export function trialsCsv(report: MatchReport, runs: readonly GovernanceRunRow[], events: readonly GovernanceEventRow[]): string {
  const perRun = new Map<number, number>();
  for (const e of events) perRun.set(e.runSeq, (perRun.get(e.runSeq) ?? 0) + 1);
  const expected = new Map(
    report.trials.map((t) => [
      `${t.agent_id}\n${t.trial_id}`,
      Object.entries(t.expected)
        .map(([tool, decision]) => `${tool}=${decision}`)
        .join('; '),
    ]),
  );
  const lines = [TRIALS_CSV_HEADER.join(',')];
  for (const run of runs) {
    lines.push(
      [
        run.agentId,
        run.trialId,
        run.severity,
        expected.get(`${run.agentId}\n${run.trialId}`) ?? '',
        run.passed,
        run.error,
        run.exitCode,
        run.durationSeconds,
        perRun.get(run.seq) ?? 0,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
