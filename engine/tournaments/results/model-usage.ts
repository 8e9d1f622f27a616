// Model-agent accounting for a game: each seat's whole stderr capture (the runner keeps it up to its output cap, which
// the model agent's transcript budget is sized for) is split into ARENA_MODEL_USAGE totals and ARENA_MODEL_TURN
// transcripts. Seats whose agents print no such lines (scripted agents) have no usage.

import type { ModelCallRecord } from '../../contract/model-call.js';
import type { TranscriptEntry } from '../../contract/tournament.js';
import {
  addUsageUnit,
  type ModelCallUsage,
  type ModelTurn,
  parseAgentOutput,
  totalUsage,
  type UsageSum,
  type UsageTotals,
} from '../../contract/usage-line.js';
import type { LaunchResult } from '../../runner/launch.js';

export interface SeatUsage extends UsageTotals {
  /** Usage or turn lines that did not validate (a model agent / runner mismatch worth seeing in the report). */
  invalid_lines: number;
  /** The runner cut the seat's stderr at its cap: the totals may miss the last calls. */
  stderr_truncated: boolean;
}

export interface GameAccounting {
  /** Per seat, or null when no seat reported model usage. */
  usage: Array<SeatUsage | null> | null;
  /** Seats whose model server the engine's forward could not reach during the game (the first such call of each). */
  unreachable?: Array<{ seat: number; endpoint: string; detail: string }>;
  /** Model turns (channel 'model'), in seat order then turn order; indices are set when appended to a transcript. */
  turns: TranscriptEntry[];
  /** Per seat, the calls through its model server's forward (engine/runner/model-proxy.ts); null when none made any. */
  calls?: Array<ModelCallRecord[] | null> | null;
}

/** Accounting of one game from the exit results of its seats (seat order; null for a seat that never started). */
export function accountGame(results: ReadonlyArray<LaunchResult | null>): GameAccounting {
  const turns: TranscriptEntry[] = [];
  const unreachable: NonNullable<GameAccounting['unreachable']> = [];
  const usage = results.map((result, seat): SeatUsage | null => {
    if (!result) return null;
    const parsed = parseAgentOutput(result.stderr);
    turns.push(...modelEntries(parsed, seat, result.startedAt + result.durationMs));
    // Only what the engine saw counts: its model-server forward could not connect for one of this seat's calls. The
    // agent's own ARENA_MODEL_STATUS report adds the detail it saw but is not trusted alone (any agent can print it).
    const seen = result.modelCalls?.find((call) => call.unreachable !== undefined);
    if (seen) {
      const said = parsed.unreachable.find((report) => report.endpoint === seen.server);
      unreachable.push({ seat, endpoint: seen.server, detail: said?.detail ?? `connection failed: ${seen.unreachable}` });
    }
    if (parsed.usage.length === 0 && parsed.turns.length === 0 && parsed.invalid.length === 0) return null;
    return { ...totalUsage(parsed.usage), invalid_lines: parsed.invalid.length, stderr_truncated: result.stderrTruncated };
  });
  const calls = results.map((r) => (r?.modelCalls?.length ? r.modelCalls : null));
  return {
    usage: usage.some((u) => u !== null) ? usage : null,
    turns,
    calls: calls.some((c) => c !== null) ? calls : null,
    ...(unreachable.length > 0 ? { unreachable } : {}),
  };
}

/**
 * One transcript entry per model call (its prompt and completion, with the call's tokens, latency, cost and outcome
 * when the agent wrote one usage line per transcript line, as the model agent does) and one per fallback, in the
 * order the agent wrote them.
 */
function modelEntries(parsed: ReturnType<typeof parseAgentOutput>, seat: number, timestamp: number): TranscriptEntry[] {
  const calls = parsed.usage.filter((u): u is ModelCallUsage => u.kind === 'call');
  const paired = calls.length === parsed.turns.length;
  const entries: TranscriptEntry[] = [];
  const turnEntry = (t: ModelTurn, call: ModelCallUsage | undefined): TranscriptEntry => ({
    index: 0,
    channel: 'model',
    from: seat,
    to: null,
    content: t.completion,
    timestamp,
    data: {
      kind: 'call',
      turn: t.turn,
      phase: t.phase,
      attempt: t.attempt,
      protocol: t.protocol,
      prompt: t.prompt,
      truncated: t.truncated,
      ...(call
        ? {
            outcome: call.outcome,
            prompt_tokens: call.prompt_tokens,
            completion_tokens: call.completion_tokens,
            latency_ms: call.latency_ms,
            cost_usd: call.cost_usd,
            ...(call.http_status !== undefined ? { http_status: call.http_status } : {}),
          }
        : {}),
    },
  });
  if (!paired) {
    for (const t of parsed.turns) entries.push(turnEntry(t, undefined));
  }
  let next = 0;
  for (const line of parsed.usage) {
    if (line.kind === 'call') {
      const t = parsed.turns[next++];
      if (paired && t) entries.push(turnEntry(t, line));
      continue;
    }
    entries.push({
      index: 0,
      channel: 'model',
      from: seat,
      to: null,
      content: `fallback (${line.cause}): ${line.action}`,
      timestamp,
      // `fallback_cause` is the field the match viewer reads a turn's fallback from.
      data: {
        kind: 'fallback',
        turn: line.turn,
        protocol: line.protocol,
        fallback_cause: line.cause,
        detail: line.detail,
        action: line.action,
      },
    });
  }
  return entries;
}

/** Totals of one agent over the attempts it sat in; `games` counts the attempts with usage. */
export interface AgentUsage extends UsageTotals {
  games: number;
  cost_per_game_usd: number;
}

export function agentUsage(
  rows: ReadonlyArray<{ seats: readonly number[]; usage?: Array<object | null> | null }>,
  agentCount: number,
): Array<AgentUsage | null> {
  const sums: Array<UsageSum | null> = new Array(agentCount).fill(null);
  for (const row of rows) addSeatUsage(sums, row);
  return agentUsageOf(sums);
}

/** Adds one attempt's per-seat usage to per-agent sums (one unit per seat that reported any). */
export function addSeatUsage(sums: Array<UsageSum | null>, row: { seats: readonly number[]; usage?: Array<object | null> | null }): void {
  (row.usage ?? []).forEach((raw, seat) => {
    const agent = row.seats[seat];
    if (raw && agent !== undefined && agent < sums.length) sums[agent] = addUsageUnit(sums[agent] ?? null, raw as UsageTotals);
  });
}

/** Per-agent sums as the standings give them: games with usage and cost per such game. */
export function agentUsageOf(sums: ReadonlyArray<UsageSum | null>): Array<AgentUsage | null> {
  return sums.map((sum) => {
    if (!sum) return null;
    const { units: games, cost_per_unit_usd, ...totals } = sum;
    return { games, cost_per_game_usd: cost_per_unit_usd, ...totals };
  });
}
