// One governance match (spec §10.3, §13): agents sorted by id × trials in scenario order; each run launched in its own
// workspace, its markers parsed, every attempt decided exactly once, every event appended to the scratch audit.jsonl;
// then the audit is re-read, scored, and the reports and index written from the redacted events, with each run's
// isolation beside them.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadedAgent } from '../../agents/manifest-loader.js';
import { type ArenaAuditEvent, formatDateTime, type MatchReport, RUNNER_NOTICE_PREFIX, type TrialSpec } from '../../contract/governance.js';
import type { Isolation } from '../../contract/isolation.js';
import { grantedSecrets } from '../../runner/agent-env.js';
import { isolationOf, type LaunchResult, launchAgent, RUNNER_DEFAULTS } from '../../runner/launch.js';
import { launchProblem } from '../../runner/launch-check.js';
import { type SandboxPolicy, sandboxLaunchOptions, sandboxPreflight } from '../../runner/sandbox-policy.js';
import { scrubLaunchResult } from '../../runner/scrub-output.js';
import { pyRepr } from '../../runner/shlex.js';
import { registerSecrets, secretScrubber } from '../../runtime/known-secrets.js';
import { ensurePrivateDir, tightenIfPresent } from '../../runtime/private-files.js';
import { AuditWriter, readAuditLog } from './audit-log.js';
import { type ClientFactory, DEFAULT_DECIDE_TIMEOUT_MS, decideOnce } from './decision-client.js';
import { ISOLATION_JSON, isolationJson, isolationReport } from './isolation-file.js';
import { parseMarkers } from './marker-parser.js';
import { type GovernanceUsage, governanceUsage, MODEL_USAGE_JSON, MODEL_USAGE_MD, usageMarkdown } from './model-usage.js';
import { AUDIT_JSONL, REPORT_JSON, REPORT_MD, refreshIndex, writeAtomic } from './report-index.js';
import { buildMatchReport, clientUnreachable, inertTail, type RunOutcome, serializeMatchReport } from './report-json.js';
import { renderMarkdown } from './report-markdown.js';
import type { LoadedScenario } from './scenario-loader.js';
import { scoreMatch, trialPassed } from './scoring.js';

/** Bad input found before anything runs: unknown or ineligible agent, undeclared behaviour profile. */
export class MatchConfigError extends Error {
  override name = 'MatchConfigError';
}

export class MatchCancelledError extends Error {
  override name = 'MatchCancelledError';
}

export type LifecycleEvent =
  | { type: 'match_started'; match_id: string; agents: string; trial_count: number }
  | { type: 'trial_started' | 'agent_started' | 'trial_finished'; match_id: string; agent_id: string; trial_id: string }
  | {
      type: 'agent_finished';
      match_id: string;
      agent_id: string;
      trial_id: string;
      exit_code: number;
      duration_seconds: number;
      passed: boolean;
      error?: string;
      /** A run that exited non-zero or did not start: the end of its stderr (as in the report). */
      stderr_tail?: string;
    }
  | { type: 'match_finished'; match_id: string; critical_escapes: number; victory_conditions_violated: boolean; trials_run: number };

export interface MatchOptions {
  scenario: LoadedScenario;
  /** Every discovered agent; eligibility (protocol governance, scenario listed) is decided here. */
  agents: readonly LoadedAgent[];
  /** Run only this agent (it must be eligible). */
  agentId?: string;
  clientFactory: ClientFactory;
  /** Scratch root: `<runsRoot>/<match_id>/` holds the workspaces and the scratch audit.jsonl. */
  runsRoot: string;
  /** Durable reports: `<reportsRoot>/<match_id>/arena-report.{json,md}`, audit.jsonl and isolation.json. */
  reportsRoot: string;
  /** Where leaderboard.json / latest.json / latest.md go (the reference: the parent of reportsRoot). */
  indexDir: string;
  /** Global per-run timeout; a trial's `timeout_seconds` and the manifest's `limits.game_seconds` take precedence. */
  timeoutSeconds?: number;
  killGraceMs?: number;
  /** 'deny' (default): no network but the manifest's network.allow; 'allow': the host network. */
  agentNetwork?: 'deny' | 'allow';
  requireNetworkIsolation?: boolean;
  /** Trusted agent folders and hidden paths (default: every agent sandboxed, nothing extra hidden). */
  sandbox?: SandboxPolicy;
  hostEnv?: NodeJS.ProcessEnv;
  decideTimeoutMs?: number;
  failOnMissingAudit?: boolean;
  clock?: () => number;
  signal?: AbortSignal;
  onEvent?: (event: LifecycleEvent) => void;
  /** Use this id (from newMatchId) instead of minting one, so a caller can name the match before it runs. */
  matchId?: string;
}

