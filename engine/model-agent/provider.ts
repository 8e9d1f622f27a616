// What the turn engine needs from a provider: one chat completion with token counts, and errors it can classify.
import type { Scrubber } from '../core/secret-scrub.js';
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Completion {
  text: string;
  promptTokens: number;
  completionTokens: number;
}

export interface CompletionRequest {
  messages: readonly ChatMessage[];
  signal: AbortSignal;
  /** Per-request timeout; the caller's signal carries the turn deadline. */
  timeoutMs: number;
}

export interface ModelProvider {
  readonly name: 'openai-compatible' | 'anthropic';
  readonly model: string;
  complete(request: CompletionRequest): Promise<Completion>;
}

/** A failed call, normalised across client libraries so retry and accounting do not care which one threw. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'rate_limited' | 'server' | 'network' | 'timeout' | 'aborted' | 'client',
    readonly status?: number,
    /** From Retry-After / retry-after-ms, when the server sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** 429, 5xx, 408/409 and dropped connections are worth another try; a 400 or 401 is not. */
  get transient(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'server' || this.kind === 'network' || this.kind === 'timeout';
  }
}

/** Retry-After is seconds or an HTTP date; OpenAI also sends retry-after-ms. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function kindForStatus(status: number): ProviderError['kind'] {
  if (status === 429) return 'rate_limited';
  if (status >= 500 || status === 408 || status === 409) return 'server';
  return 'client';
}

/**
 * Error text safe to log: the SDKs echo the server's message, which never holds our key, but a misbehaving proxy
 * could. The key is scrubbed before the length cap (a cap first could leave its prefix), and the cap keeps stderr small.
 */
export function shortMessage(text: string, scrub: Scrubber, max = 300): string {
  return scrub.capped(text.replace(/\s+/g, ' ').trim(), max);
}

// biome-ignore lint/suspicious/noExplicitAny: matches any SDK error class, whatever its constructor takes
type ErrorClass<T = Error> = abstract new (...args: any[]) => T;

/**
 * The error classes both official SDKs export (same names, same shape: the Anthropic SDK is generated from the same
 * template as the OpenAI one). Timeout is checked before connection errors because it is a subclass of them.
 */
export interface SdkErrorClasses {
  APIUserAbortError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIError: ErrorClass<Error & { status: number | undefined; headers: { get(name: string): string | null } | undefined }>;
}

/** One classification of a client library's failure for both providers: status → kind, Retry-After → wait. */
export function toProviderError(error: unknown, sdk: SdkErrorClasses, scrub: Scrubber): ProviderError {
  if (error instanceof sdk.APIUserAbortError) return new ProviderError('request aborted', 'aborted');
  if (error instanceof sdk.APIConnectionTimeoutError) return new ProviderError('request timed out', 'timeout');
  if (error instanceof sdk.APIConnectionError)
    return new ProviderError(`connection failed: ${shortMessage(error.message, scrub)}`, 'network');
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    return new ProviderError(
      `HTTP ${error.status}: ${shortMessage(error.message, scrub)}`,
      kindForStatus(error.status),
      error.status,
      retryAfterMs(error.headers),
    );
  }
  return new ProviderError(shortMessage(error instanceof Error ? error.message : String(error), scrub), 'network');
}
