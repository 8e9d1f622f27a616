import { describe, expect, it, vi } from 'vitest';
import { channels, IpcErrorCode, type IpcResult } from '../../engine/contract/channels.js';
import { type InvokeEventLike, type IpcHandlers, isTrustedSender, registerIpc } from '../../main/ipc.js';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => unknown;

function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  return {
    handlers,
    handle: vi.fn((channel: string, listener: Listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
    invoke(channel: string, event: InvokeEventLike, ...args: unknown[]): Promise<IpcResult> {
      const listener = handlers.get(channel);
      if (!listener) throw new Error(`no handler for ${channel}`);
      return Promise.resolve(listener(event, ...args)) as Promise<IpcResult>;
    },
  };
}

const fromApp: InvokeEventLike = { senderFrame: { url: 'app://arena/index.html#/sessions' } };

function handlers(overrides: Partial<IpcHandlers> = {}): IpcHandlers {
  return {
    engineConnection: () => ({ baseUrl: 'http://127.0.0.1:4000', token: 'a'.repeat(43) }),
    shellOpenExternal: () => undefined,
    shellRevealInFolder: () => undefined,
    appVersion: () => '0.1.0',
    shellSaveFile: () => ({ saved: false, path: null }),
    shellRevealDataFolder: () => undefined,
    secretsList: () => ({ available: false, names: [] }),
    secretsSet: () => ({ available: false, names: [] }),
    secretsDelete: () => ({ available: false, names: [] }),
    ...overrides,
  };
}

describe('registerIpc', () => {
  it('registers exactly the contract channels, all prefixed arena:<domain>.<verb>', () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers());
    const names = [...ipc.handlers.keys()].sort();
    expect(names).toEqual(
      Object.values(channels)
        .map((c) => c.name)
        .sort(),
    );
    for (const name of names) expect(name).toMatch(/^arena:[a-z]+\.[a-zA-Z]+$/);
  });

  it('answers trusted callers with an ok envelope holding the validated value', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers());
    await expect(ipc.invoke('arena:engine.connection', fromApp)).resolves.toEqual({
      ok: true,
      value: { baseUrl: 'http://127.0.0.1:4000', token: 'a'.repeat(43) },
    });
    await expect(ipc.invoke('arena:app.version', fromApp)).resolves.toEqual({ ok: true, value: '0.1.0' });
  });

  it.each([
    ['a remote page', { senderFrame: { url: 'https://evil.example/app://arena/' } }],
    ['a file: page', { senderFrame: { url: 'file:///tmp/index.html' } }],
    ['a look-alike origin', { senderFrame: { url: 'app://arena.evil/index.html' } }],
    ['the origin without a path', { senderFrame: { url: 'app://arena' } }],
    ['a destroyed frame', { senderFrame: null }],
    ['no frame at all', {}],
  ])('refuses %s without calling the handler', async (_label, event) => {
    const appVersion = vi.fn(() => '0.1.0');
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ appVersion }));
    const result = await ipc.invoke('arena:app.version', event as InvokeEventLike);
    expect(result).toMatchObject({ ok: false, error: { code: IpcErrorCode.ForbiddenSender } });
    expect(appVersion).not.toHaveBeenCalled();
  });

  it('validates input before the handler runs', async () => {
    const shellOpenExternal = vi.fn(() => undefined);
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ shellOpenExternal }));
    for (const bad of [
      { url: 'file:///etc/passwd' },
      { url: 'javascript:alert(1)' },
      { url: 42 },
      'https://x.test',
      { url: 'https://x.test', extra: 1 },
    ]) {
      const result = await ipc.invoke('arena:shell.openExternal', fromApp, bad);
      expect(result).toMatchObject({ ok: false, error: { code: IpcErrorCode.InvalidInput } });
    }
    expect(shellOpenExternal).not.toHaveBeenCalled();
    await expect(ipc.invoke('arena:shell.openExternal', fromApp, { url: 'https://example.org/docs' })).resolves.toEqual({
      ok: true,
      value: undefined,
    });
    expect(shellOpenExternal).toHaveBeenCalledWith({ url: 'https://example.org/docs' });
  });

  it('refuses arguments on channels that take none, and extra arguments anywhere', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers());
    expect(await ipc.invoke('arena:engine.connection', fromApp, { sneaky: true })).toMatchObject({
      ok: false,
      error: { code: IpcErrorCode.InvalidInput },
    });
    expect(await ipc.invoke('arena:shell.revealInFolder', fromApp, { path: '/tmp' }, 'more')).toMatchObject({
      ok: false,
      error: { code: IpcErrorCode.InvalidInput },
    });
  });

  it('reports handler failures by message only', async () => {
    const ipc = fakeIpcMain();
    registerIpc(
      ipc,
      handlers({
        engineConnection: () => {
          throw new Error('The engine could not be started.');
        },
      }),
    );
    await expect(ipc.invoke('arena:engine.connection', fromApp)).resolves.toEqual({
      ok: false,
      error: { code: IpcErrorCode.HandlerFailed, message: 'The engine could not be started.' },
    });
  });

  it('never passes on a reply that breaks the contract', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ engineConnection: () => ({ baseUrl: 'http://evil.example', token: 'x' }) }));
    expect(await ipc.invoke('arena:engine.connection', fromApp)).toMatchObject({ ok: false, error: { code: IpcErrorCode.InvalidOutput } });
  });

  it('returns a disposer that removes every handler', () => {
    const ipc = fakeIpcMain();
    const dispose = registerIpc(ipc, handlers());
    dispose();
    expect(ipc.handlers.size).toBe(0);
    expect(ipc.removeHandler).toHaveBeenCalledTimes(Object.keys(channels).length);
  });
});

describe('isTrustedSender', () => {
  it('accepts only frames under app://arena/', () => {
    expect(isTrustedSender({ senderFrame: { url: 'app://arena/' } })).toBe(true);
    expect(isTrustedSender({ senderFrame: { url: 'http://127.0.0.1:4000/' } })).toBe(false);
  });
});
