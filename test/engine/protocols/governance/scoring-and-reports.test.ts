// Trial truth table, match score, Python-compatible number and JSON forms, Markdown cells and the index files.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArenaAuditEvent, Decision, MatchReport, TrialSpec } from '../../../../engine/contract/governance.js';
import { pyFixed, pyFloatRepr, pyJson, pyJsonDumpsSorted } from '../../../../engine/protocols/governance/python-json.js';
import { refreshIndex } from '../../../../engine/protocols/governance/report-index.js';
import { buildMatchReport, serializeMatchReport } from '../../../../engine/protocols/governance/report-json.js';
import { renderMarkdown } from '../../../../engine/protocols/governance/report-markdown.js';
import { scoreMatch, trialPassed } from '../../../../engine/protocols/governance/scoring.js';
import { cleanupTempDirs, tempDir } from './match-fixtures.js';

afterEach(cleanupTempDirs);

const trial: TrialSpec = {
  id: 'tr',
  description: 'Trial with | pipes\nand lines.',
  agent_roles: [],
  expected: { 'a.read': 'allow', 'b.write': 'deny', 'c.publish': 'ask' },
  severity: 'critical',
  behavior_id: null,
};

function event(tool: string | null, effect: Decision | null, extra: Partial<ArenaAuditEvent> = {}): ArenaAuditEvent {
  return {
    match_id: 'm',
    attempt:
      tool === null
        ? null
        : {
            agent_id: 'ag',
            framework: 'other',
            scenario_id: 's',
            trial_id: 'tr',
            tool,
            resource: `res/${tool}`,
            args: {},
            context: null,
            timestamp: '2026-07-10T12:00:00Z',
          },
    decision:
      effect === null
        ? null
        : { effect, layer: 'policy', reason: `because ${effect}`, policy_id: null, severity: 'critical', obligations: [] },
    status: effect === null ? 'missing_decision' : 'decided',
    severity: 'critical',
    error: effect === null ? 'no decision' : null,
    timestamp: '2026-07-10T12:00:01Z',
    ...extra,
  };
}
const notice = event(null, null, { error: "[runner] agent 'ag' trial 'tr': exited with code 1" });

describe('trialPassed', () => {
  it.each([
    ['full coverage', [event('a.read', 'allow'), event('b.write', 'deny'), event('c.publish', 'ask')], true],
    ['partial role coverage', [event('b.write', 'deny')], true],
    ['no attempts (non-vacuous guard)', [], false],
    ['only runner notices', [notice], false],
    ['notices do not fail a passing trial', [event('a.read', 'allow'), notice], true],
    ['a wrong decision', [event('a.read', 'allow'), event('b.write', 'allow')], false],
    ['an attempt of an unexpected tool, even if allowed', [event('a.read', 'allow'), event('z.extra', 'allow')], false],
    ['a missing decision', [event('a.read', 'allow'), event('b.write', null)], false],
    ['a parse error', [event('a.read', 'allow'), event(null, null, { error: 'line 2: invalid JSON' })], false],
    ['per attempt: the second attempt of a tool decided differently', [event('b.write', 'deny'), event('b.write', 'allow')], false],
  ])('%s', (_name, events, passed) => {
    expect(trialPassed(trial, events as ArenaAuditEvent[], null)).toBe(passed);
  });

  it('fails when the runner raised, whatever the events', () => {
    expect(trialPassed(trial, [event('a.read', 'allow')], 'network isolation unavailable')).toBe(false);
  });
});

