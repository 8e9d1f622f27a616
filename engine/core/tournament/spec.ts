// Tournament definition (YAML/JSON) schema. Field names are snake_case as users type them; the parsed value
// always carries `challenges: string[]` (a single `challenge` is folded in). Challenge options are kept opaque
// here and validated later by the challenge itself.
import { z } from 'zod';
import { type ErrorIssue, issueLine } from '../../contract/errors.js';
import { zodIssues } from '../../contract/schema-issues.js';
import { limitSeconds } from '../../contract/timer-limits.js';

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const positiveInt = (label: string) => z.number().int(`${label} must be a whole number`).min(1, `${label} must be at least 1`);

const RoundRobinFormatSchema = z.strictObject({
  kind: z.literal('round-robin'),
  cycles: positiveInt('cycles').default(1),
  max_tables: positiveInt('max_tables').default(200),
});
const GauntletFormatSchema = z.strictObject({
  kind: z.literal('gauntlet'),
  /** The first `challengers` agents meet every other agent (cutechess/fastchess `-seeds`). */
  challengers: positiveInt('challengers').default(1),
  cycles: positiveInt('cycles').default(1),
  max_tables: positiveInt('max_tables').default(200),
});
const SwissFormatSchema = z.strictObject({
  kind: z.literal('swiss'),
  /** Default ceil(log2 N) + 1, at most N − 1. */
  rounds: positiveInt('rounds').optional(),
  /** Default: every game of a meeting won. */
  bye_points: z.number().min(0, 'bye_points must be ≥ 0').optional(),
});
const KnockoutFormatSchema = z.strictObject({
  kind: z.literal('knockout'),
  tie_break_pairs: z.number().int('tie_break_pairs must be a whole number').min(0, 'tie_break_pairs must be ≥ 0').default(3),
  third_place: z.boolean().default(false),
});

/** Issue 46: meetings go where the ranking is least resolved; the run stops once it is decided or `budget` is spent. */
const AdaptiveFormatSchema = z.strictObject({
  kind: z.literal('adaptive'),
  /** A decided pair is ordered wrongly with probability at most 1 − confidence, however long the run looks. */
  confidence: z
    .number()
    .gt(0.5, 'confidence must be between 0.5 and 1 (exclusive)')
    .lt(1, 'confidence must be between 0.5 and 1 (exclusive)')
    .default(0.95),
  /** Only the order of the top k agents and their separation from the rest must be decided. */
  focus: z.strictObject({ top_k: positiveInt('top_k') }).optional(),
});

/** What an adaptive run may spend; games are required, tokens and usd count the model usage recorded per game. */
const BudgetSchema = z.strictObject({
  games: positiveInt('games').optional(),
  tokens: positiveInt('tokens').optional(),
  usd: z.number().gt(0, 'usd must be above 0').optional(),
});

/**
 * One recorded game played again (issue 16, "re-run this game"): its opening seed and seat order (agent indices),
 * as a one-game run. Written by the app from a stored game, not offered in the builder.
 */
const ReplayFormatSchema = z.strictObject({
  kind: z.literal('replay'),
  seed: z.string().regex(/^[0-9a-f]{1,64}$/, 'seed must be the hex opening seed of a recorded game'),
  seats: z.array(z.number().int('seats must be agent indices').min(0, 'seats must be agent indices')).min(2, 'seats must list at least 2'),
});

/** The formats a definition is built with; `replay` exists too but only comes from a recorded game. */
export const FORMAT_KINDS = ['round-robin', 'gauntlet', 'swiss', 'knockout', 'adaptive'] as const;

/** `format: swiss` is shorthand for `format: {kind: swiss}`. */
export const FormatSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { kind: value } : value),
  z.discriminatedUnion(
    'kind',
    [RoundRobinFormatSchema, GauntletFormatSchema, SwissFormatSchema, KnockoutFormatSchema, AdaptiveFormatSchema, ReplayFormatSchema],
    {
      error: (issue) => (issue.code === 'invalid_union' ? `must be one of ${FORMAT_KINDS.join(', ')}` : undefined),
    },
  ),
);

export const SprtModelSchema = z.enum(['logistic', 'normalized', 'bayeselo']);

