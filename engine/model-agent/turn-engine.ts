// One model decision, whatever the protocol: ask within the turn's deadline, retry transient provider errors with
// backoff, interpret the answer strictly, re-ask once with the error ("rethink"), and otherwise fall back to the
// adapter's safe action. Every call and every fallback leaves an ARENA_MODEL_USAGE line, so reports can tell model
// faults (unparsable, illegal, timeout) from provider faults.

import {
  capText,
  type FallbackCause,
  formatStatusLine,
  formatTurnLine,
  formatUsageLine,
  type ModelCallUsage,
  TRANSCRIPT_BUDGET_CHARS,
  TRANSCRIPT_CAP_CHARS,
  TRANSCRIPT_TAIL_CAP_CHARS,
} from '../contract/usage-line.js';
import { createScrubber, type Scrubber } from '../core/secret-scrub.js';
import { backoffDelay, sleep } from './backoff.js';
import type { ModelConfig } from './config.js';
import { costOf, type PriceTable } from './price-table.js';
import { type ChatMessage, type ModelProvider, ProviderError } from './provider.js';

export type Interpretation<A> = { ok: true; action: A } | { ok: false; cause: 'model_unparsable' | 'model_illegal'; error: string };
export type Execution = { ok: true } | { ok: false; error: string };

export interface TurnSpec<A> {
  messages: ChatMessage[];
  /** Answer text → action; a shape error is `model_unparsable`, a well-formed but forbidden move `model_illegal`. */
  interpret(text: string): Interpretation<A>;
  /** Carries the action out; a refusal (the server rejects the move) is an illegal move the model may rethink. */
  execute(action: A): Promise<Execution>;
  /** The safe action when the model cannot produce one: a legal default, waiting, or a forfeit. */
  fallback: { describe: string; run(): Promise<void> };
}

export type TurnResult<A> = { source: 'model' | 'rethink'; action: A } | { source: 'fallback'; cause: FallbackCause; detail: string };

export interface TurnEngineOptions {
  provider: ModelProvider;
  config: Pick<ModelConfig, 'timeouts' | 'retry'>;
  priceTable: PriceTable;
  protocol: string;
  agentId?: string;
  /** ARENA_MOVE_SECONDS: the game's move limit; the turn deadline is the smaller of it and timeouts.turn_seconds. */
  moveLimitSeconds?: number;
  /** Values that must never be written out (the API key); scrubbed from every emitted text. */
  secrets?: readonly string[];
  /** `host:port` of the model server: named in the status line when it cannot be reached. */
  endpoint?: string;
  /** One channel line at a time (stderr in the agent process). */
  emit(line: string): void;
}

type Ask = { ok: true; text: string } | { ok: false; cause: 'model_timeout' | 'provider_error'; detail: string };

export function rethinkPrompt(error: string): string {
  return `Your previous answer was rejected: ${error}\nAnswer again with exactly one JSON object in the required format and nothing else.`;
}

export class TurnEngine {
  private turn = 0;
  /** Transcript characters written so far (see TRANSCRIPT_BUDGET_CHARS). */
  private transcriptChars = 0;

  private readonly scrubber: Scrubber;

  constructor(private readonly options: TurnEngineOptions) {
    this.scrubber = createScrubber(options.secrets ?? []);
  }

  get turns(): number {
    return this.turn;
  }

  turnTimeoutMs(): number {
    const configured = this.options.config.timeouts.turn_seconds;
    const limit = this.options.moveLimitSeconds;
    return Math.round(1000 * (limit !== undefined && limit > 0 ? Math.min(configured, limit) : configured));
  }

