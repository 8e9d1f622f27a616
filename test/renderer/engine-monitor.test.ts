// The page's engine monitor (arena-client/engine-monitor.ts): a request without an answer marks the engine unreachable
// and starts probing with backoff; the first answer marks it connected again and bumps the epoch pages reload on; a
// probe the engine refuses (the session ended) stops the retries until a request succeeds.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngineMonitor, reconnectDelay } from '../../renderer/src/arena-client/engine-monitor.js';
import { EngineUnreachableError, UnauthorizedError } from '../../renderer/src/arena-client/errors.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('engine monitor', () => {
  it('backs off 1, 2, 4 then 8 s between probes', () => {
    expect([1, 2, 3, 4, 5, 9].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('probes with backoff while unreachable and reconnects with a new epoch on the first answer', async () => {
    const monitor = createEngineMonitor();
    let up = false;
    const probe = vi.fn(async () => {
      if (!up) throw new EngineUnreachableError('down');
      monitor.hooks.answered(true);
    });
    monitor.setProbe(probe);
    const seen: string[] = [];
    monitor.subscribe(() => seen.push(`${monitor.state().status}:${monitor.state().epoch}`));

    monitor.hooks.unreachable();
    expect(monitor.state()).toEqual({ status: 'unreachable', epoch: 0 });
    await vi.advanceTimersByTimeAsync(999);
    expect(probe).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(probe).toHaveBeenCalledTimes(2);
    // More failures from the page's own requests meanwhile do not stack extra probes.
    monitor.hooks.unreachable();
    monitor.hooks.unreachable();
    up = true;
    await vi.advanceTimersByTimeAsync(4000);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(monitor.state()).toEqual({ status: 'connected', epoch: 1 });
    expect(seen).toEqual(['unreachable:0', 'connected:1']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe).toHaveBeenCalledTimes(3);
    monitor.dispose();
  });

  it('stops retrying when the engine refuses the session, and recovers on a later success', async () => {
    const monitor = createEngineMonitor();
    const probe = vi.fn(async () => {
      monitor.hooks.answered(false);
      throw new UnauthorizedError('no session');
    });
    monitor.setProbe(probe);
    monitor.hooks.unreachable();
    await vi.advanceTimersByTimeAsync(1000);
    expect(monitor.state().status).toBe('signed-out');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe).toHaveBeenCalledTimes(1);
    // A refused request changes nothing; a successful one (a new link opened in another tab) does.
    monitor.hooks.answered(false);
    expect(monitor.state().status).toBe('signed-out');
    monitor.hooks.answered(true);
    expect(monitor.state().status).toBe('connected');
    monitor.dispose();
  });
});
