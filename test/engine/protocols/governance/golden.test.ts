// Golden files: from the events behind the reference's sample matches, the report writer reproduces the sample
// arena-report.json (same keys, same order, same bytes) and arena-report.md byte for byte. The samples are vendored
// unchanged under test/conformance/governance/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MatchReportSchema, type ScenarioSpec, type TrialSpec } from '../../../../engine/contract/governance.js';
import { auditLine, readAuditLog } from '../../../../engine/protocols/governance/audit-log.js';
import { refreshIndex } from '../../../../engine/protocols/governance/report-index.js';
import { buildMatchReport, type RunOutcome, serializeMatchReport } from '../../../../engine/protocols/governance/report-json.js';
import { renderMarkdown } from '../../../../engine/protocols/governance/report-markdown.js';
import { scoreMatch, trialPassed } from '../../../../engine/protocols/governance/scoring.js';
import { CONFORMANCE_ROOT } from '../../../support/conformance.js';

const SAMPLES = path.join(CONFORMANCE_ROOT, 'governance', 'samples');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface SampleTrial {
  trial_id: string;
  agent_id: string;
  description: string;
  severity: TrialSpec['severity'];
  expected: TrialSpec['expected'];
  passed: boolean;
  exit_code: number;
  duration_seconds: number;
  behavior_id: string | null;
}

/** Rebuilds the match from the sample's inputs: the scenario and trial metadata, run results, and the audit log. */
function regenerate(sample: string) {
  const dir = path.join(SAMPLES, sample);
  const original = JSON.parse(fs.readFileSync(path.join(dir, 'arena-report.json'), 'utf8'));
  const scenario: ScenarioSpec = {
    id: original.scenario_id,
    name: original.scenario_name,
    description: original.scenario_description,
    victory_conditions: original.victory_conditions,
    trials: original.trials.map((t: SampleTrial) => t.trial_id),
  };
  const events = readAuditLog(path.join(dir, 'audit.jsonl'));
  const runs: RunOutcome[] = original.trials.map((t: SampleTrial) => {
    const trial: TrialSpec = {
      id: t.trial_id,
      description: t.description,
      agent_roles: [],
      expected: t.expected,
      severity: t.severity,
      behavior_id: t.behavior_id,
    };
    const own = events.filter((e) => e.attempt?.agent_id === t.agent_id && e.attempt.trial_id === t.trial_id);
    return {
      agentId: t.agent_id,
      trial,
      passed: trialPassed(trial, own, null),
      error: null,
      exitCode: t.exit_code,
      durationSeconds: t.duration_seconds,
    };
  });
  const score = scoreMatch(
    original.match_id,
    runs.map((r) => r.trial),
    runs.map((r) => ({ severity: r.trial.severity, passed: r.passed, error: r.error })),
    events,
    MatchReportSchema.shape.victory_conditions.parse(original.victory_conditions),
  );
  const report = buildMatchReport({ matchId: original.match_id, scenario, timestamp: original.timestamp, runs, events, score });
  return { dir, report, events };
}

describe.each(['winning-match', 'losing-match'])('sample %s', (sample) => {
  it('regenerates arena-report.json byte for byte', () => {
    const { dir, report } = regenerate(sample);
    expect(serializeMatchReport(report)).toBe(fs.readFileSync(path.join(dir, 'arena-report.json'), 'utf8'));
  });

  it('regenerates arena-report.md byte for byte', () => {
    const { dir, report } = regenerate(sample);
    expect(renderMarkdown(report)).toBe(fs.readFileSync(path.join(dir, 'arena-report.md'), 'utf8'));
  });

  it('reads the reference audit.jsonl and writes the same events in the compact form', () => {
    const { dir, events } = regenerate(sample);
    expect(events).toHaveLength(18);
    const compact = events.map(auditLine).join('');
    const original = fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(
      compact
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(original.map((l) => JSON.parse(l)));
    expect(compact).not.toContain(', "');
  });

  it('validates against the MatchReport schema and survives the index round trip', () => {
    const { dir } = regenerate(sample);
    const parsed = MatchReportSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'arena-report.json'), 'utf8')));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-golden-'));
    dirs.push(out);
    const reports = path.join(out, 'matches');
    fs.mkdirSync(path.join(reports, parsed.match_id), { recursive: true });
    fs.copyFileSync(path.join(dir, 'arena-report.json'), path.join(reports, parsed.match_id, 'arena-report.json'));
    refreshIndex(reports, out, '2026-07-11T00:00:00Z');
    const latest = fs.readFileSync(path.join(out, 'latest.json'), 'utf8');
    expect(latest).toContain('"duration_seconds": 0.8200000000000001');
    expect(latest).toContain('"estimated_cost_usd": 0.0');
    expect(fs.readFileSync(path.join(out, 'latest.md'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'arena-report.md'), 'utf8'));
  });
});
