// The shell's native handlers wired as main.ts wires them: real secret store (fake keychain), real engine host (fake
// utility process), the engine's own message handler applying the updates, and IPC registration with sender checks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IpcErrorCode } from '../../engine/contract/channels.js';
import { grantedSecrets } from '../../engine/runner/agent-env.js';
import { applySecretsMessage } from '../../engine/runtime/keychain-env.js';
import { createEngineHost } from '../../main/engine-host.js';
import { createEngineSecrets } from '../../main/engine-secrets.js';
import { createShellHandlers, type ShellHandlerDeps } from '../../main/handlers.js';
import { registerIpc } from '../../main/ipc.js';
import { createSecretStore, SECRETS_FILE } from '../../main/secret-store.js';
import { FakeProcess, fakeTimers } from './fake-engine.js';
import { fakeIpcMain } from './fake-ipc.js';
import { fakeSafeStorage } from './fake-safe-storage.js';

const fromApp = { senderFrame: { url: 'app://arena/index.html#/settings' } };
const KEY = 'sk-proj-handlers-test-9f8e7d6c5b4a';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-handlers-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function setup(options: { keychain?: boolean; baseEnv?: NodeJS.ProcessEnv; overrides?: Partial<ShellHandlerDeps> } = {}) {
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const store = createSecretStore({
    file: path.join(dataDir, SECRETS_FILE),
    safeStorage: fakeSafeStorage({ available: options.keychain ?? true }),
    platform: 'linux',
    log,
  });
  const engineSecrets = createEngineSecrets({ store, baseEnv: options.baseEnv ?? { PATH: '/usr/bin' }, log });
  const procs: FakeProcess[] = [];
  /** The environment each engine process was forked with, and the one it has now (messages applied). */
  const envs: NodeJS.ProcessEnv[] = [];
  const { timers, advance } = fakeTimers();
  const engine = createEngineHost({
    fork: () => {
      const proc = new FakeProcess();
      const env: NodeJS.ProcessEnv = engineSecrets.forkEnv();
      // What engine/entry.ts does with parentPort messages.
      const post = proc.postMessage.bind(proc);
      proc.postMessage = (message: unknown) => {
        post(message);
        applySecretsMessage(env, message);
      };
      procs.push(proc);
      envs.push(env);
      return proc;
    },
    modulePath: 'entry.js',
    dataDir,
    timers,
    log,
  });
  const openPath = vi.fn(async (_target: string) => '');
  const ipc = fakeIpcMain();
  registerIpc(
    ipc,
    createShellHandlers({
      engine: { connection: () => engine.connection(), send: (message) => engine.send(message) },
      secrets: store,
      secretsUpdate: () => engineSecrets.update(),
      dataDir,
      appVersion: () => '0.1.0',
      openExternal: async () => {},
      showItemInFolder: () => {},
      openPath,
      showSaveDialog: async () => ({ canceled: true }),
      exportDirs: () => [],
      dirExists: () => false,
      ...options.overrides,
    }),
  );
  engine.start();
  procs[0]?.ready(4200);
  return { ipc, procs, envs, advance, logs, openPath, store };
}