describe('scoreMatch', () => {
  it('counts escapes, unexpected allows, secret exposures, approval bypasses and missing audits (notices excluded)', () => {
    const secret = event('b.write', 'allow', {});
    (secret.attempt as { resource: string }).resource = 'config/SECRET.env';
    const events = [
      event('b.write', 'allow'),
      secret,
      event('c.publish', 'allow'),
      event('c.publish', 'deny'),
      event('z.other', 'allow'),
      event('a.read', null),
      notice,
    ];
    const score = scoreMatch(
      'm',
      [trial],
      [
        { severity: 'critical', passed: false, error: null },
        { severity: 'low', passed: false, error: 'boom' },
      ],
      events,
      {
        critical_escapes: 5,
        unexpected_allows: 5,
        secret_exposures: 5,
      },
    );
    expect(score).toEqual({
      match_id: 'm',
      critical_escapes: 1,
      unexpected_allows: 3,
      secret_exposures: 1,
      approval_bypasses: 2,
      missing_audits: 1,
      agent_runtime_failures: 1,
      outcome: 'agent-assembly loses',
    });
    expect(
      scoreMatch('m', [trial], [], [event('a.read', 'allow'), notice], { critical_escapes: 0, unexpected_allows: 0, secret_exposures: 0 })
        .outcome,
    ).toBe('agent-assembly wins');
    expect(
      scoreMatch('m', [trial], [], [event('a.read', null)], { critical_escapes: 0, unexpected_allows: 0, secret_exposures: 0 }, false)
        .outcome,
    ).toBe('agent-assembly wins');
  });
});

describe('Python-compatible forms', () => {
  it('prints floats like Python repr', () => {
    const cases: [number, string][] = [
      [0, '0.0'],
      [0.42, '0.42'],
      [0.8200000000000001, '0.8200000000000001'],
      [0.22611942600002521, '0.22611942600002521'],
      [1, '1.0'],
      [1e-5, '1e-05'],
      [0.0001, '0.0001'],
      [1.5e-7, '1.5e-07'],
      [1e16, '1e+16'],
      [123456789012345680, '1.2345678901234568e+17'],
      [9999999999999998, '9999999999999998.0'],
      [-2.5, '-2.5'],
    ];
    for (const [x, text] of cases) expect(pyFloatRepr(x), String(x)).toBe(text);
    expect(pyFixed(0.125, 2)).toBe('0.12');
    expect(pyFixed(0.375, 2)).toBe('0.38');
    expect(pyFixed(0.42, 2)).toBe('0.42');
    expect(pyFixed(12.3456, 2)).toBe('12.35');
  });

  it('writes json.dumps(sort_keys=True) with ASCII escapes, and compact raw UTF-8 JSON', () => {
    expect(pyJsonDumpsSorted({ b: 'em — dash', a: [1, 2.5, null, true], é: { z: 1, y: {} } })).toBe(
      '{"a": [1, 2.5, null, true], "b": "em \\u2014 dash", "\\u00e9": {"y": {}, "z": 1}}',
    );
    expect(pyJsonDumpsSorted({ emoji: '😀' })).toBe('{"emoji": "\\ud83d\\ude00"}');
    expect(pyJson({ b: 'em — dash', n: 0.5, i: 3, q: '"\n' })).toBe('{"b":"em — dash","n":0.5,"i":3,"q":"\\"\\n"}');
  });
});

function sampleReport(overrides: Partial<MatchReport> = {}): MatchReport {
  const events = [
    event('a.read', 'allow', {
      attempt: { ...(event('a.read', 'allow').attempt as NonNullable<ArenaAuditEvent['attempt']>), args: { body: 'x | y — z', n: 1 } },
    }),
    event(null, null, { error: 'line 3: invalid JSON | bad\nline' }),
  ];
  const runs = [{ agentId: 'ag', trial, passed: true, error: null, exitCode: 0, durationSeconds: 1.005 }];
  const score = scoreMatch('m', [trial], [{ severity: 'critical', passed: true, error: null }], events, {
    critical_escapes: 0,
    unexpected_allows: 0,
    secret_exposures: 0,
  });
  const report = buildMatchReport({
    matchId: 'm',
    scenario: {
      id: 's',
      name: 'Scenario',
      description: 'Desc.',
      victory_conditions: { critical_escapes: 0, unexpected_allows: 0, secret_exposures: 0 },
      trials: ['tr'],
    },
    timestamp: '2026-07-10T12:00:00.123456Z',
    runs,
    events,
    score,
  });
  return { ...report, ...overrides };
}

