import { describe, expect, it, vi } from 'vitest';
import { ARENA_API_METHODS, type ArenaApi, channels } from '../../engine/contract/channels.js';
import { createArenaApi, type InvokeFn } from '../../preload/arena-api.js';

const CONNECTION = { baseUrl: 'http://127.0.0.1:4000', token: 'k'.repeat(43) };
const SECRETS = { ok: true, value: { available: true, names: ['OPENAI_API_KEY'] } };
const EXPORT = { suggestedName: 'games.csv', content: 'a,b\n', filter: { name: 'CSV', extensions: ['csv'] } };

function fakeInvoke(replies: Record<string, unknown> = {}) {
  return vi.fn<InvokeFn>(async (channel) => (channel in replies ? replies[channel] : { ok: true, value: undefined }));
}

describe('createArenaApi', () => {
  it('exposes exactly the allow-listed functions and nothing else', () => {
    const api = createArenaApi(fakeInvoke());
    expect(Object.keys(api).sort()).toEqual([...ARENA_API_METHODS]);
    for (const key of Object.keys(api)) expect(typeof api[key as keyof ArenaApi]).toBe('function');
    // No generic escape hatch: neither an invoke/send function nor ipcRenderer itself.
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('ipcRenderer');
    expect(Object.getPrototypeOf(api)).toBe(Object.prototype);
  });

  it('covers every contract channel, and only contract channels', async () => {
    const invoke = fakeInvoke({
      [channels.engineConnection.name]: { ok: true, value: CONNECTION },
      [channels.appVersion.name]: { ok: true, value: '1.2.3' },
      [channels.shellSaveFile.name]: { ok: true, value: { saved: false, path: null } },
      [channels.secretsList.name]: SECRETS,
      [channels.secretsSet.name]: SECRETS,
      [channels.secretsDelete.name]: SECRETS,
    });
    const api = createArenaApi(invoke);
    await api.connection();
    await api.appVersion();
    await api.openExternal('https://example.org/');
    await api.revealInFolder('/home/u/Local Arena');
    await api.saveFile(EXPORT);
    await api.revealDataFolder();
    await api.listSecrets();
    await api.setSecret('OPENAI_API_KEY', 'sk-test');
    await api.deleteSecret('OPENAI_API_KEY');
    const used = invoke.mock.calls.map(([channel]) => channel).sort();
    expect(used).toEqual(
      Object.values(channels)
        .map((c) => c.name)
        .sort(),
    );
  });

  it('sends the documented payloads', async () => {
    const invoke = fakeInvoke({ [channels.engineConnection.name]: { ok: true, value: CONNECTION } });
    const api = createArenaApi(invoke);
    await expect(api.connection()).resolves.toEqual(CONNECTION);
    await api.openExternal('https://example.org/a');
    await api.revealInFolder('/tmp/x');
    expect(invoke.mock.calls).toEqual([
      ['arena:engine.connection'],
      ['arena:shell.openExternal', { url: 'https://example.org/a' }],
      ['arena:shell.revealInFolder', { path: '/tmp/x' }],
    ]);
  });

  it('sends export and keychain payloads and returns main’s answers', async () => {
    const invoke = fakeInvoke({
      [channels.shellSaveFile.name]: { ok: true, value: { saved: true, path: '/home/u/Downloads/games.csv' } },
      [channels.secretsList.name]: SECRETS,
      [channels.secretsSet.name]: SECRETS,
      [channels.secretsDelete.name]: { ok: true, value: { available: true, names: [] } },
    });
    const api = createArenaApi(invoke);
    await expect(api.saveFile(EXPORT)).resolves.toEqual({ saved: true, path: '/home/u/Downloads/games.csv' });
    await expect(api.revealDataFolder()).resolves.toBeUndefined();
    await expect(api.listSecrets()).resolves.toEqual({ available: true, names: ['OPENAI_API_KEY'] });
    await expect(api.setSecret('OPENAI_API_KEY', 'sk-test')).resolves.toEqual({ available: true, names: ['OPENAI_API_KEY'] });
    await expect(api.deleteSecret('OPENAI_API_KEY')).resolves.toEqual({ available: true, names: [] });
    expect(invoke.mock.calls).toEqual([
      ['arena:shell.saveFile', EXPORT],
      ['arena:shell.revealDataFolder'],
      ['arena:secrets.list'],
      ['arena:secrets.set', { name: 'OPENAI_API_KEY', value: 'sk-test' }],
      ['arena:secrets.delete', { name: 'OPENAI_API_KEY' }],
    ]);
  });

  it('rejects bad arguments before anything crosses to main', async () => {
    const invoke = fakeInvoke();
    const api = createArenaApi(invoke);
    await expect(api.openExternal('file:///etc/passwd')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(api.revealInFolder('')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(api.saveFile({ ...EXPORT, suggestedName: '../x.csv' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(api.setSecret('PATH', 'sk-test')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(api.setSecret('OPENAI_API_KEY', '')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(api.deleteSecret('not a name')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(invoke).not.toHaveBeenCalled();
  });

  it('turns error envelopes into errors with main’s message', async () => {
    const api = createArenaApi(
      fakeInvoke({
        [channels.engineConnection.name]: { ok: false, error: { code: 'HANDLER_FAILED', message: 'The engine could not be started.' } },
      }),
    );
    await expect(api.connection()).rejects.toMatchObject({ code: 'HANDLER_FAILED', message: 'The engine could not be started.' });
  });

  it('refuses replies that break the contract', async () => {
    const api = createArenaApi(
      fakeInvoke({
        [channels.engineConnection.name]: { ok: true, value: { baseUrl: 'https://evil.example', token: 'x' } },
        [channels.appVersion.name]: 'not an envelope',
        [channels.secretsList.name]: { ok: true, value: { names: ['A'] } },
      }),
    );
    await expect(api.connection()).rejects.toMatchObject({ code: 'INVALID_OUTPUT' });
    await expect(api.listSecrets()).rejects.toMatchObject({ code: 'INVALID_OUTPUT' });
    await expect(api.appVersion()).rejects.toMatchObject({ code: 'INVALID_OUTPUT' });
  });
});
