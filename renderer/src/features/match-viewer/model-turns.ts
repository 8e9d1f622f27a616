// Model turns of a game (transcript channel 'model'): prompt and completion per call, with the per-call usage and
// fallback details when the model agent recorded them, and the per-seat totals from the game row.
import { z } from 'zod';
import type { TranscriptEntry } from '../../../../engine/contract/tournament.js';

/** A seat's model-usage totals (model-usage.ts SeatUsage); the games route types them loosely. */
const SeatUsageSchema = z.object({
  calls: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  latency_ms: z.number(),
  cost_usd: z.number(),
  fallbacks: z.record(z.string(), z.number()).default({}),
});
export type SeatUsage = z.infer<typeof SeatUsageSchema>;

export function seatUsage(raw: unknown): SeatUsage | null {
  const parsed = SeatUsageSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export interface ModelTurnView {
  key: string;
  /** A model call (prompt and completion), or a fallback the agent took instead of the model's answer. */
  kind: 'call' | 'fallback';
  seat: number;
  turn: number | null;
  phase: string | null;
  attempt: number | null;
  prompt: string;
  completion: string;
  truncated: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
  latencyMs: number | null;
  costUsd: number | null;
  /** Why the agent fell back to a default action on this turn (model_unparsable, model_timeout, …), if it did. */
  fallback: string | null;
  /** What became of the call: ok, timeout, rate_limited, provider_error. */
  outcome: string | null;
  /** Fallbacks: the error that led to it and what the agent did instead. */
  detail: string | null;
  action: string | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function modelTurns(transcript: readonly TranscriptEntry[]): ModelTurnView[] {
  return transcript
    .filter((e) => e.channel === 'model')
    .map((e) => {
      const d = e.data ?? {};
      const fallback = d.fallback;
      const cause =
        str(d.fallback_cause) ??
        (fallback && typeof fallback === 'object' ? str((fallback as Record<string, unknown>).cause) : str(fallback));
      return {
        key: `model:${e.index}`,
        kind: d.kind === 'fallback' ? ('fallback' as const) : ('call' as const),
        seat: typeof e.from === 'number' ? e.from : -1,
        turn: num(d.turn),
        phase: str(d.phase),
        attempt: num(d.attempt),
        prompt: typeof d.prompt === 'string' ? d.prompt : '',
        completion: e.content,
        truncated: d.truncated === true,
        promptTokens: num(d.prompt_tokens),
        completionTokens: num(d.completion_tokens),
        latencyMs: num(d.latency_ms),
        costUsd: num(d.cost_usd),
        fallback: cause,
        outcome: str(d.outcome),
        detail: str(d.detail),
        action: str(d.action),
      };
    })
    .sort((a, b) => a.seat - b.seat || (a.turn ?? 0) - (b.turn ?? 0));
}

/** "$0.0012" below a cent keeps two significant digits; "$0" for free local models. */
/** Fallback causes with their counts, e.g. "model_timeout ×2". */
export function fallbackSummary(usage: SeatUsage | null | undefined): string {
  const entries = Object.entries(usage?.fallbacks ?? {}).filter(([, n]) => n > 0);
  return entries.length === 0 ? 'none' : entries.map(([cause, n]) => `${cause} ×${n}`).join(', ');
}
