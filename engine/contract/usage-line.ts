// The model agent's stderr channel to the runner: one `ARENA_MODEL_USAGE: {json}` line per model call or fallback and
// one `ARENA_MODEL_TURN: {json}` line per call's prompt/completion. Lines are self-describing so the runner can pick them
// out of an agent's stderr without knowing anything else about the agent.
import { z } from 'zod';

export const USAGE_PREFIX = 'ARENA_MODEL_USAGE: ';
export const TURN_PREFIX = 'ARENA_MODEL_TURN: ';
/** The model agent could not reach its model server for a decision: a harness/config fault, not the model's. */
export const STATUS_PREFIX = 'ARENA_MODEL_STATUS: ';
/** Transcript text per call (prompt and completion each) is cut to this many characters, so stderr stays bounded. */
export const TRANSCRIPT_CAP_CHARS = 16_000;
/**
 * Transcript characters per agent process. Past it, each field keeps only TRANSCRIPT_TAIL_CAP_CHARS: the runner caps
 * an agent's stderr (1 MiB by default), and the usage lines after a long game must still fit in it.
 */
export const TRANSCRIPT_BUDGET_CHARS = 512_000;
export const TRANSCRIPT_TAIL_CAP_CHARS = 500;

export const FALLBACK_CAUSES = ['model_unparsable', 'model_illegal', 'model_timeout', 'provider_error'] as const;
export const FallbackCauseSchema = z.enum(FALLBACK_CAUSES);
export type FallbackCause = z.infer<typeof FallbackCauseSchema>;

/** What became of one model call: an answer, or why there was none. */
export const CALL_OUTCOMES = ['ok', 'timeout', 'rate_limited', 'provider_error'] as const;

export const ModelCallUsageSchema = z.strictObject({
  kind: z.literal('call'),
  v: z.literal(1),
  agent_id: z.string().optional(),
  protocol: z.string(),
  turn: z.int().min(1),
  /** 'initial' is the first question of a turn, 'rethink' the one re-ask after a rejected answer. */
  phase: z.enum(['initial', 'rethink']),
  /** 1-based attempt within the phase (retries after transient errors count up). */
  attempt: z.int().min(1),
  provider: z.enum(['openai-compatible', 'anthropic']),
  model: z.string(),
  prompt_tokens: z.int().min(0),
  completion_tokens: z.int().min(0),
  latency_ms: z.int().min(0),
  cost_usd: z.number().min(0),
  /** False when the price table has no entry for the model (cost is then 0). */
  priced: z.boolean(),
  outcome: z.enum(CALL_OUTCOMES),
  http_status: z.int().optional(),
  error: z.string().optional(),
});
export type ModelCallUsage = z.infer<typeof ModelCallUsageSchema>;

export const ModelFallbackSchema = z.strictObject({
  kind: z.literal('fallback'),
  v: z.literal(1),
  agent_id: z.string().optional(),
  protocol: z.string(),
  turn: z.int().min(1),
  cause: FallbackCauseSchema,
  /** The error that led to the fallback (parse error, refusal, provider message); never a prompt or a key. */
  detail: z.string(),
  /** What the agent did instead: a protocol-specific description, e.g. "wait" or a legal action. */
  action: z.string(),
});
export type ModelFallback = z.infer<typeof ModelFallbackSchema>;

export const ModelUsageLineSchema = z.discriminatedUnion('kind', [ModelCallUsageSchema, ModelFallbackSchema]);
export type ModelUsageLine = z.infer<typeof ModelUsageLineSchema>;

export const ModelTurnSchema = z.strictObject({
  v: z.literal(1),
  agent_id: z.string().optional(),
  protocol: z.string(),
  turn: z.int().min(1),
  phase: z.enum(['initial', 'rethink']),
  attempt: z.int().min(1),
  /** The messages sent, flattened to `role: text` blocks, capped at TRANSCRIPT_CAP_CHARS. */
  prompt: z.string(),
  completion: z.string(),
  truncated: z.boolean(),
});
export type ModelTurn = z.infer<typeof ModelTurnSchema>;

export const ProviderUnreachableSchema = z.strictObject({
  kind: z.literal('provider_unreachable'),
  v: z.literal(1),
  agent_id: z.string().optional(),
  /** `host:port` of the model server the agent called. */
  endpoint: z.string().min(1).max(300),
  /** The connection error (scrubbed, capped). */
  detail: z.string().max(1000),
});
export type ProviderUnreachable = z.infer<typeof ProviderUnreachableSchema>;

export function formatStatusLine(status: ProviderUnreachable): string {
  return STATUS_PREFIX + JSON.stringify(status);
}

export function formatUsageLine(line: ModelUsageLine): string {
  return USAGE_PREFIX + JSON.stringify(line);
}

export function formatTurnLine(turn: ModelTurn): string {
  return TURN_PREFIX + JSON.stringify(turn);
}

/** Cuts `text` to `cap` characters; the marker says how much went missing. */
export function capText(text: string, cap = TRANSCRIPT_CAP_CHARS): { text: string; truncated: boolean } {
  if (text.length <= cap) return { text, truncated: false };
  return { text: `${text.slice(0, cap)}\n…[${text.length - cap} characters cut]`, truncated: true };
}

export type ParsedLine =
  | { type: 'usage'; value: ModelUsageLine }
  | { type: 'turn'; value: ModelTurn }
  | { type: 'status'; value: ProviderUnreachable }
  | { type: 'invalid'; error: string; raw: string }
  | { type: 'other'; raw: string };

/**
 * Classifies one stderr line. A line with a known prefix whose JSON does not validate is `invalid` (a harness fault
 * worth reporting), anything else is `other` (ordinary stderr).
 */
