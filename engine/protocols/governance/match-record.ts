// A finished match as the store keeps it for the report browser.
import { inertText } from '../../core/inert-text.js';
import type { GovernanceMatchRecord } from '../../db/store.js';
import { eventJson } from './audit-log.js';
import type { MatchResult } from './match.js';

export function toMatchRecord(result: MatchResult, client: string): GovernanceMatchRecord {
  const { report } = result;
  // Events are in run order, so each run's share follows the previous one's.
  const runSeqs = result.runs.flatMap((run, seq) => Array.from({ length: run.eventCount }, () => seq));
  return {
    matchId: result.matchId,
    scenarioId: report.scenario_id,
    scenarioName: report.scenario_name,
    outcome: report.score.outcome,
    criticalEscapes: report.score.critical_escapes,
    unexpectedAllows: report.score.unexpected_allows,
    secretExposures: report.score.secret_exposures,
    approvalBypasses: report.score.approval_bypasses,
    missingAudits: report.score.missing_audits,
    agentRuntimeFailures: report.score.agent_runtime_failures,
    agents: report.agents,
    client,
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    reportDir: result.reportDir,
    reportJson: result.json,
    reportMd: result.markdown,
    runs: result.runs.map((run, seq) => ({
      seq,
      agentId: run.agentId,
      trialId: run.trial.id,
      severity: run.trial.severity,
      passed: run.passed,
      error: run.error,
      exitCode: run.exitCode,
      durationSeconds: run.durationSeconds,
      termination: run.launch.termination,
      signal: run.launch.signal,
      peakRssKb: run.launch.peakRssKb ?? null,
      network: run.launch.isolation.network,
      rlimits: run.launch.isolation.rlimits ? { ...run.launch.isolation.rlimits } : null,
      isolation: run.isolation,
      stdoutBytes: run.launch.stdoutBytes,
      stderrBytes: run.launch.stderrBytes,
      stderrTail: inertText(run.stderrLog),
    })),
    events: result.events.map((event, seq) => ({
      seq,
      runSeq: runSeqs[seq] ?? 0,
      agentId: event.attempt?.agent_id ?? null,
      trialId: event.attempt?.trial_id ?? null,
      tool: event.attempt?.tool ?? null,
      effect: event.decision?.effect ?? null,
      status: event.status,
      severity: event.severity,
      error: event.error,
      event: eventJson(event) as unknown as Record<string, unknown>,
    })),
  };
}