describe('keychain handlers', () => {
  it('stores a key, answers with names only and hands the value to the running engine', async () => {
    const { ipc, procs, envs, logs } = setup();
    const reply = await ipc.invoke('arena:secrets.set', fromApp, { name: 'OPENAI_API_KEY', value: KEY });
    expect(reply).toEqual({ ok: true, value: { available: true, names: ['OPENAI_API_KEY'] } });
    expect(JSON.stringify(reply)).not.toContain(KEY);
    expect(procs[0]?.posted.at(-1)).toEqual({ type: 'secrets', set: { OPENAI_API_KEY: KEY }, unset: [] });
    expect(envs[0]?.OPENAI_API_KEY).toBe(KEY);
    expect(JSON.stringify(await ipc.invoke('arena:secrets.list', fromApp))).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(KEY);
  });

  it('lets the runner grant each agent only the keys its manifest lists', async () => {
    const { ipc, envs } = setup();
    await ipc.invoke('arena:secrets.set', fromApp, { name: 'OPENAI_API_KEY', value: KEY });
    await ipc.invoke('arena:secrets.set', fromApp, { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-other' });
    const env = envs[0] ?? {};
    expect(grantedSecrets({ secrets: ['OPENAI_API_KEY'] }, env)).toEqual({ OPENAI_API_KEY: KEY });
    expect(grantedSecrets({ secrets: [] }, env)).toEqual({});
  });

  it('removes a deleted key from the engine, restoring a value the launching shell had', async () => {
    const { ipc, envs, procs } = setup({ baseEnv: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'from-shell' } });
    await ipc.invoke('arena:secrets.set', fromApp, { name: 'OPENAI_API_KEY', value: KEY });
    await ipc.invoke('arena:secrets.set', fromApp, { name: 'ANTHROPIC_API_KEY', value: 'from-keychain' });
    expect(envs[0]?.ANTHROPIC_API_KEY).toBe('from-keychain');
    await expect(ipc.invoke('arena:secrets.delete', fromApp, { name: 'OPENAI_API_KEY' })).resolves.toEqual({
      ok: true,
      value: { available: true, names: ['ANTHROPIC_API_KEY'] },
    });
    await ipc.invoke('arena:secrets.delete', fromApp, { name: 'ANTHROPIC_API_KEY' });
    expect(envs[0]).not.toHaveProperty('OPENAI_API_KEY');
    expect(envs[0]?.ANTHROPIC_API_KEY).toBe('from-shell');
    expect(procs[0]?.posted.at(-1)).toEqual({ type: 'secrets', set: { ANTHROPIC_API_KEY: 'from-shell' }, unset: [] });
  });

  it('forks a restarted engine with the current keys in its environment', async () => {
    const { ipc, procs, envs, advance } = setup();
    await ipc.invoke('arena:secrets.set', fromApp, { name: 'OPENAI_API_KEY', value: KEY });
    procs[0]?.emit('exit', 1);
    advance(500);
    expect(procs).toHaveLength(2);
    expect(envs[1]).toMatchObject({ PATH: '/usr/bin', OPENAI_API_KEY: KEY });
    await ipc.invoke('arena:secrets.delete', fromApp, { name: 'OPENAI_API_KEY' });
    procs[1]?.ready(4300);
    expect(envs[1]).not.toHaveProperty('OPENAI_API_KEY');
  });

  it('refuses to store a key when the keychain is unavailable, with a message the user can act on', async () => {
    const { ipc, procs } = setup({ keychain: false });
    expect(await ipc.invoke('arena:secrets.list', fromApp)).toEqual({ ok: true, value: { available: false, names: [] } });
    const reply = await ipc.invoke('arena:secrets.set', fromApp, { name: 'OPENAI_API_KEY', value: KEY });
    expect(reply).toMatchObject({ ok: false, error: { code: IpcErrorCode.HandlerFailed, message: expect.stringMatching(/keychain/) } });
    expect(JSON.stringify(reply)).not.toContain(KEY);
    expect(procs[0]?.posted).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, SECRETS_FILE))).toBe(false);
  });

  it('never writes the plaintext into the data folder', async () => {
    const { ipc } = setup();
    await ipc.invoke('arena:secrets.set', fromApp, { name: 'OPENAI_API_KEY', value: KEY });
    for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) expect(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')).not.toContain(KEY);
    }
  });
});

describe('shell handlers', () => {
  it('opens the engine data folder', async () => {
    const { ipc, openPath } = setup();
    expect(await ipc.invoke('arena:shell.revealDataFolder', fromApp)).toEqual({ ok: true, value: undefined });
    expect(openPath).toHaveBeenCalledWith(dataDir);
  });

  it('reports when the OS cannot open the data folder', async () => {
    const { ipc } = setup({ overrides: { openPath: async () => 'No application is registered for folders' } });
    expect(await ipc.invoke('arena:shell.revealDataFolder', fromApp)).toMatchObject({
      ok: false,
      error: { code: IpcErrorCode.HandlerFailed, message: 'The data folder could not be opened: No application is registered for folders' },
    });
  });

  it('saves an export where the user chose', async () => {
    const target = path.join(dataDir, 'out.csv');
    const { ipc } = setup({ overrides: { showSaveDialog: async () => ({ canceled: false, filePath: target }) } });
    const reply = await ipc.invoke('arena:shell.saveFile', fromApp, {
      suggestedName: 'games.csv',
      content: 'game,result\n1,win\n',
      filter: { name: 'CSV', extensions: ['csv'] },
    });
    expect(reply).toEqual({ ok: true, value: { saved: true, path: target } });
    expect(fs.readFileSync(target, 'utf8')).toBe('game,result\n1,win\n');
  });

  it('keeps refusing relative reveal paths', async () => {
    const { ipc } = setup();
    expect(await ipc.invoke('arena:shell.revealInFolder', fromApp, { path: 'relative/x' })).toMatchObject({
      ok: false,
      error: { code: IpcErrorCode.HandlerFailed },
    });
  });
});
