// Long-poll wake-ups: a poll parks here until something changes for its agent, its wait elapses or it is aborted.
export function createWaiters() {
  const byAgent = new Map<number, Set<() => void>>();
  let closed = false;

  return {
    /** Resolves on the next notify for the agent, after `ms`, on abort, or when the service closes. */
    wait(agentId: number, ms: number, signal?: AbortSignal): Promise<void> {
      if (closed || signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        let set = byAgent.get(agentId);
        if (!set) {
          set = new Set();
          byAgent.set(agentId, set);
        }
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          const current = byAgent.get(agentId);
          current?.delete(done);
          if (current && current.size === 0) byAgent.delete(agentId);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        signal?.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
    notify(agentIds: Iterable<number>): void {
      for (const id of agentIds) for (const wake of [...(byAgent.get(id) ?? [])]) wake();
    },
    waiting(): number {
      let n = 0;
      for (const set of byAgent.values()) n += set.size;
      return n;
    },
    /** Wakes every parked poll; later waits return at once. */
    close(): void {
      closed = true;
      for (const set of [...byAgent.values()]) for (const wake of [...set]) wake();
    },
  };
}

export type Waiters = ReturnType<typeof createWaiters>;