  /** `timeoutMs` shortens this turn further, e.g. to the protocol's own deadline for the move. */
  async play<A>(spec: TurnSpec<A>, options: { timeoutMs?: number } = {}): Promise<TurnResult<A>> {
    const turn = ++this.turn;
    const controller = new AbortController();
    const timeoutMs = Math.max(0, Math.min(this.turnTimeoutMs(), options.timeoutMs ?? Number.POSITIVE_INFINITY));
    const deadline = Date.now() + timeoutMs;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let messages = [...spec.messages];
      for (const phase of ['initial', 'rethink'] as const) {
        const asked = await this.ask(messages, turn, phase, controller.signal, deadline, timeoutMs);
        if (!asked.ok) return await this.fallBack(spec, turn, asked.cause, asked.detail);
        const interpreted = spec.interpret(asked.text);
        let error: string;
        let cause: 'model_unparsable' | 'model_illegal';
        if (interpreted.ok) {
          const executed = await spec.execute(interpreted.action);
          if (executed.ok) return { source: phase === 'initial' ? 'model' : 'rethink', action: interpreted.action };
          error = executed.error;
          cause = 'model_illegal';
        } else {
          error = interpreted.error;
          cause = interpreted.cause;
        }
        if (phase === 'rethink') return await this.fallBack(spec, turn, cause, error);
        messages = [...messages, { role: 'assistant', content: asked.text }, { role: 'user', content: rethinkPrompt(error) }];
      }
      throw new Error('unreachable');
    } finally {
      clearTimeout(timer);
    }
  }

  private async fallBack<A>(spec: TurnSpec<A>, turn: number, cause: FallbackCause, detail: string): Promise<TurnResult<A>> {
    const { protocol, agentId } = this.options;
    const safeDetail = this.scrubber.capped(detail, 1000);
    this.options.emit(
      formatUsageLine({
        kind: 'fallback',
        v: 1,
        ...(agentId !== undefined ? { agent_id: agentId } : {}),
        protocol,
        turn,
        cause,
        detail: safeDetail,
        action: spec.fallback.describe,
      }),
    );
    await spec.fallback.run();
    return { source: 'fallback', cause, detail: safeDetail };
  }

  /** One question, retried on transient provider errors while the turn's deadline allows. */
  private async ask(
    messages: ChatMessage[],
    turn: number,
    phase: 'initial' | 'rethink',
    signal: AbortSignal,
    deadline: number,
    timeoutMs: number,
  ): Promise<Ask> {
    const { provider, config } = this.options;
    for (let attempt = 1; ; attempt++) {
      const remaining = deadline - Date.now();
      if (signal.aborted || remaining <= 0)
        return { ok: false, cause: 'model_timeout', detail: `no answer within the turn's ${timeoutMs} ms` };
      const started = performance.now();
      try {
        const completion = await provider.complete({
          messages,
          signal,
          timeoutMs: Math.min(config.timeouts.request_seconds * 1000, remaining),
        });
        const latency = Math.round(performance.now() - started);
        this.record(turn, phase, attempt, latency, { outcome: 'ok' }, completion.promptTokens, completion.completionTokens);
        this.transcript(turn, phase, attempt, messages, completion.text);
        return { ok: true, text: completion.text };
      } catch (error) {
        const latency = Math.round(performance.now() - started);
        const failure = error instanceof ProviderError ? error : new ProviderError(String(error), 'network');
        const timedOut = signal.aborted || failure.kind === 'aborted' || Date.now() >= deadline;
        const outcome =
          timedOut || failure.kind === 'timeout' ? 'timeout' : failure.kind === 'rate_limited' ? 'rate_limited' : 'provider_error';
        this.record(turn, phase, attempt, latency, {
          outcome,
          ...(failure.status !== undefined ? { http_status: failure.status } : {}),
          error: this.scrub(failure.message),
        });
        this.transcript(turn, phase, attempt, messages, `[no completion: ${this.scrub(failure.message)}]`);
        // Nothing answered: the decision was lost to the connection, which is the harness's or the set-up's fault.
        const unreachable = failure.kind === 'network' && failure.status === undefined;
        if (unreachable && (timedOut || !failure.transient || attempt - 1 >= config.retry.max_retries)) this.unreachable(failure.message);
        if (timedOut) return { ok: false, cause: 'model_timeout', detail: `no answer within the turn's ${timeoutMs} ms` };
        const retries = attempt - 1;
        const cause = failure.kind === 'timeout' ? 'model_timeout' : 'provider_error';
        if (!failure.transient || retries >= config.retry.max_retries) return { ok: false, cause, detail: this.scrub(failure.message) };
        const delay = backoffDelay(config.retry, retries, failure.retryAfterMs);
        if (Date.now() + delay >= deadline) {
          if (unreachable) this.unreachable(failure.message);
          return {
            ok: false,
            cause,
            detail: `${this.scrub(failure.message)} (the next retry in ${delay} ms would pass the turn's deadline)`,
          };
        }
        await sleep(delay, signal);
      }
    }
  }

  private record(
    turn: number,
    phase: 'initial' | 'rethink',
    attempt: number,
    latencyMs: number,
    result: Pick<ModelCallUsage, 'outcome' | 'http_status' | 'error'>,
    promptTokens = 0,
    completionTokens = 0,
  ): void {
    const { provider, priceTable, protocol, agentId } = this.options;
    const line: ModelCallUsage = {
      kind: 'call',
      v: 1,
      ...(agentId !== undefined ? { agent_id: agentId } : {}),
      protocol,
      turn,
      phase,
      attempt,
      provider: provider.name,
      model: provider.model,
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      latency_ms: latencyMs,
      ...costOf(priceTable, provider.name, provider.model, promptTokens, completionTokens),
      ...result,
    };
    this.options.emit(formatUsageLine(line));
  }

  private unreachable(error: string): void {
    const { agentId, endpoint } = this.options;
    if (endpoint === undefined) return;
    this.options.emit(
      formatStatusLine({
        kind: 'provider_unreachable',
        v: 1,
        ...(agentId !== undefined ? { agent_id: agentId } : {}),
        endpoint,
        detail: this.scrub(error).slice(0, 1000),
      }),
    );
  }

  private transcript(
    turn: number,
    phase: 'initial' | 'rethink',
    attempt: number,
    messages: readonly ChatMessage[],
    completion: string,
  ): void {
    const cap = this.transcriptChars >= TRANSCRIPT_BUDGET_CHARS ? TRANSCRIPT_TAIL_CAP_CHARS : TRANSCRIPT_CAP_CHARS;
    const prompt = capText(this.scrub(messages.map((m) => `${m.role}: ${m.content}`).join('\n\n')), cap);
    const answer = capText(this.scrub(completion), cap);
    this.transcriptChars += prompt.text.length + answer.text.length;
    const { protocol, agentId } = this.options;
    this.options.emit(
      formatTurnLine({
        v: 1,
        ...(agentId !== undefined ? { agent_id: agentId } : {}),
        protocol,
        turn,
        phase,
        attempt,
        prompt: prompt.text,
        completion: answer.text,
        truncated: prompt.truncated || answer.truncated,
      }),
    );
  }

  private scrub(text: string): string {
    return this.scrubber(text);
  }
}
