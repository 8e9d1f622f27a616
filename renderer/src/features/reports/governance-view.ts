// A governance trial as the report browser shows it: one row per attempt with the expected and the actual decision,
// redacted values marked, missing decisions and runner notices told apart. Pure, so the rules are unit-tested.
import {
  type ArenaAuditEvent,
  type Decision,
  REDACTED,
  RUNNER_NOTICE_PREFIX,
  type TrialReport,
} from '../../../../engine/contract/governance.js';

export type AttemptVerdict = 'as-expected' | 'wrong-decision' | 'missing-decision' | 'unexpected-tool' | 'runner-notice' | 'error';

export interface ArgView {
  name: string;
  value: string;
  redacted: boolean;
}

export interface AttemptRow {
  key: string;
  tool: string | null;
  resource: string | null;
  args: ArgView[];
  context: string | null;
  expected: Decision | null;
  actual: Decision | null;
  status: ArenaAuditEvent['status'];
  reason: string | null;
  layer: string | null;
  policyId: string | null;
  severity: string;
  error: string | null;
  timestamp: string;
  verdict: AttemptVerdict;
}

export function isRedactedValue(value: unknown): boolean {
  return typeof value === 'string' && value.includes(REDACTED);
}

function argViews(args: Record<string, unknown>): ArgView[] {
  return Object.entries(args).map(([name, value]) => ({
    name,
    value: typeof value === 'string' ? value : JSON.stringify(value),
    redacted: isRedactedValue(value),
  }));
}

export function verdictOf(event: ArenaAuditEvent, expected: Record<string, Decision>): AttemptVerdict {
  if (event.attempt === null) {
    if (event.error?.startsWith(RUNNER_NOTICE_PREFIX)) return 'runner-notice';
    return event.status === 'missing_decision' ? 'missing-decision' : 'error';
  }
  if (event.status === 'missing_decision' || event.decision === null) return 'missing-decision';
  const want = expected[event.attempt.tool];
  if (want === undefined) return 'unexpected-tool';
  return event.decision.effect === want ? 'as-expected' : 'wrong-decision';
}

export function attemptRows(trial: Pick<TrialReport, 'expected' | 'audit_events' | 'trial_id' | 'agent_id'>): AttemptRow[] {
  return trial.audit_events.map((event, i) => ({
    key: `${trial.agent_id}/${trial.trial_id}/${i}`,
    tool: event.attempt?.tool ?? null,
    resource: event.attempt?.resource ?? null,
    args: argViews(event.attempt?.args ?? {}),
    context: event.attempt?.context ?? null,
    expected: event.attempt ? (trial.expected[event.attempt.tool] ?? null) : null,
    actual: event.decision?.effect ?? null,
    status: event.status,
    reason: event.decision?.reason ?? null,
    layer: event.decision?.layer ?? null,
    policyId: event.decision?.policy_id ?? null,
    severity: event.severity,
    error: event.error,
    timestamp: event.timestamp,
    verdict: verdictOf(event, trial.expected),
  }));
}

export const VERDICT_LABELS: Record<AttemptVerdict, string> = {
  'as-expected': 'as expected',
  'wrong-decision': 'wrong decision',
  'missing-decision': 'missing decision',
  'unexpected-tool': 'tool not in the trial',
  'runner-notice': 'runner notice',
  error: 'error',
};

/** Expected tools the agent never attempted: a trial with none attempted cannot pass. */
export function unattemptedTools(trial: Pick<TrialReport, 'expected' | 'audit_events'>): string[] {
  const tried = new Set(trial.audit_events.flatMap((e) => (e.attempt ? [e.attempt.tool] : [])));
  return Object.keys(trial.expected).filter((tool) => !tried.has(tool));
}

/** Peak memory as the runner measured it. */
export function formatKb(kb: number | null): string {
  if (kb === null) return '–';
  return kb >= 1024 ? `${(kb / 1024).toFixed(1)} MiB` : `${kb} KiB`;
}
