import { describe, expect, it } from 'vitest';
import { EngineShutdownMessageSchema } from '../../engine/contract/channels.js';
import { backoffDelay, createEngineHost } from '../../main/engine-host.js';
import { FakeProcess, fakeTimers, TOKEN } from './fake-engine.js';

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

  it('asks the engine to shut down on stop, resolves when it exits and does not restart it', async () => {
    const { host, procs, advance } = setup();
    host.start();
    procs[0]?.ready(1234);
    let stopped = false;
    const stopping = host.stop().then(() => {
      stopped = true;
    });
    expect(EngineShutdownMessageSchema.safeParse(procs[0]?.posted[0]).success).toBe(true);
    expect(procs[0]?.posted).toEqual([{ type: 'shutdown' }]);
    await Promise.resolve();
    expect(stopped).toBe(false);
    procs[0]?.emit('exit', 0);
    await stopping;
    expect(procs[0]?.killed).toBe(false);
    advance(120_000);
    expect(procs).toHaveLength(1);
    await expect(host.connection()).rejects.toThrow(/stopped/);
  });

  it('does not restart an engine that crashes while shutting down', async () => {
    const { host, procs, advance } = setup();
    host.start();
    procs[0]?.ready(1234);
    const stopping = host.stop();
    procs[0]?.emit('exit', 1);
    await stopping;
    advance(120_000);
    expect(procs).toHaveLength(1);
    expect(host.state()).toBe('stopped');
  });

  it('kills an engine that ignores the shutdown request after ten seconds', async () => {
    const { host, procs, advance } = setup();
    host.start();
    procs[0]?.ready(1234);
    const stopping = host.stop();
    advance(9_999);
    expect(procs[0]?.killed).toBe(false);
    advance(1);
    expect(procs[0]?.killed).toBe(true);
    await stopping;
    expect(procs).toHaveLength(1);
  });

  it('stops at once when no engine is running, and only once', async () => {
    const { host, procs, advance } = setup();
    host.start();
    procs[0]?.emit('exit', 1);
    expect(host.state()).toBe('restarting');
    const first = host.stop();
    expect(host.stop()).toBe(first);
    await first;
    advance(120_000);
    expect(procs).toHaveLength(1);
  });

  it('ignores a ready handshake that arrives after stop', async () => {
    const { host, procs } = setup();
    host.start();
    void host.stop();
    procs[0]?.ready(1234);
    expect(host.state()).toBe('stopped');
    expect(host.origin()).toBeNull();
  });

  it('delivers messages to the ready engine, holding them while it (re)starts', () => {
    const { host, procs, advance } = setup();
    host.start();
    host.send({ type: 'secrets', set: { A_KEY: '1' }, unset: [] });
    expect(procs[0]?.posted).toEqual([]);
    procs[0]?.ready(1000);
    expect(procs[0]?.posted).toEqual([{ type: 'secrets', set: { A_KEY: '1' }, unset: [] }]);
    host.send({ type: 'secrets', set: {}, unset: ['A_KEY'] });
    expect(procs[0]?.posted).toHaveLength(2);
    procs[0]?.emit('exit', 1);
    host.send({ type: 'secrets', set: { B_KEY: '2' }, unset: [] });
    advance(backoffDelay(1));
    procs[1]?.ready(1001);
    expect(procs[1]?.posted).toEqual([{ type: 'secrets', set: { B_KEY: '2' }, unset: [] }]);
  });
});

describe('backoffDelay', () => {
  it('doubles from half a second and caps at 30 s', () => {
    expect([1, 2, 3, 4].map(backoffDelay)).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(20)).toBe(30_000);
  });
});
