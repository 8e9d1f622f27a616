import { describe, expect, it, vi } from 'vitest';
import { channels, IpcErrorCode } from '../../engine/contract/channels.js';
import { type InvokeEventLike, type IpcHandlers, isTrustedSender, registerIpc } from '../../main/ipc.js';
import { fakeIpcMain } from './fake-ipc.js';

const fromApp: InvokeEventLike = { senderFrame: { url: 'app://arena/index.html#/sessions' } };

function handlers(overrides: Partial<IpcHandlers> = {}): IpcHandlers {
  return {
    engineConnection: () => ({ baseUrl: 'http://127.0.0.1:4000', token: 'a'.repeat(43) }),
    shellOpenExternal: () => undefined,
    shellRevealInFolder: () => undefined,
    appVersion: () => '0.1.0',
    shellSaveFile: () => ({ saved: false, path: null }),
    shellRevealDataFolder: () => undefined,
    secretsList: () => ({ available: true, names: [] }),
    secretsSet: ({ name }) => ({ available: true, names: [name] }),
    secretsDelete: () => ({ available: true, names: [] }),
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

describe('export and keychain channels', () => {
  const request = { suggestedName: 'report.jsonl', content: '{}\n', filter: { name: 'JSON Lines', extensions: ['jsonl'] } };

  it.each([
    ['a path instead of a name', { ...request, suggestedName: '../../.bashrc' }],
    ['a Windows path', { ...request, suggestedName: 'C:\\x.txt' }],
    ['an empty name', { ...request, suggestedName: '' }],
    ['an extension with a dot', { ...request, filter: { name: 'x', extensions: ['.jsonl'] } }],
    ['a target path smuggled in', { ...request, path: '/etc/passwd' }],
    ['no content', { suggestedName: 'a.json', filter: request.filter }],
  ])('refuses a save request with %s', async (_label, bad) => {
    const shellSaveFile = vi.fn(() => ({ saved: true, path: '/x' }));
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ shellSaveFile }));
    expect(await ipc.invoke('arena:shell.saveFile', fromApp, bad)).toMatchObject({ ok: false, error: { code: IpcErrorCode.InvalidInput } });
    expect(shellSaveFile).not.toHaveBeenCalled();
  });

  it('passes a valid save request through and checks the reply', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ shellSaveFile: () => ({ saved: true, path: '/home/u/Downloads/report.jsonl' }) }));
    expect(await ipc.invoke('arena:shell.saveFile', fromApp, request)).toEqual({
      ok: true,
      value: { saved: true, path: '/home/u/Downloads/report.jsonl' },
    });
  });

  it.each([
    ['a lower-case name', { name: 'openai_key', value: 'sk-test-lower' }],
    ['a reserved runner name', { name: 'ARENA_ADMIN_TOKEN', value: 'sk-test-arena' }],
    ['a system variable', { name: 'PATH', value: '/tmp/evil-bin' }],
    ['a runtime switch', { name: 'NODE_OPTIONS', value: '--require=evil.js' }],
    ['a loader variable', { name: 'LD_PRELOAD', value: 'evil-lib.so' }],
    ['an empty value', { name: 'OPENAI_API_KEY', value: '' }],
    ['an extra field', { name: 'OPENAI_API_KEY', value: 'sk-test-extra', agent: 'x' }],
  ])('refuses to store a key with %s', async (_label, bad) => {
    const secretsSet = vi.fn(() => ({ available: true, names: [] }));
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ secretsSet }));
    const result = await ipc.invoke('arena:secrets.set', fromApp, bad);
    expect(result).toMatchObject({ ok: false, error: { code: IpcErrorCode.InvalidInput } });
    // The refusal explains the name rule, and never echoes the value back.
    const value = (bad as { value: string }).value;
    if (!result.ok && value !== '') expect(result.error.message).not.toContain(value);
    expect(secretsSet).not.toHaveBeenCalled();
  });

  it('says why a reserved name is refused', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers());
    expect(await ipc.invoke('arena:secrets.set', fromApp, { name: 'ARENA_X', value: 'v' })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('reserved') },
    });
  });

  it('refuses the keychain and export channels to untrusted frames', async () => {
    const calls = vi.fn(() => ({ available: true, names: ['SECRET'] }));
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ secretsList: calls, secretsSet: calls, secretsDelete: calls }));
    const remote = { senderFrame: { url: 'http://127.0.0.1:4000/' } };
    for (const [channel, arg] of [
      ['arena:secrets.list', undefined],
      ['arena:secrets.set', { name: 'OPENAI_API_KEY', value: 'sk-x' }],
      ['arena:secrets.delete', { name: 'OPENAI_API_KEY' }],
      ['arena:shell.saveFile', request],
      ['arena:shell.revealDataFolder', undefined],
    ] as const) {
      const result = arg === undefined ? await ipc.invoke(channel, remote) : await ipc.invoke(channel, remote, arg);
      expect(result).toMatchObject({ ok: false, error: { code: IpcErrorCode.ForbiddenSender } });
    }
    expect(calls).not.toHaveBeenCalled();
  });

  it('never lets a handler leak anything but names through the list reply', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, handlers({ secretsList: () => ({ available: true, names: ['A'], values: { A: 'sk-live' } }) as never }));
    const result = await ipc.invoke('arena:secrets.list', fromApp);
    expect(JSON.stringify(result)).not.toContain('sk-live');
  });
});

describe('isTrustedSender', () => {
  it('accepts only frames under app://arena/', () => {
    expect(isTrustedSender({ senderFrame: { url: 'app://arena/' } })).toBe(true);
    expect(isTrustedSender({ senderFrame: { url: 'http://127.0.0.1:4000/' } })).toBe(false);
  });
});