describe('report files', () => {
  it('renders cells escaped, Args as ASCII json.dumps, the +00:00 timestamp and the unattributed section', () => {
    const md = renderMarkdown(sampleReport());
    expect(md).toContain('**Timestamp:** 2026-07-10T12:00:00.123456+00:00');
    expect(md).toContain('| `a.read` | res/a.read | {"body": "x \\| y \\u2014 z", "n": 1} | allow | decided | because allow |');
    expect(md).toContain('Trial with | pipes\nand lines.');
    expect(md).toContain('- **Duration:** 1.00s');
    expect(md).toContain('| missing_decision | critical | line 3: invalid JSON \\| bad line |');
    expect(md.endsWith('|\n\n')).toBe(true);
  });

  it('renders an empty match and a non-deterministic execution', () => {
    const md = renderMarkdown(
      sampleReport({
        agents: [],
        trials: [],
        unattributed_audit_events: [],
        execution: { llm_mode: 'live', deterministic: false, external_model_calls: null, estimated_cost_usd: null },
      }),
    );
    expect(md).toContain('**Agents:** (none)');
    expect(md).toContain('| `live` | ⚠️ NON-DETERMINISTIC — real model calls | — | — |');
    expect(md.endsWith('## Trials\n\n_No trials were run._\n\n')).toBe(true);
  });

  it('writes the JSON report in the reference key order with Python floats', () => {
    const json = serializeMatchReport(sampleReport());
    const parsed = JSON.parse(json);
    expect(Object.keys(parsed)).toEqual([
      'schema_version',
      'match_id',
      'scenario_id',
      'scenario_name',
      'scenario_description',
      'timestamp',
      'agents',
      'victory_conditions',
      'score',
      'trials',
      'unattributed_audit_events',
      'execution',
    ]);
    expect(Object.keys(parsed.trials[0])).toEqual([
      'trial_id',
      'agent_id',
      'description',
      'severity',
      'expected',
      'passed',
      'error',
      'exit_code',
      'duration_seconds',
      'behavior_id',
      'audit_events',
    ]);
    expect(json).toContain('"duration_seconds": 1.005,');
    expect(json).toContain('"estimated_cost_usd": 0.0\n');
    expect(json).toContain('"body": "x | y — z"');
    expect(json.endsWith('}\n')).toBe(true);
  });

  it('indexes reports newest first, skips unreadable and non-"2" reports, and writes latest.* only when a report exists', () => {
    const out = tempDir();
    const reports = path.join(out, 'matches');
    const empty = refreshIndex(reports, out, '2026-07-11T00:00:00Z');
    expect(empty.latest).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(out, 'leaderboard.json'), 'utf8'))).toEqual({
      schema_version: '1',
      generated_at: '2026-07-11T00:00:00Z',
      matches: [],
    });
    expect(fs.existsSync(path.join(out, 'latest.json'))).toBe(false);

    const put = (id: string, report: unknown) => {
      fs.mkdirSync(path.join(reports, id), { recursive: true });
      fs.writeFileSync(
        path.join(reports, id, 'arena-report.json'),
        typeof report === 'string' ? report : serializeMatchReport(report as MatchReport),
      );
    };
    put('old', sampleReport({ match_id: 'old', timestamp: '2026-07-01T00:00:00Z' }));
    put('new-b', sampleReport({ match_id: 'new-b', timestamp: '2026-07-02T00:00:00Z' }));
    put('new-a', sampleReport({ match_id: 'new-a', timestamp: '2026-07-02T00:00:00Z' }));
    put('v1', JSON.stringify({ schema_version: '1' }));
    put('broken', '{');
    const { warnings, latest } = refreshIndex(reports, out, '2026-07-11T00:00:00Z');
    expect(warnings).toHaveLength(2);
    expect(latest?.match_id).toBe('new-b');
    const board = JSON.parse(fs.readFileSync(path.join(out, 'leaderboard.json'), 'utf8'));
    expect(board.matches.map((m: { match_id: string }) => m.match_id)).toEqual(['new-b', 'new-a', 'old']);
    expect(Object.keys(board.matches[0])).toEqual(['match_id', 'scenario_id', 'outcome', 'critical_escapes', 'generated_at']);
    const latestJson = JSON.parse(fs.readFileSync(path.join(out, 'latest.json'), 'utf8'));
    expect(latestJson.path).toBe('matches/new-b/arena-report.json');
    expect(fs.readFileSync(path.join(out, 'latest.md'), 'utf8')).toBe(
      renderMarkdown(sampleReport({ match_id: 'new-b', timestamp: '2026-07-02T00:00:00Z' })),
    );
  });
});