/** One (agent, trial) run as the runner saw it, for storage and the CLI. */
export interface RunRecord extends RunOutcome {
  launch: LaunchResult;
  /** What the run's sandbox enforced (the launch's isolation without its rlimits), as stored and in isolation.json. */
  isolation: Isolation;
  /** The stderr tail for logs: granted secret values masked, the reference's timeout message appended. */
  stderrLog: string;
  /** How many of the match's events (in file order) this run produced. */
  eventCount: number;
}

export interface MatchResult {
  matchId: string;
  report: MatchReport;
  json: string;
  markdown: string;
  /** The persisted (redacted) events, in file order. */
  events: ArenaAuditEvent[];
  runs: RunRecord[];
  startedAt: number;
  finishedAt: number;
  reportDir: string;
  indexWarnings: string[];
  /** Model agents' accounting (model-usage.json beside the reports); null when no run reported any. */
  modelUsage: GovernanceUsage | null;
}

export function eligibleAgents(agents: readonly LoadedAgent[], scenarioId: string): LoadedAgent[] {
  return agents
    .filter((a) => a.manifest.protocol === 'governance' && a.manifest.scenarios.includes(scenarioId))
    .sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : a.manifest.id > b.manifest.id ? 1 : 0));
}

/** Checks done before a match starts; throws MatchConfigError. */
export function selectAgents(options: Pick<MatchOptions, 'scenario' | 'agents' | 'agentId'>): LoadedAgent[] {
  const { spec, trials } = options.scenario;
  const eligible = eligibleAgents(options.agents, spec.id);
  // Behaviour profiles are checked across all eligible agents, not only the selection.
  const declared = new Set(eligible.flatMap((a) => a.manifest.behaviors.map((b) => b.id)));
  const undeclared = trials.filter((t) => t.behavior_id !== null && !declared.has(t.behavior_id));
  if (undeclared.length > 0) {
    throw new MatchConfigError(
      `no eligible agent declares the behavior profile of ${undeclared.map((t) => `trial '${t.id}' ('${t.behavior_id}')`).join(', ')}`,
    );
  }
  if (options.agentId === undefined) return eligible;
  const agent = eligible.find((a) => a.manifest.id === options.agentId);
  if (agent) return [agent];
  if (options.agents.some((a) => a.manifest.id === options.agentId)) {
    throw new MatchConfigError(`agent '${options.agentId}' is not eligible for scenario '${spec.id}' (its manifest does not list it)`);
  }
  throw new MatchConfigError(`unknown agent '${options.agentId}'`);
}

/** Why an agent's program would not start here (the runner's own resolution, in its sandbox view); else null. */
export function launchPreflight(
  options: Pick<MatchOptions, 'sandbox' | 'hostEnv' | 'agentNetwork'>,
  agents: readonly LoadedAgent[],
): string | null {
  for (const agent of agents) {
    const problem = launchProblem({
      manifest: agent.manifest,
      manifestDir: agent.dir,
      network: options.agentNetwork === 'allow' ? 'loopback' : 'none',
      ...sandboxLaunchOptions(options.sandbox, agent.dir),
      ...(options.hostEnv ? { hostEnv: options.hostEnv } : {}),
    });
    if (problem !== null) return `agent ${agent.manifest.id} cannot start here: ${problem.message}`;
  }
  return null;
}

