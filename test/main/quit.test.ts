import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createEngineHost } from '../../main/engine-host.js';
import { installGracefulQuit } from '../../main/quit.js';
import { FakeProcess, fakeTimers } from './fake-engine.js';

/** Electron's app as far as quitting goes: quit() emits before-quit, and quits unless a listener prevented it. */
class FakeApp extends EventEmitter {
  quitCalls = 0;
  quitted = false;
  prevented = 0;
  exitCode: number | null = null;
  exit(code: number) {
    this.exitCode = code;
  }
  quit() {
    this.quitCalls++;
    let prevented = false;
    this.emit('before-quit', {
      preventDefault: () => {
        prevented = true;
        this.prevented++;
      },
    });
    if (!prevented) this.quitted = true;
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup() {
  const procs: FakeProcess[] = [];
  const { timers, advance } = fakeTimers();
  const engine = createEngineHost({
    fork: () => {
      const proc = new FakeProcess();
      procs.push(proc);
      return proc;
    },
    modulePath: 'entry.js',
    dataDir: 'data',
    timers,
  });
  engine.start();
  procs[0]?.ready(4100);
  const app = new FakeApp();
  const logs: string[] = [];
  const signals = new EventEmitter();
  installGracefulQuit(app, engine, (line) => logs.push(line), signals);
  return { app, engine, procs, advance, logs, signals };
}

describe('graceful quit', () => {
  it('holds the quit until the engine has received the shutdown message and exited', async () => {
    const { app, procs } = setup();
    app.quit();
    expect(app.quitted).toBe(false);
    expect(procs[0]?.posted).toEqual([{ type: 'shutdown' }]);
    await flush();
    // The engine is still pausing its tournaments: the app must not be gone yet.
    expect(app.quitted).toBe(false);
    procs[0]?.emit('exit', 0);
    await flush();
    expect(app.quitted).toBe(true);
    expect(app.quitCalls).toBe(2);
    expect(procs[0]?.killed).toBe(false);
  });

  it('sends one shutdown however often the user asks to quit meanwhile', async () => {
    const { app, procs } = setup();
    app.quit();
    app.quit();
    app.quit();
    expect(procs[0]?.posted).toEqual([{ type: 'shutdown' }]);
    expect(app.quitted).toBe(false);
    procs[0]?.emit('exit', 0);
    await flush();
    expect(app.quitted).toBe(true);
  });

  it('kills an engine that does not exit within ten seconds and quits anyway', async () => {
    const { app, procs, advance, logs } = setup();
    app.quit();
    advance(9_000);
    await flush();
    expect(app.quitted).toBe(false);
    advance(1_000);
    await flush();
    expect(procs[0]?.killed).toBe(true);
    expect(app.quitted).toBe(true);
    expect(logs).toEqual([]);
  });

  it('does not restart an engine that exits with an error during the quit', async () => {
    const { app, procs, advance, engine } = setup();
    app.quit();
    procs[0]?.emit('exit', 1);
    await flush();
    advance(120_000);
    expect(procs).toHaveLength(1);
    expect(engine.state()).toBe('stopped');
    expect(app.quitted).toBe(true);
  });

  it('quits straight away when the engine is between restarts', async () => {
    const { app, procs, advance } = setup();
    procs[0]?.emit('exit', 1);
    app.quit();
    await flush();
    expect(app.quitted).toBe(true);
    advance(120_000);
    expect(procs).toHaveLength(1);
  });

  it('still quits when stopping the engine fails', async () => {
    const app = new FakeApp();
    const logs: string[] = [];
    installGracefulQuit(app, { stop: () => Promise.reject(new Error('boom')) }, (line) => logs.push(line));
    app.quit();
    await flush();
    expect(app.quitted).toBe(true);
    expect(logs).toEqual(['engine stop failed: boom']);
  });

  it('turns Ctrl-C into a graceful quit, and a second Ctrl-C into an immediate exit', async () => {
    const { app, procs, signals } = setup();
    signals.emit('SIGINT');
    expect(procs[0]?.posted).toEqual([{ type: 'shutdown' }]);
    expect(app.quitted).toBe(false);
    expect(app.exitCode).toBeNull();
    signals.emit('SIGINT');
    expect(app.exitCode).toBe(130);
  });

  it('quits gracefully on SIGTERM', async () => {
    const { app, procs, signals } = setup();
    signals.emit('SIGTERM');
    procs[0]?.emit('exit', 0);
    await flush();
    expect(app.quitted).toBe(true);
    expect(app.exitCode).toBeNull();
  });
});
