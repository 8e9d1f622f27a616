// Delay before retry n (0-based): exponential from base, capped, and never shorter than the server's Retry-After.
export interface BackoffPolicy {
  base_delay_ms: number;
  max_delay_ms: number;
}

export function backoffDelay(policy: BackoffPolicy, retry: number, retryAfterMs?: number): number {
  const exponential = Math.min(policy.max_delay_ms, policy.base_delay_ms * 2 ** retry);
  // A server asking for longer wins over our cap: retrying earlier only earns another 429.
  return retryAfterMs === undefined ? exponential : Math.max(exponential, retryAfterMs);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