const probability = (label: string) =>
  z.number().gt(0, `${label} must be between 0 and 1 (exclusive)`).lt(1, `${label} must be between 0 and 1 (exclusive)`).default(0.05);

export const StopSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('fixed') }),
    z.strictObject({
      kind: z.literal('sprt'),
      elo0: z.number(),
      elo1: z.number(),
      alpha: probability('alpha'),
      beta: probability('beta'),
      /** Elo model of the bounds; logistic by default because the presets (§5.4) are logistic. */
      model: SprtModelSchema.default('logistic'),
    }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? "must be 'fixed' or 'sprt'" : undefined) },
);

export const AgentEntrySchema = z.strictObject({
  manifest: z.string().min(1, 'manifest must be a non-empty path'),
  id: z
    .string()
    .regex(AGENT_ID, 'id may contain letters, digits, ".", "_" and "-", and must start with a letter or digit')
    .max(64)
    .optional(),
  /** Overrides the manifest's lifecycle for this run: `per-game` gives a warm agent cold starts. */
  lifecycle: z.enum(['per-game', 'persistent']).optional(),
});

export const LimitsSchema = z.strictObject({
  move_seconds: limitSeconds('move_seconds'),
  game_seconds: limitSeconds('game_seconds'),
});

const ChallengeIdSchema = z.string().min(1, 'challenge id must be non-empty');

const RawSpecSchema = z.strictObject({
  name: z.string().min(1, 'name must be non-empty'),
  challenge: ChallengeIdSchema.optional(),
  challenges: z.array(ChallengeIdSchema).min(1, 'challenges must list at least one challenge').optional(),
  format: FormatSchema,
  games_per_pairing: positiveInt('games_per_pairing').default(2),
  concurrency: positiveInt('concurrency').max(64, 'concurrency must be at most 64').default(1),
  seed: z.union([z.number().int('seed must be a whole number or a string'), z.string().min(1, 'seed must be non-empty')], {
    error: (issue) =>
      issue.input === undefined ? 'Required' : issue.code === 'invalid_union' ? 'seed must be a whole number or a string' : undefined,
  }),
  agents: z.array(AgentEntrySchema).min(2, 'agents must list at least 2 agents'),
  stop: StopSchema.default({ kind: 'fixed' }),
  budget: BudgetSchema.optional(),
  limits: LimitsSchema,
  options: z.record(z.string(), z.unknown()).default({}),
  max_illegal_actions: z.number().int('max_illegal_actions must be a whole number').min(0, 'max_illegal_actions must be ≥ 0').optional(),
  /** Faults a warm (persistent) agent may cause before its remaining games are forfeits (default 5). */
  max_restarts: z.number().int('max_restarts must be a whole number').min(0, 'max_restarts must be ≥ 0').optional(),
});

/** The id an agent is known by: its `id`, else its manifest path. */
export function agentId(agent: { manifest: string; id?: string | undefined }): string {
  return agent.id ?? agent.manifest;
}

