import { describe, expect, it } from 'vitest';
import { KEYCHAIN_NAMES_ENV } from '../../../engine/contract/channels.js';
import { buildAgentEnv } from '../../../engine/runner/agent-env.js';
import { applySecretsMessage, registerKeychainSecrets } from '../../../engine/runtime/keychain-env.js';
import { secretScrubber } from '../../../engine/runtime/known-secrets.js';
import { createEngineSecrets } from '../../../main/engine-secrets.js';

const manifest = (secrets: string[]) => ({ secrets, entrypoint: { type: 'command' as const, command: 'x', env: {} } });

describe('applySecretsMessage', () => {
  it('sets and unsets keys in the engine environment, which the runner then grants per manifest', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin', OLD_KEY: 'old' };
    expect(applySecretsMessage(env, { type: 'secrets', set: { OPENAI_API_KEY: 'sk-a', OTHER_KEY: 'sk-b' }, unset: ['OLD_KEY'] })).toBe(
      true,
    );
    expect(env).toEqual({ PATH: '/usr/bin', OPENAI_API_KEY: 'sk-a', OTHER_KEY: 'sk-b' });
    const agentEnv = buildAgentEnv({ manifest: manifest(['OPENAI_API_KEY']) as never, hostEnv: env, runnerEnv: {}, platform: 'linux' });
    expect(agentEnv).toEqual({ PATH: '/usr/bin', OPENAI_API_KEY: 'sk-a' });
  });

  it('ignores anything that is not a valid secrets update, and never touches reserved variables', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin' };
    for (const message of [
      { type: 'shutdown' },
      { type: 'secrets', set: { PATH: '/tmp/evil' }, unset: [] },
      { type: 'secrets', set: {}, unset: ['PATH'] },
      { type: 'secrets', set: { NODE_OPTIONS: '--require=x' }, unset: [] },
      { type: 'secrets', set: { lower: 'x' }, unset: [] },
      { type: 'secrets', set: { A_KEY: 42 }, unset: [] },
      { type: 'secrets', set: {}, unset: [], extra: true },
      null,
      'secrets',
    ]) {
      expect(applySecretsMessage(env, message)).toBe(false);
    }
    expect(env).toEqual({ PATH: '/usr/bin' });
  });
});

describe('keychain values are scrubbed', () => {
  it('from the first instruction (fork environment) and after every update', () => {
    const secrets = createEngineSecrets({
      store: { values: () => ({ KC_TEST_KEY: 'sk-keychain-at-start-1a2b' }) },
      baseEnv: { PATH: '/usr/bin' },
    });
    const env = secrets.forkEnv();
    expect(env[KEYCHAIN_NAMES_ENV]).toBe('KC_TEST_KEY');
    // Reserved ARENA_* names never reach agents.
    expect(buildAgentEnv({ manifest: manifest(['KC_TEST_KEY']) as never, hostEnv: env, runnerEnv: {}, platform: 'linux' })).toEqual({
      PATH: '/usr/bin',
      KC_TEST_KEY: 'sk-keychain-at-start-1a2b',
    });
    registerKeychainSecrets(env);
    expect(secretScrubber()('x sk-keychain-at-start-1a2b')).toBe('x <secret:KC_TEST_KEY>');
    applySecretsMessage({}, { type: 'secrets', set: { KC_LATER_KEY: 'sk-keychain-later-3c4d' }, unset: [] });
    expect(secretScrubber()('sk-keychain-later-3c4d')).toBe('<secret:KC_LATER_KEY>');
  });
});
