// Applies the desktop shell's `secrets` message (keys the user stored in the OS keychain) to the engine's environment,
// which is where the runner looks up the names a manifest's `secrets` grants. The shell side is main/engine-secrets.ts.
import { EngineSecretsMessageSchema, KEYCHAIN_NAMES_ENV } from '../contract/channels.js';
import { registerSecret } from './known-secrets.js';

/** True when the message was a valid secrets update and has been applied. Never logs: the values are API keys. */
export function applySecretsMessage(env: NodeJS.ProcessEnv, message: unknown): boolean {
  const parsed = EngineSecretsMessageSchema.safeParse(message);
  if (!parsed.success) return false;
  for (const name of parsed.data.unset) delete env[name];
  Object.assign(env, parsed.data.set);
  for (const [name, value] of Object.entries(parsed.data.set)) registerSecret(name, value);
  return true;
}

/** The keychain values the engine was started with (named in KEYCHAIN_NAMES_ENV) join the scrubber. */
export function registerKeychainSecrets(env: NodeJS.ProcessEnv): void {
  for (const name of (env[KEYCHAIN_NAMES_ENV] ?? '').split(',')) {
    const value = name === '' ? undefined : env[name];
    if (value !== undefined) registerSecret(name, value);
  }
}
