// Governance matches for the report browser: summaries, per-run runner records and audit events. A match is saved in
// one transaction after its reports are written; JSON columns are parsed here so callers get plain objects.

import type Database from 'better-sqlite3';
import type { Isolation } from '../../contract/isolation.js';

export interface GovernanceMatchSummary {
  matchId: string;
  scenarioId: string;
  scenarioName: string;
  outcome: 'agent-assembly wins' | 'agent-assembly loses';
  criticalEscapes: number;
  unexpectedAllows: number;
  secretExposures: number;
  approvalBypasses: number;
  missingAudits: number;
  agentRuntimeFailures: number;
  agents: string[];
  /** Which decision client decided: `expected`, `policy:<file>` or `http:<url>`. */
  client: string;
  startedAt: number;
  finishedAt: number;
  reportDir: string | null;
}

export interface GovernanceRunRow {
  seq: number;
  agentId: string;
  trialId: string;
  severity: string;
  passed: boolean;
  error: string | null;
  exitCode: number;
  durationSeconds: number;
  termination: string;
  signal: string | null;
  peakRssKb: number | null;
  network: string;
  rlimits: Record<string, unknown> | null;
  /** The isolation the run got (contract/isolation.ts); null for rows from before it was recorded. */
  isolation?: Isolation | null;
  stdoutBytes: number;
  stderrBytes: number;
  stderrTail: string;
}

export interface GovernanceEventRow {
  seq: number;
  runSeq: number;
  agentId: string | null;
  trialId: string | null;
  tool: string | null;
  effect: string | null;
  status: string;
  severity: string;
  error: string | null;
  /** The persisted (redacted) audit event. */
  event: Record<string, unknown>;
}

export interface GovernanceMatchRecord extends GovernanceMatchSummary {
  reportJson: string;
  reportMd: string;
  runs: GovernanceRunRow[];
  events: GovernanceEventRow[];
}

interface MatchRow {
  match_id: string;
  scenario_id: string;
  scenario_name: string;
  outcome: GovernanceMatchSummary['outcome'];
  critical_escapes: number;
  unexpected_allows: number;
  secret_exposures: number;
  approval_bypasses: number;
  missing_audits: number;
  agent_runtime_failures: number;
  agents: string;
  client: string;
  started_at: number;
  finished_at: number;
  report_dir: string | null;
}

interface RunRow {
  seq: number;
  agent_id: string;
  trial_id: string;
  severity: string;
  passed: number;
  error: string | null;
  exit_code: number;
  duration_seconds: number;
  termination: string;
  signal: string | null;
  peak_rss_kb: number | null;
  network: string;
  rlimits: string | null;
  isolation: string | null;
  stdout_bytes: number;
  stderr_bytes: number;
  stderr_tail: string;
}

interface EventRow {
  seq: number;
  run_seq: number;
  agent_id: string | null;
  trial_id: string | null;
  tool: string | null;
  effect: string | null;
  status: string;
  severity: string;
  error: string | null;
  event: string;
}

const SUMMARY_COLUMNS = `match_id, scenario_id, scenario_name, outcome, critical_escapes, unexpected_allows, secret_exposures,
  approval_bypasses, missing_audits, agent_runtime_failures, agents, client, started_at, finished_at, report_dir`;

function summaryOf(row: MatchRow): GovernanceMatchSummary {
  return {
    matchId: row.match_id,
    scenarioId: row.scenario_id,
    scenarioName: row.scenario_name,
    outcome: row.outcome,
    criticalEscapes: row.critical_escapes,
    unexpectedAllows: row.unexpected_allows,
    secretExposures: row.secret_exposures,
    approvalBypasses: row.approval_bypasses,
    missingAudits: row.missing_audits,
    agentRuntimeFailures: row.agent_runtime_failures,
    agents: JSON.parse(row.agents) as string[],
    client: row.client,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    reportDir: row.report_dir,
  };
}

