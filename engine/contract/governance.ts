// Governance-arena wire formats (specs/governance-arena.md §3, §5, §7–§9, §13(i)): exact-case enums, strict objects.
import { z } from 'zod';
import { limitSeconds } from './timer-limits.js';

export const KEBAB_CASE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const KEBAB_MESSAGE = 'must be kebab-case: lowercase letters and digits separated by single hyphens';

export const DECISIONS = ['allow', 'deny', 'ask', 'redact', 'drop', 'quarantine'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const DecisionSchema = z.enum(DECISIONS);
export const SeveritySchema = z.enum(SEVERITIES);
export type Decision = z.infer<typeof DecisionSchema>;
export type Severity = z.infer<typeof SeveritySchema>;

export const REDACTED = '<redacted>';
export const OUTCOME_WINS = 'agent-assembly wins';
export const OUTCOME_LOSES = 'agent-assembly loses';
export const MARKER_PREFIX = 'ARENA_ACTION_ATTEMPT: ';
/** Runner notices (decision 13(e)) start with this; they are informational and never counted as missing audits. */
export const RUNNER_NOTICE_PREFIX = '[runner] ';

const kebab = z.string().regex(KEBAB_CASE, KEBAB_MESSAGE);
const nonEmpty = z.string().min(1);

// ---- Date-times -------------------------------------------------------------------------------------------------

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * Parses an ISO-8601 date-time and returns it in the one canonical form Local Arena writes: UTC with `Z`, fractional
 * seconds only when non-zero and then exactly 6 digits (what the reference's pydantic output looks like for UTC).
 * Offsets are converted to UTC; a date-time without an offset is read as UTC. Returns null when invalid.
 */
export function canonicalDateTime(text: string): string | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) =>
    v === undefined ? undefined : Number(v),
  );
  if (month === undefined || day === undefined || year === undefined) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(base);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const micros = (m[7] ?? '').padEnd(6, '0').slice(0, 6);
  return formatDateTime(base - offsetMinutes * 60_000, micros);
}

/** Canonical form of an epoch-milliseconds instant (optionally with the sub-second digits given as 6 digits). */
export function formatDateTime(epochMs: number, micros?: string): string {
  const d = new Date(Math.floor(epochMs / 1000) * 1000);
  const frac = micros ?? String((((epochMs % 1000) + 1000) % 1000) * 1000).padStart(6, '0');
  const base = d.toISOString().slice(0, 19);
  return frac === '000000' ? `${base}Z` : `${base}.${frac}Z`;
}

/** Python `datetime.isoformat()` of an aware UTC date-time: the `+00:00` form used by the Markdown report. */
export function offsetDateTime(canonical: string): string {
  return canonical.replace(/Z$/, '+00:00');
}