/** `<UTC start %Y%m%dT%H%M%SZ>-<scenario id>-<8 hex>`. */
export function newMatchId(scenarioId: string, startMs: number): string {
  const stamp = new Date(startMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${scenarioId}-${randomUUID().replace(/-/g, '').slice(0, 8)}`;
}

export async function runGovernanceMatch(options: MatchOptions): Promise<MatchResult> {
  const clock = options.clock ?? Date.now;
  const agents = selectAgents(options);
  // Fail closed before anything runs: an agent the sandbox cannot serve here is refused with the fix.
  const refusal = sandboxPreflight(options.sandbox, agents, options.agentNetwork === 'allow') ?? launchPreflight(options, agents);
  if (refusal !== null) throw new MatchConfigError(refusal);
  const { spec, trials } = options.scenario;
  const startedAt = clock();
  const matchId = options.matchId ?? newMatchId(spec.id, startedAt);
  const now = () => formatDateTime(clock());
  const emit = (event: LifecycleEvent) => options.onEvent?.(event);
  const scratchDir = path.join(path.resolve(options.runsRoot), matchId);
  const audit = new AuditWriter(path.join(scratchDir, AUDIT_JSONL));
  const runs: RunRecord[] = [];

  emit({ type: 'match_started', match_id: matchId, agents: agents.map((a) => a.manifest.id).join(','), trial_count: trials.length });
  for (const agent of agents) {
    for (const trial of trials) {
      if (options.signal?.aborted) throw new MatchCancelledError(`match ${matchId} cancelled`);
      const ids = { match_id: matchId, agent_id: agent.manifest.id, trial_id: trial.id };
      emit({ type: 'trial_started', ...ids });
      emit({ type: 'agent_started', ...ids });
      const run = await runTrial(options, agent, trial, matchId, scratchDir, now, audit);
      runs.push(run);
      if (run.launch.termination === 'cancelled') throw new MatchCancelledError(`match ${matchId} cancelled`);
      emit({
        type: 'agent_finished',
        ...ids,
        exit_code: run.exitCode,
        duration_seconds: run.durationSeconds,
        passed: run.passed,
        ...(run.error === null ? {} : { error: run.error }),
        ...((run.exitCode !== 0 || run.error !== null) && run.stderrTail ? { stderr_tail: run.stderrTail } : {}),
      });
      emit({ type: 'trial_finished', ...ids });
    }
  }

  // Reports come from the re-read file, so they can only show what was persisted (already redacted).
  const events = readAuditLog(audit.file);
  const score = scoreMatch(
    matchId,
    trials,
    runs.map((r) => ({ severity: r.trial.severity, passed: r.passed, error: r.error })),
    events,
    spec.victory_conditions,
    options.failOnMissingAudit ?? true,
  );
  const unreachable = clientUnreachable(events);
  const report = buildMatchReport({
    matchId,
    scenario: spec,
    timestamp: formatDateTime(startedAt),
    runs,
    events,
    score,
    ...(unreachable ? { clientUnreachable: unreachable } : {}),
  });
  const json = serializeMatchReport(report);
  const markdown = renderMarkdown(report);
  const reportDir = path.join(path.resolve(options.reportsRoot), matchId);
  ensurePrivateDir(reportDir);
  writeAtomic(path.join(reportDir, REPORT_JSON), json);
  writeAtomic(path.join(reportDir, REPORT_MD), markdown);
  writeAtomic(
    path.join(reportDir, ISOLATION_JSON),
    isolationJson(
      isolationReport(
        matchId,
        runs.map((r) => ({ agentId: r.agentId, trialId: r.trial.id, isolation: r.isolation })),
      ),
    ),
  );
  fs.copyFileSync(audit.file, path.join(reportDir, AUDIT_JSONL));
  tightenIfPresent(path.join(reportDir, AUDIT_JSONL));
  const modelUsage = governanceUsage(matchId, runs);
  if (modelUsage) {
    writeAtomic(path.join(reportDir, MODEL_USAGE_JSON), `${JSON.stringify(modelUsage, null, 2)}\n`);
    writeAtomic(path.join(reportDir, MODEL_USAGE_MD), usageMarkdown(modelUsage));
  }
  const { warnings } = refreshIndex(path.resolve(options.reportsRoot), path.resolve(options.indexDir), now());
  emit({
    type: 'match_finished',
    match_id: matchId,
    critical_escapes: score.critical_escapes,
    victory_conditions_violated: score.critical_escapes > spec.victory_conditions.critical_escapes,
    trials_run: runs.length,
  });
  return {
    matchId,
    report,
    json,
    markdown,
    events,
    runs,
    startedAt,
    finishedAt: clock(),
    reportDir,
    indexWarnings: warnings,
    modelUsage,
  };
}

async function runTrial(
  options: MatchOptions,
  agent: LoadedAgent,
  trial: TrialSpec,
  matchId: string,
  scratchDir: string,
  now: () => string,
  audit: AuditWriter,
): Promise<RunRecord> {
  const { manifest } = agent;
  const docker = manifest.entrypoint.type === 'docker';
  const timeoutSeconds =
    trial.timeout_seconds ??
    manifest.limits?.game_seconds ??
    options.timeoutSeconds ??
    (docker ? RUNNER_DEFAULTS.dockerTimeoutMs : RUNNER_DEFAULTS.processTimeoutMs) / 1000;
  registerSecrets(grantedSecrets(manifest, options.hostEnv ?? process.env));
  const launched = await launchAgent({
    manifest,
    manifestDir: agent.dir,
    workspaceRoot: path.join(scratchDir, manifest.id),
    workspaceName: trial.id,
    // The scratch folder keeps each trial's workspace (spec §9.1): on the disk, not in the sandbox's memory.
    keepWorkspace: true,
    env: {
      ARENA_AGENT_ID: manifest.id,
      ARENA_TRIAL_ID: trial.id,
      ARENA_TRIAL_DESCRIPTION: trial.description,
      ARENA_TRIAL_SEVERITY: trial.severity,
    },
    limits: { timeoutMs: timeoutSeconds * 1000, killGraceMs: options.killGraceMs },
    network: options.agentNetwork === 'allow' ? 'loopback' : 'none',
    requireNetworkIsolation: options.requireNetworkIsolation,
    ...sandboxLaunchOptions(options.sandbox, agent.dir),
    hostEnv: options.hostEnv,
    label: `${matchId.slice(-8)}-${manifest.id}-${trial.id}`,
    signal: options.signal,
  }).result;
  const launch = scrubLaunchResult(launched);

  // A harness failure (workspace, isolation required but missing, runner bug) or a kill from outside the sandbox is
  // a runner error: the trial did not run as the agent would have run it.
  const runnerError =
    launch.termination === 'spawn_error' && launch.harnessError
      ? (launch.detail ?? 'runner error')
      : launch.killedExternally
        ? `the agent's sandbox was killed from outside (${launch.signal})`
        : null;
  const exitCode = exitCodeOf(launch, docker);
  const durationSeconds = runnerError === null ? launch.durationMs / 1000 : 0;

  const parse = parseMarkers(launch.stdout, now);
  const severity = trial.severity;
  const missing = (error: string): ArenaAuditEvent => ({
    match_id: matchId,
    attempt: null,
    decision: null,
    status: 'missing_decision',
    severity,
    error,
    timestamp: now(),
  });
  const events: ArenaAuditEvent[] = [];

  // 1. Malformed and mis-addressed markers, in line order; mis-addressed attempts never reach the client.
  const problems = parse.errors.map((e) => ({ line: e.line, error: e.error }));
  const bound = parse.attempts.filter(({ line, attempt }) => {
    if (attempt.agent_id === manifest.id && attempt.trial_id === trial.id) return true;
    problems.push({
      line,
      error: `line ${line}: action-attempt marker names agent_id=${pyRepr(attempt.agent_id)}, trial_id=${pyRepr(attempt.trial_id)} but the running agent is '${manifest.id}' and trial is '${trial.id}'`,
    });
    return false;
  });
  for (const p of problems.sort((a, b) => a.line - b.line)) events.push(missing(p.error));

  // 2. Exactly one decide call and one event per attempt, in emission order; any client failure fails closed.
  const client = options.clientFactory({ matchId, agentId: manifest.id, trial });
  for (const { attempt } of bound) {
    const outcome = await decideOnce(client, attempt, options.decideTimeoutMs ?? DEFAULT_DECIDE_TIMEOUT_MS);
    events.push(
      outcome.decision
        ? {
            match_id: matchId,
            attempt,
            decision: outcome.decision,
            status: 'decided',
            severity: outcome.decision.severity,
            error: null,
            timestamp: now(),
          }
        : { match_id: matchId, attempt, decision: null, status: 'missing_decision', severity, error: outcome.error, timestamp: now() },
    );
  }

  // 3. Runner notices: informational, so crashes and silence leave a trace without changing the verdict.
  for (const reason of noticeReasons(launch, timeoutSeconds, parse.markerLines)) {
    events.push(missing(`${RUNNER_NOTICE_PREFIX}agent '${manifest.id}' trial '${trial.id}': ${reason}`));
  }

  for (const event of events) audit.append(event);
  let stderrLog = launch.stderrTail;
  if (launch.termination === 'timeout') {
    stderrLog += `[arena.ProcessRunner] agent process timed out after ${timeoutSeconds}s (command=${pyRepr(manifest.entrypoint.command ?? '')}); this is a runner-enforced timeout, not a real process exit\n`;
  }
  return {
    agentId: manifest.id,
    trial,
    passed: trialPassed(trial, events, runnerError),
    error: runnerError,
    exitCode,
    durationSeconds,
    launch,
    isolation: isolationOf(launch.isolation),
    // The tail is scrubbed already; the appended timeout line names the command, which is the manifest's own text.
    stderrLog: secretScrubber()(stderrLog),
    stderrTail: inertTail(secretScrubber()(launch.termination === 'spawn_error' ? (launch.detail ?? '') : launch.stderrTail)),
    eventCount: events.length,
  };
}

/** The reference's exit codes: 127 launch failure (1 for docker), 124 timeout, −N killed by signal N. */
function exitCodeOf(launch: LaunchResult, docker: boolean): number {
  if (launch.termination === 'spawn_error') return launch.missingProgram !== undefined ? 127 : docker || launch.harnessError ? 1 : 127;
  if (launch.termination === 'timeout') return 124;
  if (launch.exitCode !== null) return launch.exitCode;
  const signal = launch.signal === null ? undefined : os.constants.signals[launch.signal];
  return signal === undefined ? 1 : -signal;
}

function noticeReasons(launch: LaunchResult, timeoutSeconds: number, markerLines: number): string[] {
  const reasons: string[] = [];
  if (launch.termination === 'spawn_error') reasons.push(`failed to launch: ${launch.detail ?? 'unknown error'}`);
  if (launch.termination === 'timeout') reasons.push(`timed out after ${timeoutSeconds}s`);
  if (launch.termination === 'exited' && launch.signal !== null) reasons.push(`killed by signal ${launch.signal}`);
  if (launch.termination === 'exited' && launch.exitCode !== null && launch.exitCode !== 0)
    reasons.push(`exited with code ${launch.exitCode}`);
  if (launch.stdoutTruncated) reasons.push(`stdout truncated at ${launch.limits.stdoutBytes} bytes`);
  if (launch.stderrTruncated) reasons.push(`stderr truncated at ${launch.limits.stderrBytes} bytes`);
  if (launch.isolation.network === 'unavailable') reasons.push('network isolation unavailable');
  if (markerLines === 0) reasons.push('emitted no action-attempt markers');
  return reasons;
}