export const TournamentSpecSchema = RawSpecSchema.superRefine((spec, ctx) => {
  if ((spec.challenge === undefined) === (spec.challenges === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['challenge'], message: 'give exactly one of `challenge` or `challenges`' });
  }
  spec.challenges?.forEach((id, i) => {
    if (spec.challenges?.indexOf(id) !== i)
      ctx.addIssue({ code: 'custom', path: ['challenges', i], message: `duplicate challenge '${id}'` });
  });
  const seen = new Map<string, number>();
  spec.agents.forEach((agent, i) => {
    const id = agentId(agent);
    const first = seen.get(id);
    if (first === undefined) seen.set(id, i);
    else
      ctx.addIssue({
        code: 'custom',
        path: ['agents', i, agent.id === undefined ? 'manifest' : 'id'],
        message: `duplicate agent id '${id}' (also agents[${first}]); give one of them a distinct \`id\``,
      });
  });
  const n = spec.agents.length;
  if (spec.stop.kind === 'sprt') {
    if (n !== 2) ctx.addIssue({ code: 'custom', path: ['stop'], message: `sprt needs exactly 2 agents, got ${n}` });
    if (!(spec.stop.elo0 < spec.stop.elo1))
      ctx.addIssue({ code: 'custom', path: ['stop', 'elo1'], message: 'elo1 must be greater than elo0' });
    const inRange = (p: number): boolean => p > 0 && p < 1;
    // Out-of-range alpha or beta already has its own message.
    if (inRange(spec.stop.alpha) && inRange(spec.stop.beta) && !(spec.stop.alpha + spec.stop.beta < 1))
      ctx.addIssue({ code: 'custom', path: ['stop', 'beta'], message: 'alpha + beta must be below 1' });
  }
  const format = spec.format;
  if (format.kind === 'swiss' && format.rounds !== undefined && format.rounds > n - 1) {
    ctx.addIssue({ code: 'custom', path: ['format', 'rounds'], message: `rounds must be at most agents − 1 (${n - 1})` });
  }
  if (format.kind === 'gauntlet' && format.challengers >= n) {
    ctx.addIssue({ code: 'custom', path: ['format', 'challengers'], message: `challengers must be fewer than the agents (${n})` });
  }
  if (format.kind === 'adaptive') {
    if (spec.budget?.games === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['budget', 'games'],
        message: 'Required: format adaptive needs budget.games, the most games the run may play (e.g. budget: {games: 60})',
      });
    if (format.focus && format.focus.top_k >= n)
      ctx.addIssue({ code: 'custom', path: ['format', 'focus', 'top_k'], message: `top_k must be fewer than the agents (${n})` });
    if (spec.stop.kind !== 'fixed')
      ctx.addIssue({ code: 'custom', path: ['stop'], message: 'format adaptive has its own stop rule: stop must be fixed' });
  } else if (spec.budget !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['budget'],
      message: 'budget applies to format adaptive only; remove it or use format: adaptive',
    });
  }
  if (format.kind === 'replay') {
    format.seats.forEach((agent, i) => {
      if (agent >= n)
        ctx.addIssue({ code: 'custom', path: ['format', 'seats', i], message: `no agent ${agent} (the definition has ${n})` });
    });
    if ((spec.challenges?.length ?? 1) !== 1)
      ctx.addIssue({ code: 'custom', path: ['challenges'], message: 'a replay plays one game of one challenge' });
    if (spec.stop.kind !== 'fixed')
      ctx.addIssue({ code: 'custom', path: ['stop'], message: 'a replay plays one game: stop must be fixed' });
  }
  if (spec.limits.move_seconds > spec.limits.game_seconds) {
    ctx.addIssue({ code: 'custom', path: ['limits', 'move_seconds'], message: 'move_seconds must not exceed game_seconds' });
  }
}).transform(({ challenge, challenges, ...rest }) => ({ ...rest, challenges: challenges ?? (challenge === undefined ? [] : [challenge]) }));

export type TournamentSpecInput = z.input<typeof TournamentSpecSchema>;
export type TournamentSpec = z.output<typeof TournamentSpecSchema>;
export type TournamentFormat = TournamentSpec['format'];
export type StopRule = TournamentSpec['stop'];

/** Every problem as {path, message}; unknown fields get one each. */
export function specIssues(error: z.ZodError): ErrorIssue[] {
  // Zod's default wording for a missing field is "expected X, received undefined"; say what the user must do.
  return zodIssues(error, (issue) =>
    issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'Required' : issue.message,
  );
}

/** One line per problem, `path: message`. */
export function formatSpecErrors(error: z.ZodError): string[] {
  return specIssues(error).map(issueLine);
}

export type SpecParseResult = { ok: true; spec: TournamentSpec } | { ok: false; errors: string[]; issues: ErrorIssue[] };

/** Validates a parsed YAML/JSON document. */
export function parseTournamentSpec(input: unknown): SpecParseResult {
  const result = TournamentSpecSchema.safeParse(input, {
    error: (issue) => (issue.input === undefined && issue.code === 'invalid_type' ? 'Required' : undefined),
  });
  if (result.success) return { ok: true, spec: result.data };
  const issues = specIssues(result.error);
  return { ok: false, errors: issues.map(issueLine), issues };
}
