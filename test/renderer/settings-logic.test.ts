import { describe, expect, it } from 'vitest';
import { checkKeyForm, keychainState, serveWithKeyExample } from '../../renderer/src/features/settings/settings-logic.js';

describe('checkKeyForm', () => {
  it('accepts a key for a valid name and says whether it replaces a stored one', () => {
    expect(checkKeyForm(' OPENAI_API_KEY ', 'sk-1', [])).toEqual({ ok: true, name: 'OPENAI_API_KEY', replaces: false });
    expect(checkKeyForm('OPENAI_API_KEY', 'sk-1', ['OPENAI_API_KEY'])).toEqual({ ok: true, name: 'OPENAI_API_KEY', replaces: true });
  });

  it('explains bad names, suggesting the upper-case form', () => {
    expect(checkKeyForm('', 'sk', [])).toMatchObject({ ok: false, field: 'name' });
    expect(checkKeyForm('openai_api_key', 'sk', [])).toEqual({
      ok: false,
      field: 'name',
      message: 'Not a usable name: an environment variable name such as OPENAI_API_KEY. Try OPENAI_API_KEY.',
    });
    expect(checkKeyForm('PATH', 'sk', [])).toEqual({
      ok: false,
      field: 'name',
      message: 'Not a usable name: PATH is a system variable, not an API key.',
    });
    expect(checkKeyForm('ARENA_TOKEN', 'sk', [])).toMatchObject({ ok: false, message: expect.stringContaining('reserved') });
    // A lower-case reserved name gets no misleading "try" hint.
    expect(checkKeyForm('path', 'sk', [])).toMatchObject({ ok: false, message: expect.not.stringContaining('Try') });
  });

  it('refuses empty keys and keys with stray whitespace, never echoing the key', () => {
    expect(checkKeyForm('A_KEY', '', [])).toMatchObject({ ok: false, field: 'value' });
    const padded = checkKeyForm('A_KEY', 'sk-secret-value\n', []);
    expect(padded).toMatchObject({ ok: false, field: 'value' });
    expect(JSON.stringify(padded)).not.toContain('sk-secret-value');
  });
});

describe('keychainState', () => {
  it('offers the form only when the keychain is available', () => {
    expect(keychainState({ available: true, names: [] })).toMatchObject({ canStore: true });
    const off = keychainState({ available: false, names: [] });
    expect(off).toMatchObject({ canStore: false, title: 'Keychain unavailable' });
    expect(off.detail).toContain('arena serve');
    expect(keychainState({ available: false, names: ['A_KEY'] }).detail).toContain('delete');
  });
});

describe('serveWithKeyExample', () => {
  it('shows a POSIX and a PowerShell way to start the engine with a key', () => {
    expect(serveWithKeyExample('MY_KEY')).toEqual({
      posix: 'MY_KEY=sk-… npx arena serve --open',
      powershell: '$env:MY_KEY="sk-…"; npx arena serve --open',
    });
  });
});
