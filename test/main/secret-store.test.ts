import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretStore, keychainAvailable, SECRETS_FILE } from '../../main/secret-store.js';
import { fakeSafeStorage } from './fake-safe-storage.js';

const KEY = 'sk-live-0123456789abcdefDEADBEEF';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-secrets-'));
  file = path.join(dir, SECRETS_FILE);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('secret store', () => {
  it('round-trips a key through the keychain without the plaintext ever reaching the file', () => {
    const logs: string[] = [];
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux', log: (l) => logs.push(l) });
    expect(store.list()).toEqual({ available: true, names: [] });
    expect(store.set('OPENAI_API_KEY', KEY)).toEqual({ available: true, names: ['OPENAI_API_KEY'] });
    store.set('ANTHROPIC_API_KEY', 'sk-ant-other');

    const raw = fs.readFileSync(file);
    expect(raw.toString('utf8')).not.toContain(KEY);
    expect(raw.toString('latin1')).not.toContain(Buffer.from(KEY).toString('base64'));
    expect(raw.toString('utf8')).toContain('OPENAI_API_KEY');
    expect(store.values()).toEqual({ OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: 'sk-ant-other' });
    expect(logs).toEqual([]);

    // A second store over the same file (the next launch) reads the same keys.
    const again = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux' });
    expect(again.values().OPENAI_API_KEY).toBe(KEY);
  });

  it('lists names only, sorted, and never a value', () => {
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'darwin' });
    store.set('Z_KEY', KEY);
    const list = store.set('A_KEY', 'sk-second');
    expect(list).toEqual({ available: true, names: ['A_KEY', 'Z_KEY'] });
    expect(JSON.stringify(store.list())).not.toContain(KEY);
    expect(Object.keys(store.list()).sort()).toEqual(['available', 'names']);
  });

  it('replaces and deletes keys', () => {
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'win32' });
    store.set('OPENAI_API_KEY', 'old-value');
    store.set('OPENAI_API_KEY', KEY);
    expect(store.values()).toEqual({ OPENAI_API_KEY: KEY });
    expect(store.delete('OPENAI_API_KEY')).toEqual({ available: true, names: [] });
    expect(store.values()).toEqual({});
    expect(store.delete('NEVER_STORED')).toEqual({ available: true, names: [] });
  });

  it.skipIf(process.platform === 'win32')('keeps the file and its folder owner-only', () => {
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux' });
    store.set('OPENAI_API_KEY', KEY);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    // The atomic write leaves no temp files behind.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['api-keys.json']);
  });

  it("refuses Linux's basic_text backend: a fixed built-in key is not a keychain", () => {
    const safe = fakeSafeStorage({ backend: 'basic_text' });
    const store = createSecretStore({ file, safeStorage: safe, platform: 'linux' });
    expect(store.list()).toEqual({ available: false, names: [] });
    expect(() => store.set('OPENAI_API_KEY', KEY)).toThrow(/keychain is not available/);
    expect(safe.calls).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('reports the keychain state per platform', () => {
    expect(keychainAvailable(fakeSafeStorage({ available: false }), 'darwin')).toBe(false);
    expect(keychainAvailable(fakeSafeStorage(), 'darwin')).toBe(true);
    expect(keychainAvailable(fakeSafeStorage({ backend: 'kwallet6' }), 'linux')).toBe(true);
    expect(keychainAvailable(fakeSafeStorage({ backend: 'unknown' }), 'linux')).toBe(false);
    // macOS and Windows have no backend choice; the Linux-only check does not apply.
    expect(keychainAvailable(fakeSafeStorage({ backend: 'basic_text' }), 'win32')).toBe(true);
  });

  it('still lists and deletes keys stored earlier when the keychain has gone', () => {
    createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux' }).set('OPENAI_API_KEY', KEY);
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage({ available: false }), platform: 'linux' });
    expect(store.list()).toEqual({ available: false, names: ['OPENAI_API_KEY'] });
    expect(store.values()).toEqual({});
    expect(store.delete('OPENAI_API_KEY')).toEqual({ available: false, names: [] });
  });

  it('skips a key that no longer decrypts, logging its name but not its content', () => {
    createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux' }).set('GOOD_KEY', KEY);
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    data.secrets.BROKEN_KEY = Buffer.from('garbage-not-v10').toString('base64');
    fs.writeFileSync(file, JSON.stringify(data));
    const logs: string[] = [];
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux', log: (l) => logs.push(l) });
    expect(store.values()).toEqual({ GOOD_KEY: KEY });
    expect(logs).toEqual(['stored key BROKEN_KEY could not be decrypted; set it again in Settings']);
  });

  it('refuses to overwrite a damaged file, so keys in it can still be recovered', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":1,"secrets":');
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux' });
    expect(() => store.list()).toThrow(/damaged; move it away/);
    expect(() => store.set('OPENAI_API_KEY', KEY)).toThrow(/damaged/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version":1,"secrets":');
  });

  it('ignores entries whose names could never be granted', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const cipher = fakeSafeStorage().encryptString('x').toString('base64');
    fs.writeFileSync(file, JSON.stringify({ version: 1, secrets: { PATH: cipher, lower: cipher, OK_KEY: cipher } }));
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux' });
    expect(store.list().names).toEqual(['OK_KEY']);
    expect(Object.keys(store.values())).toEqual(['OK_KEY']);
  });

  it('validates names itself too (defence in depth behind the IPC schema)', () => {
    const store = createSecretStore({ file, safeStorage: fakeSafeStorage(), platform: 'linux' });
    expect(() => store.set('NODE_OPTIONS', '--inspect')).toThrow(/configure the runtime/);
    expect(() => store.set('OPENAI_API_KEY', '')).toThrow(/empty/);
  });
});
