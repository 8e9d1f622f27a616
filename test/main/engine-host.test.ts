import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { backoffDelay, createEngineHost, type Timers, type UtilityProcessLike } from '../../main/engine-host.js';

const TOKEN = 'T'.repeat(43);

class FakeProcess extends EventEmitter implements UtilityProcessLike {
  killed = false;
  posted: unknown[] = [];
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  kill() {
    this.killed = true;
    this.emit('exit', 15);
    return true;
  }
  ready(port: number) {
    this.emit('message', { type: 'ready', port, token: TOKEN });
  }
}

function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const id = nextId++;
      pending.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (id) => pending.delete(id as number),
    now: () => now,
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].callback();
    }
    now = until;
  };
  return { timers, advance };
}

function setup(options: { maxAttempts?: number } = {}) {
  const procs: FakeProcess[] = [];
  const forks: { modulePath: string; args: string[] }[] = [];
  const { timers, advance } = fakeTimers();
  const host = createEngineHost({
    fork: (modulePath, args) => {
      forks.push({ modulePath, args });
      const proc = new FakeProcess();
      procs.push(proc);
      return proc;
    },
    modulePath: '/app/dist/engine/entry.js',
    dataDir: '/data',
    readyTimeoutMs: 1000,
    timers,
    ...options,
  });
  return { host, procs, forks, advance };
}

describe('engine host', () => {
  it('forks the engine entry with the data folder and resolves the connection on ready', async () => {
    const { host, procs, forks } = setup();
    host.start();
    expect(forks).toEqual([{ modulePath: '/app/dist/engine/entry.js', args: ['--data-dir', '/data'] }]);
    const connection = host.connection();
    expect(host.state()).toBe('starting');
    procs[0]?.ready(43121);
    await expect(connection).resolves.toEqual({ baseUrl: 'http://127.0.0.1:43121', token: TOKEN });
    expect(host.origin()).toBe('http://127.0.0.1:43121');
  });

  it('ignores messages that are not a valid ready handshake', () => {
    const { host, procs } = setup();
    host.start();
    procs[0]?.emit('message', { type: 'ready', port: 'x', token: TOKEN });
    procs[0]?.emit('message', { type: 'ready', port: 80, token: 'short' });
    procs[0]?.emit('message', 'hello');
    expect(host.state()).toBe('starting');
  });

  it('kills an engine that does not report ready in time and starts another', async () => {
    const { host, procs, advance } = setup();
    host.start();
    advance(1000);
    expect(procs[0]?.killed).toBe(true);
    expect(host.state()).toBe('restarting');
    advance(backoffDelay(1));
    expect(procs).toHaveLength(2);
    const connection = host.connection();
    procs[1]?.ready(5000);
    await expect(connection).resolves.toMatchObject({ baseUrl: 'http://127.0.0.1:5000' });
  });

  it('restarts after a crash with growing delays and a new port and token', async () => {
    const { host, procs, advance } = setup();
    host.start();
    procs[0]?.ready(1111);
    procs[0]?.emit('exit', 1);
    expect(host.origin()).toBeNull();
    advance(backoffDelay(1) - 1);
    expect(procs).toHaveLength(1);
    advance(1);
    expect(procs).toHaveLength(2);
    procs[1]?.emit('exit', 1);
    advance(backoffDelay(2) - 1);
    expect(procs).toHaveLength(2);
    advance(1);
    expect(procs).toHaveLength(3);
    procs[2]?.ready(2222);
    await expect(host.connection()).resolves.toMatchObject({ baseUrl: 'http://127.0.0.1:2222' });
  });

  it('gives up after too many failed starts and rejects waiters', async () => {
    const { host, procs, advance } = setup({ maxAttempts: 3 });
    host.start();
    const connection = host.connection();
    for (let i = 0; i < 3; i++) {
      procs[i]?.emit('exit', 1);
      advance(60_000);
    }
    expect(host.state()).toBe('failed');
    await expect(connection).rejects.toThrow(/failed to start 3 times/);
    await expect(host.connection()).rejects.toThrow(/could not be started/);
  });

  it('asks the engine to shut down on stop and does not restart it', async () => {
    const { host, procs, advance } = setup();
    host.start();
    procs[0]?.ready(1234);
    host.stop();
    expect(procs[0]?.posted).toEqual([{ type: 'shutdown' }]);
    procs[0]?.emit('exit', 0);
    advance(120_000);
    expect(procs).toHaveLength(1);
    await expect(host.connection()).rejects.toThrow(/stopped/);
  });

  it('kills an engine that ignores the shutdown request', () => {
    const { host, procs, advance } = setup();
    host.start();
    procs[0]?.ready(1234);
    host.stop();
    advance(3000);
    expect(procs[0]?.killed).toBe(true);
  });
});

describe('backoffDelay', () => {
  it('doubles from half a second and caps at 30 s', () => {
    expect([1, 2, 3, 4].map(backoffDelay)).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(20)).toBe(30_000);
  });
});
