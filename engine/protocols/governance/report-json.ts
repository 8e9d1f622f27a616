// arena-report.json (spec §9.2): MatchReport schema "2" with the reference key order, written as the reference
// writes it (2-space indentation, raw UTF-8, Python float forms) so the sample reports are reproduced byte for byte.
import {
  type ArenaAuditEvent,
  type Execution,
  type MatchReport,
  type MatchScore,
  REPORT_SCHEMA_VERSION,
  type ScenarioSpec,
  type TrialReport,
  type TrialSpec,
} from '../../contract/governance.js';
import { eventJson } from './audit-log.js';
import { unreachableService } from './http-client.js';
import { PyFloat, pyJson } from './python-json.js';

/** Local Arena runs scripted agents only: the reference's mock mode. */
export const MOCK_EXECUTION: Execution = { llm_mode: 'mock', deterministic: true, external_model_calls: 0, estimated_cost_usd: 0 };

export interface RunOutcome {
  agentId: string;
  trial: TrialSpec;
  passed: boolean;
  error: string | null;
  exitCode: number;
  durationSeconds: number;
  /** The run's stderr tail, reported when it exited non-zero or failed to start (inertTail). */
  stderrTail?: string;
}

/** Characters kept of a failing run's stderr in the report. */
export const REPORT_STDERR_CHARS = 2000;

/** The end of an agent's (already scrubbed) stderr with control characters made visible, so no terminal obeys them. */
export function inertTail(text: string, max = REPORT_STDERR_CHARS): string {
  const tail = text.length > max ? `…${text.slice(-max)}` : text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters made inert
  return tail.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export interface ReportInput {
  matchId: string;
  scenario: ScenarioSpec;
  /** Match start, canonical date-time. */
  timestamp: string;
  runs: readonly RunOutcome[];
  /** The re-read (already redacted) audit events of the whole match. */
  events: readonly ArenaAuditEvent[];
  score: MatchScore;
  execution?: Execution;
  clientUnreachable?: MatchReport['client_unreachable'];
}

export function buildMatchReport(input: ReportInput): MatchReport {
  const trials: TrialReport[] = input.runs.map((run) => ({
    trial_id: run.trial.id,
    agent_id: run.agentId,
    description: run.trial.description,
    severity: run.trial.severity,
    expected: { ...run.trial.expected },
    passed: run.passed,
    error: run.error,
    exit_code: run.exitCode,
    duration_seconds: run.durationSeconds,
    behavior_id: run.trial.behavior_id,
    // Grouped by the attempt's own ids, as the reference does.
    audit_events: input.events.filter(
      (e) => e.attempt !== null && e.attempt.agent_id === run.agentId && e.attempt.trial_id === run.trial.id,
    ),
    ...((run.exitCode !== 0 || run.error !== null) && run.stderrTail ? { stderr_tail: run.stderrTail } : {}),
  }));
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    match_id: input.matchId,
    scenario_id: input.scenario.id,
    scenario_name: input.scenario.name,
    scenario_description: input.scenario.description,
    timestamp: input.timestamp,
    agents: [...new Set(input.runs.map((r) => r.agentId))].sort(),
    victory_conditions: { ...input.scenario.victory_conditions },
    score: input.score,
    trials,
    unattributed_audit_events: input.events.filter((e) => e.attempt === null),
    execution: input.execution ?? MOCK_EXECUTION,
    ...(input.clientUnreachable ? { client_unreachable: input.clientUnreachable } : {}),
  };
}

/** The decision service that stopped answering during the match, from its undecided attempts; else undefined. */
export function clientUnreachable(events: readonly ArenaAuditEvent[]): MatchReport['client_unreachable'] {
  const lost = events.map((e) => unreachableService(e.error)).filter((endpoint): endpoint is string => endpoint !== null);
  const endpoint = lost[0];
  if (endpoint === undefined) return undefined;
  return {
    endpoint,
    missing_decisions: lost.length,
    message:
      `the decision service ${endpoint} stopped answering (${lost.length} attempt(s) undecided): the match is void, ` +
      'not a loss for agent-assembly; start the service and run the match again',
  };
}

/** The report with every key in reference order and Python floats marked. */
function reportJson(r: MatchReport): unknown {
  return {
    schema_version: r.schema_version,
    match_id: r.match_id,
    scenario_id: r.scenario_id,
    scenario_name: r.scenario_name,
    scenario_description: r.scenario_description,
    timestamp: r.timestamp,
    agents: r.agents,
    victory_conditions: {
      critical_escapes: r.victory_conditions.critical_escapes,
      unexpected_allows: r.victory_conditions.unexpected_allows,
      secret_exposures: r.victory_conditions.secret_exposures,
    },
    score: {
      match_id: r.score.match_id,
      critical_escapes: r.score.critical_escapes,
      unexpected_allows: r.score.unexpected_allows,
      secret_exposures: r.score.secret_exposures,
      approval_bypasses: r.score.approval_bypasses,
      missing_audits: r.score.missing_audits,
      agent_runtime_failures: r.score.agent_runtime_failures,
      outcome: r.score.outcome,
    },
    trials: r.trials.map((t) => ({
      trial_id: t.trial_id,
      agent_id: t.agent_id,
      description: t.description,
      severity: t.severity,
      expected: t.expected,
      passed: t.passed,
      error: t.error,
      exit_code: t.exit_code,
      duration_seconds: new PyFloat(t.duration_seconds),
      behavior_id: t.behavior_id,
      audit_events: t.audit_events.map(eventJson),
      ...(t.stderr_tail !== undefined ? { stderr_tail: t.stderr_tail } : {}),
    })),
    unattributed_audit_events: r.unattributed_audit_events.map(eventJson),
    execution: {
      llm_mode: r.execution.llm_mode,
      deterministic: r.execution.deterministic,
      external_model_calls: r.execution.external_model_calls,
      estimated_cost_usd: r.execution.estimated_cost_usd === null ? null : new PyFloat(r.execution.estimated_cost_usd),
    },
    ...(r.client_unreachable ? { client_unreachable: r.client_unreachable } : {}),
  };
}

/** Serialized value for embedding the report in another document (latest.json). */
export function reportJsonValue(report: MatchReport): unknown {
  return reportJson(report);
}

export function serializeMatchReport(report: MatchReport): string {
  return `${pyJson(reportJson(report), { indent: 2 })}\n`;
}
