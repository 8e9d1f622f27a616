// Governance report browser (issue 6): matches stored in SQLite by `arena scenarios run` / the admin API, their
// parsed reports and raw files. The report itself is MatchReport (governance.ts); runs carry the runner's record.
import { z } from 'zod';
import { MatchReportSchema, OutcomeSchema } from './governance.js';
import { IsolationSchema } from './isolation.js';

export const GovernanceMatchSummarySchema = z.object({
  matchId: z.string(),
  scenarioId: z.string(),
  scenarioName: z.string(),
  outcome: OutcomeSchema,
  criticalEscapes: z.number().int(),
  unexpectedAllows: z.number().int(),
  secretExposures: z.number().int(),
  approvalBypasses: z.number().int(),
  missingAudits: z.number().int(),
  agentRuntimeFailures: z.number().int(),
  agents: z.array(z.string()),
  client: z.string(),
  startedAt: z.number(),
  finishedAt: z.number(),
  reportDir: z.string().nullable(),
});
export type GovernanceMatchSummaryDto = z.infer<typeof GovernanceMatchSummarySchema>;

export const GovernanceMatchListQuerySchema = z.object({
  scenario: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const GovernanceMatchListResponseSchema = z.object({
  matches: z.array(GovernanceMatchSummarySchema),
  total: z.number().int(),
});

export const GovernanceRunSchema = z.object({
  seq: z.number().int(),
  agentId: z.string(),
  trialId: z.string(),
  severity: z.string(),
  passed: z.boolean(),
  error: z.string().nullable(),
  exitCode: z.number().int(),
  durationSeconds: z.number(),
  termination: z.string(),
  signal: z.string().nullable(),
  peakRssKb: z.number().nullable(),
  network: z.string(),
  /** What the run's sandbox enforced; null for runs stored before it was recorded. */
  isolation: IsolationSchema.nullable().optional(),
  stdoutBytes: z.number().int(),
  stderrBytes: z.number().int(),
  /** Already redacted by the runner before it was stored. */
  stderrTail: z.string(),
});

export const GovernanceMatchDetailSchema = z.object({
  match: GovernanceMatchSummarySchema,
  report: MatchReportSchema,
  runs: z.array(GovernanceRunSchema),
});
export type GovernanceMatchDetail = z.infer<typeof GovernanceMatchDetailSchema>;

/** Raw files of one match: GET /governance/matches/:id/files/:file. */
export const GOVERNANCE_FILES = ['arena-report.json', 'arena-report.md', 'audit.jsonl', 'trials.csv', 'isolation.json'] as const;
export const GovernanceFileSchema = z.enum(GOVERNANCE_FILES);

/** Scenarios the engine can run, for the "Run scenario" form. */
export const GovernanceScenarioSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  trials: z.number().int(),
  /** Agent folders (manifest paths) the scenario ships with. */
  agents: z.array(z.object({ id: z.string(), manifest_path: z.string() })),
});
export type GovernanceScenario = z.infer<typeof GovernanceScenarioSchema>;
export const GovernanceScenarioListResponseSchema = z.object({ scenarios: z.array(GovernanceScenarioSchema) });

/** Uploaded policy files are small YAML documents; this bound keeps a request from holding megabytes. */
export const MAX_POLICY_BYTES = 256 * 1024;

/** Who decides each attempt (spec §13(i)); default `expected`. */
export const GovernanceClientChoiceSchema = z.discriminatedUnion('kind', [
  /** The scenario's own expected decisions: checks the harness, proves nothing about a policy. */
  z.strictObject({ kind: z.literal('expected') }),
  /** A policy file's text (the engine validates it before the match starts); `name` labels the match. */
  z.strictObject({ kind: z.literal('policy'), name: z.string().max(200).optional(), yaml: z.string().min(1).max(MAX_POLICY_BYTES) }),
  /** An agent-assembly decision service on this machine. */
  z.strictObject({ kind: z.literal('http'), url: z.string().min(1).max(2048) }),
]);
export type GovernanceClientChoice = z.infer<typeof GovernanceClientChoiceSchema>;

export const GovernanceRunRequestSchema = z.strictObject({
  scenario: z.string().min(1),
  /** Manifest paths; default: the scenario's own agents. */
  agents: z.array(z.string().min(1)).min(1).optional(),
  client: GovernanceClientChoiceSchema.optional(),
});
/** The match runs in the background; poll the match (404 until it is stored) or list matches. */
export const GovernanceRunResponseSchema = z.object({ match_id: z.string(), status: z.literal('running') });