export function createGovernanceRepo(db: Database.Database) {
  const insertMatch = db.prepare(`INSERT INTO governance_matches (${SUMMARY_COLUMNS}, report_json, report_md)
    VALUES (@matchId, @scenarioId, @scenarioName, @outcome, @criticalEscapes, @unexpectedAllows, @secretExposures,
      @approvalBypasses, @missingAudits, @agentRuntimeFailures, @agents, @client, @startedAt, @finishedAt, @reportDir, @reportJson, @reportMd)`);
  const insertRun = db.prepare(`INSERT INTO governance_runs (match_id, seq, agent_id, trial_id, severity, passed, error, exit_code,
      duration_seconds, termination, signal, peak_rss_kb, network, rlimits, isolation, stdout_bytes, stderr_bytes, stderr_tail)
    VALUES (@matchId, @seq, @agentId, @trialId, @severity, @passed, @error, @exitCode, @durationSeconds, @termination, @signal,
      @peakRssKb, @network, @rlimits, @isolation, @stdoutBytes, @stderrBytes, @stderrTail)`);
  const insertEvent = db.prepare(`INSERT INTO governance_audit_events (match_id, seq, run_seq, agent_id, trial_id, tool, effect, status,
      severity, error, event)
    VALUES (@matchId, @seq, @runSeq, @agentId, @trialId, @tool, @effect, @status, @severity, @error, @event)`);
  const getMatch = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM governance_matches WHERE match_id = ?`);
  const getReport = db.prepare('SELECT report_json, report_md FROM governance_matches WHERE match_id = ?');
  const runsOf = db.prepare('SELECT * FROM governance_runs WHERE match_id = ? ORDER BY seq');
  const eventsOf = db.prepare('SELECT * FROM governance_audit_events WHERE match_id = ? ORDER BY seq');
  const list = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM governance_matches
    WHERE (@scenarioId IS NULL OR scenario_id = @scenarioId) ORDER BY started_at DESC, match_id DESC LIMIT @limit OFFSET @offset`);
  const count = db.prepare('SELECT COUNT(*) AS n FROM governance_matches WHERE (@scenarioId IS NULL OR scenario_id = @scenarioId)');
  const remove = db.prepare('DELETE FROM governance_matches WHERE match_id = ?');

  return {
    save(record: GovernanceMatchRecord): void {
      db.transaction(() => {
        insertMatch.run({ ...record, agents: JSON.stringify(record.agents) });
        for (const run of record.runs) {
          insertRun.run({
            ...run,
            matchId: record.matchId,
            passed: run.passed ? 1 : 0,
            rlimits: run.rlimits === null ? null : JSON.stringify(run.rlimits),
            isolation: run.isolation ? JSON.stringify(run.isolation) : null,
          });
        }
        for (const event of record.events) insertEvent.run({ ...event, matchId: record.matchId, event: JSON.stringify(event.event) });
      }).immediate();
    },
    list(filter: { scenarioId?: string; limit?: number; offset?: number } = {}): { matches: GovernanceMatchSummary[]; total: number } {
      const params = { scenarioId: filter.scenarioId ?? null, limit: filter.limit ?? 50, offset: filter.offset ?? 0 };
      return {
        matches: (list.all(params) as MatchRow[]).map(summaryOf),
        total: (count.get({ scenarioId: params.scenarioId }) as { n: number }).n,
      };
    },
    get(matchId: string): { match: GovernanceMatchSummary; runs: GovernanceRunRow[]; events: GovernanceEventRow[] } | undefined {
      const row = getMatch.get(matchId) as MatchRow | undefined;
      if (!row) return undefined;
      const runs = (runsOf.all(matchId) as RunRow[]).map((r) => ({
        seq: r.seq,
        agentId: r.agent_id,
        trialId: r.trial_id,
        severity: r.severity,
        passed: r.passed === 1,
        error: r.error,
        exitCode: r.exit_code,
        durationSeconds: r.duration_seconds,
        termination: r.termination,
        signal: r.signal,
        peakRssKb: r.peak_rss_kb,
        network: r.network,
        rlimits: r.rlimits === null ? null : (JSON.parse(r.rlimits) as Record<string, unknown>),
        isolation: r.isolation === null ? null : (JSON.parse(r.isolation) as Isolation),
        stdoutBytes: r.stdout_bytes,
        stderrBytes: r.stderr_bytes,
        stderrTail: r.stderr_tail,
      }));
      const events = (eventsOf.all(matchId) as EventRow[]).map((e) => ({
        seq: e.seq,
        runSeq: e.run_seq,
        agentId: e.agent_id,
        trialId: e.trial_id,
        tool: e.tool,
        effect: e.effect,
        status: e.status,
        severity: e.severity,
        error: e.error,
        event: JSON.parse(e.event) as Record<string, unknown>,
      }));
      return { match: summaryOf(row), runs, events };
    },
    /** The report files exactly as written (arena-report.json and arena-report.md). */
    report(matchId: string): { json: string; markdown: string } | undefined {
      const row = getReport.get(matchId) as { report_json: string; report_md: string } | undefined;
      return row && { json: row.report_json, markdown: row.report_md };
    },
    delete(matchId: string): boolean {
      return remove.run(matchId).changes > 0;
    },
  };
}

export type GovernanceRepo = ReturnType<typeof createGovernanceRepo>;