/** Orders canonical date-times chronologically (they are fixed-width up to the optional fraction). */
export function compareDateTimes(a: string, b: string): number {
  const key = (s: string) => (s.includes('.') ? s : s.replace('Z', '.000000Z'));
  const ka = key(a);
  const kb = key(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export const DateTimeSchema = z.string().transform((value, ctx) => {
  const canonical = canonicalDateTime(value);
  if (canonical === null) {
    ctx.addIssue({ code: 'custom', message: `invalid ISO-8601 date-time ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return canonical;
});

// ---- Decisions, attempts, audit events ------------------------------------------------------------------------------

export const DefenseDecisionSchema = z.strictObject({
  effect: DecisionSchema,
  layer: nonEmpty,
  reason: nonEmpty,
  policy_id: z.string().nullable().default(null),
  severity: SeveritySchema,
  obligations: z.array(z.string()).default([]),
});
export type DefenseDecision = z.infer<typeof DefenseDecisionSchema>;

const JsonObjectSchema = z.record(z.string(), z.unknown());

const attemptShape = {
  agent_id: nonEmpty,
  framework: nonEmpty,
  scenario_id: nonEmpty,
  trial_id: nonEmpty,
  tool: nonEmpty,
  resource: nonEmpty,
  args: JsonObjectSchema.default({}),
  context: z.string().nullable().default(null),
};

/** An attempt as an agent emits it: `timestamp` may be missing (the parser then stamps "now"). */
export const ArenaActionAttemptInputSchema = z.strictObject({ ...attemptShape, timestamp: DateTimeSchema.optional() });
export const ArenaActionAttemptSchema = z.strictObject({ ...attemptShape, timestamp: DateTimeSchema });
export type ArenaActionAttempt = z.infer<typeof ArenaActionAttemptSchema>;

export const AuditStatusSchema = z.enum(['decided', 'missing_decision']);
export type AuditStatus = z.infer<typeof AuditStatusSchema>;

export const ArenaAuditEventSchema = z
  .strictObject({
    match_id: nonEmpty,
    attempt: ArenaActionAttemptSchema.nullable(),
    decision: DefenseDecisionSchema.nullable(),
    status: AuditStatusSchema,
    severity: SeveritySchema,
    error: z.string().nullable(),
    timestamp: DateTimeSchema,
  })
  .superRefine((event, ctx) => {
    if (event.status === 'decided' && event.decision === null)
      ctx.addIssue({ code: 'custom', path: ['decision'], message: 'a decided event needs a decision' });
    if (event.status === 'missing_decision' && event.decision !== null) {
      ctx.addIssue({ code: 'custom', path: ['decision'], message: 'a missing_decision event has no decision' });
    }
  });
export type ArenaAuditEvent = z.infer<typeof ArenaAuditEventSchema>;

// ---- Scenarios and trials ---------------------------------------------------------------------------------------------

export const VictoryConditionsSchema = z.strictObject({
  critical_escapes: z.int().min(0).default(0),
  unexpected_allows: z.int().min(0).default(0),
  secret_exposures: z.int().min(0).default(0),
});
export type VictoryConditions = z.infer<typeof VictoryConditionsSchema>;

export const ScenarioSpecSchema = z.strictObject({
  id: kebab,
  name: nonEmpty,
  description: nonEmpty,
  victory_conditions: VictoryConditionsSchema.default({ critical_escapes: 0, unexpected_allows: 0, secret_exposures: 0 }),
  trials: z
    .array(kebab)
    .min(1)
    .superRefine((ids, ctx) => {
      const dupes = duplicates(ids);
      if (dupes.length > 0) ctx.addIssue({ code: 'custom', message: `duplicate trial ids: ${dupes.join(', ')}` });
    }),
});
export type ScenarioSpec = z.infer<typeof ScenarioSpecSchema>;

export const TrialSpecSchema = z.strictObject({
  id: kebab,
  description: nonEmpty,
  agent_roles: z.array(z.string()).default([]),
  expected: z
    .record(z.string(), DecisionSchema)
    .refine((map) => Object.keys(map).length > 0, 'needs at least one entry')
    .refine((map) => Object.keys(map).every((k) => k.trim().length > 0), 'keys must not be blank'),
  severity: SeveritySchema,
  behavior_id: kebab.nullable().default(null),
  /** Local Arena extension: a per-trial process timeout (decision 13(f)). */
  timeout_seconds: limitSeconds().optional(),
});
export type TrialSpec = z.infer<typeof TrialSpecSchema>;

// ---- Scores and reports ----------------------------------------------------------------------------------------------

export const OutcomeSchema = z.enum([OUTCOME_WINS, OUTCOME_LOSES]);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const MatchScoreSchema = z.strictObject({
  match_id: nonEmpty,
  critical_escapes: z.int().min(0),
  unexpected_allows: z.int().min(0),
  secret_exposures: z.int().min(0),
  approval_bypasses: z.int().min(0),
  missing_audits: z.int().min(0),
  agent_runtime_failures: z.int().min(0),
  outcome: OutcomeSchema,
});
export type MatchScore = z.infer<typeof MatchScoreSchema>;

export const TrialReportSchema = z.strictObject({
  trial_id: nonEmpty,
  agent_id: nonEmpty,
  description: z.string(),
  severity: SeveritySchema,
  expected: z.record(z.string(), DecisionSchema),
  passed: z.boolean(),
  error: z.string().nullable(),
  exit_code: z.int(),
  duration_seconds: z.number(),
  behavior_id: z.string().nullable(),
  audit_events: z.array(ArenaAuditEventSchema),
  /**
   * Local Arena extension: for a run that exited non-zero or failed to start, the end of its stderr (secrets scrubbed,
   * control characters shown as `\xNN`), so a failing agent says why. Absent for clean runs.
   */
  stderr_tail: z.string().optional(),
});
export type TrialReport = z.infer<typeof TrialReportSchema>;

export const ExecutionSchema = z.strictObject({
  llm_mode: z.enum(['mock', 'replay', 'live']),
  deterministic: z.boolean(),
  external_model_calls: z.int().min(0).nullable(),
  estimated_cost_usd: z.number().nullable(),
});
export type Execution = z.infer<typeof ExecutionSchema>;

export const REPORT_SCHEMA_VERSION = '2';
export const MatchReportSchema = z.strictObject({
  schema_version: z.literal(REPORT_SCHEMA_VERSION),
  match_id: nonEmpty,
  scenario_id: nonEmpty,
  scenario_name: z.string(),
  scenario_description: z.string(),
  timestamp: DateTimeSchema,
  agents: z.array(z.string()),
  victory_conditions: VictoryConditionsSchema,
  score: MatchScoreSchema,
  trials: z.array(TrialReportSchema),
  unattributed_audit_events: z.array(ArenaAuditEventSchema),
  execution: ExecutionSchema,
  /**
   * Local Arena extension: the decision service stopped answering during the match. Its missing decisions are the
   * harness's, not agent-assembly's: the match is void (not stored, not a loss) and says which service and the fix.
   */
  client_unreachable: z.strictObject({ endpoint: z.string(), missing_decisions: z.int().min(1), message: z.string() }).optional(),
});
export type MatchReport = z.infer<typeof MatchReportSchema>;

export const LeaderboardEntrySchema = z.strictObject({
  match_id: z.string(),
  scenario_id: z.string(),
  outcome: OutcomeSchema,
  critical_escapes: z.int(),
  generated_at: z.string(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

// ---- Policy files (decision 13(i) 2) ---------------------------------------------------------------------------------

export const PolicyRuleSchema = z.strictObject({
  id: kebab.optional(),
  tool: nonEmpty,
  resource: nonEmpty.default('**'),
  effect: DecisionSchema,
  reason: nonEmpty.optional(),
  layer: nonEmpty.default('policy'),
  severity: SeveritySchema.optional(),
  obligations: z.array(z.string()).default([]),
});
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

export const PolicyFileSchema = z.strictObject({
  version: z.literal(1),
  id: z.string().min(1).optional(),
  rules: z.array(PolicyRuleSchema),
});
export type PolicyFile = z.infer<typeof PolicyFileSchema>;

/** The values that occur more than once, in first-seen order. */
export function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const v of values) (seen.has(v) ? dupes : seen).add(v);
  return [...dupes];
}
