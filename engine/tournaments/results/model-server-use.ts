// How busy each model server was during a run, from the calls recorded with its games: calls, time queued for a
// slot, and utilisation = time the server spent answering, summed over calls, over (capacity × the span from the first
// call's start to the last call's end). A replayed run's calls never reached a server and are left out; calls answered
// from the cache (model.yaml `cache: true`) did not either: they are counted apart, as cache hits.
import type { ModelServerUse } from '../../contract/model-server-use.js';
import type { CallTiming } from '../../db/repos/model-calls.js';
import type { Store } from '../../db/store.js';

export type { ModelServerUse };

/** The run's model servers as stored so far: what the live view and every report file show. */
export function runModelServerUse(store: Store, tournamentId: string): ModelServerUse[] {
  return modelServerUse(store.modelCalls.timingsOfRun(tournamentId));
}

export function modelServerUse(calls: Iterable<CallTiming>): ModelServerUse[] {
  const by = new Map<
    string,
    { capacity: number; calls: number; hits: number; busy: number; queued: number; maxQueued: number; from: number; to: number }
  >();
  const empty = () => ({ capacity: Number.POSITIVE_INFINITY, calls: 0, hits: 0, busy: 0, queued: 0, maxQueued: 0, from: Infinity, to: 0 });
  for (const c of calls) {
    if (c.replayed) continue;
    const s = by.get(c.server) ?? empty();
    by.set(c.server, s);
    if (c.cached) {
      s.hits++;
      continue;
    }
    // A call stored before it got a slot (in flight when its game ended) says nothing of the capacity.
    if (c.capacity !== undefined) s.capacity = Math.min(s.capacity, c.capacity);
    s.calls++;
    s.busy += c.latency_ms;
    s.queued += c.queued_ms;
    s.maxQueued = Math.max(s.maxQueued, c.queued_ms);
    // started_at is when the proxy read the request: the call ended after its queue and its answer.
    s.from = Math.min(s.from, c.started_at);
    s.to = Math.max(s.to, c.started_at + c.queued_ms + c.latency_ms);
    by.set(c.server, s);
  }
  return [...by]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([server, s]) => {
      const span = Math.max(0, s.to - s.from);
      return {
        server,
        // Only cache hits: the server was never asked, and its capacity never learnt.
        capacity: Number.isFinite(s.capacity) ? s.capacity : 0,
        calls: s.calls,
        cache_hits: s.hits,
        busy_ms: Math.round(s.busy),
        span_ms: Math.round(span),
        utilisation: span > 0 ? Math.min(1, round3(s.busy / (s.capacity * span))) : 0,
        queued_ms_mean: s.calls > 0 ? Math.round(s.queued / s.calls) : 0,
        queued_ms_max: Math.round(s.maxQueued),
      };
    });
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