export function parseAgentLine(raw: string): ParsedLine {
  const line = raw.replace(/\r$/, '');
  const prefix = [USAGE_PREFIX, TURN_PREFIX, STATUS_PREFIX].find((p) => line.startsWith(p)) ?? null;
  if (prefix === null) return { type: 'other', raw: line };
  let json: unknown;
  try {
    json = JSON.parse(line.slice(prefix.length));
  } catch (error) {
    return { type: 'invalid', error: `not JSON: ${(error as Error).message}`, raw: line };
  }
  const schema = prefix === USAGE_PREFIX ? ModelUsageLineSchema : prefix === TURN_PREFIX ? ModelTurnSchema : ProviderUnreachableSchema;
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { type: 'invalid', error: z.prettifyError(parsed.error), raw: line };
  if (prefix === USAGE_PREFIX) return { type: 'usage', value: parsed.data as ModelUsageLine };
  if (prefix === TURN_PREFIX) return { type: 'turn', value: parsed.data as ModelTurn };
  return { type: 'status', value: parsed.data as ProviderUnreachable };
}

export interface ParsedAgentOutput {
  usage: ModelUsageLine[];
  turns: ModelTurn[];
  /** Decisions the agent made without its model because the server could not be reached. */
  unreachable: ProviderUnreachable[];
  invalid: { error: string; raw: string }[];
  /** Every other stderr line, unchanged, in order. */
  other: string[];
}

/** Splits a whole stderr capture into the channel's records and the rest. */
export function parseAgentOutput(stderr: string): ParsedAgentOutput {
  const out: ParsedAgentOutput = { usage: [], turns: [], unreachable: [], invalid: [], other: [] };
  for (const raw of stderr.split('\n')) {
    if (raw === '') continue;
    const line = parseAgentLine(raw);
    if (line.type === 'usage') out.usage.push(line.value);
    else if (line.type === 'turn') out.turns.push(line.value);
    else if (line.type === 'status') out.unreachable.push(line.value);
    else if (line.type === 'invalid') out.invalid.push({ error: line.error, raw: line.raw });
    else out.other.push(line.raw);
  }
  return out;
}

export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export interface UsageTotals {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number;
  cost_usd: number;
  fallbacks: Partial<Record<FallbackCause, number>>;
  /** How the calls ended: answered, or why not (timeout, rate_limited, provider_error). Absent in rows before v0.1. */
  outcomes?: Partial<Record<CallOutcome, number>>;
  /** Calls that were retries (attempt > 1 after a transient error) and re-asks after a rejected answer. */
  retries?: number;
  rethinks?: number;
}

export function emptyUsage(): UsageTotals {
  return { calls: 0, prompt_tokens: 0, completion_tokens: 0, latency_ms: 0, cost_usd: 0, fallbacks: {} };
}

/**
 * Adds one game's or run's totals into an agent's running sum (tournament standings, governance matches). Counts
 * missing from rows stored before they existed add nothing.
 */
export function addUsage(into: UsageTotals, u: UsageTotals): void {
  into.calls += u.calls;
  into.prompt_tokens += u.prompt_tokens;
  into.completion_tokens += u.completion_tokens;
  into.latency_ms += u.latency_ms;
  into.cost_usd += u.cost_usd;
  for (const [cause, n] of Object.entries(u.fallbacks ?? {}) as Array<[FallbackCause, number | undefined]>)
    into.fallbacks[cause] = (into.fallbacks[cause] ?? 0) + (n ?? 0);
  into.outcomes ??= {};
  const outcomes = into.outcomes;
  for (const [outcome, n] of Object.entries(u.outcomes ?? {}) as Array<[CallOutcome, number | undefined]>)
    outcomes[outcome] = (outcomes[outcome] ?? 0) + (n ?? 0);
  into.retries = (into.retries ?? 0) + (u.retries ?? 0);
  into.rethinks = (into.rethinks ?? 0) + (u.rethinks ?? 0);
}

/** One agent's sum over the units (games, trial runs) it reported usage in. */
export interface UsageSum extends UsageTotals {
  units: number;
  cost_per_unit_usd: number;
}

/** Adds one unit's totals to a running sum (null: the first unit); the one place a per-agent sum grows. */
export function addUsageUnit(sum: UsageSum | null, usage: UsageTotals): UsageSum {
  const into = sum ?? { units: 0, cost_per_unit_usd: 0, ...emptyUsage() };
  into.units++;
  addUsage(into, usage);
  into.cost_per_unit_usd = into.cost_usd / into.units;
  return into;
}

/** Sums usage per key (an agent) over units in order. */
export function sumUsage<K>(units: Iterable<readonly [K, UsageTotals]>): Map<K, UsageSum> {
  const sums = new Map<K, UsageSum>();
  for (const [key, usage] of units) sums.set(key, addUsageUnit(sums.get(key) ?? null, usage));
  return sums;
}

/** Per-agent totals for reports. */
export function totalUsage(lines: readonly ModelUsageLine[]): UsageTotals {
  const totals = emptyUsage();
  const outcomes: Partial<Record<CallOutcome, number>> = {};
  let retries = 0;
  let rethinks = 0;
  for (const line of lines) {
    if (line.kind === 'fallback') {
      totals.fallbacks[line.cause] = (totals.fallbacks[line.cause] ?? 0) + 1;
      continue;
    }
    outcomes[line.outcome] = (outcomes[line.outcome] ?? 0) + 1;
    if (line.attempt > 1) retries++;
    if (line.phase === 'rethink') rethinks++;
    totals.calls++;
    totals.prompt_tokens += line.prompt_tokens;
    totals.completion_tokens += line.completion_tokens;
    totals.latency_ms += line.latency_ms;
    totals.cost_usd += line.cost_usd;
  }
  return { ...totals, outcomes, retries, rethinks };
}
