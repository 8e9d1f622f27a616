// How keychain-stored API keys reach the engine, and nothing else.
//
// Channel: the engine utility process gets the decrypted keys in its environment when it is forked (so a restarted
// engine, and tournaments it resumes at start-up, have them from the first instruction), and a `secrets` message
// (EngineSecretsMessageSchema) whenever the user changes them in Settings, which the engine applies to its own
// process.env. The runner reads a manifest's granted `secrets` from that environment (engine/runner/agent-env.ts), so
// each agent receives only the names its manifest lists. Restarting the engine on every change was rejected: it would
// cut running games short and hand the window a new port and token.
//
// Values never go to the renderer, into a log line or onto disk unencrypted; errors mention names only.
import { type EngineSecretsMessage, KEYCHAIN_NAMES_ENV } from '../engine/contract/channels.js';
import type { SecretStore } from './secret-store.js';

export interface EngineSecrets {
  /** The environment for a new engine process: the launching environment with the stored keys on top. */
  forkEnv(): Record<string, string>;
  /** The update for the running engine after a change in the store. */
  update(): EngineSecretsMessage;
}

export interface EngineSecretsOptions {
  store: Pick<SecretStore, 'values'>;
  /** The environment main was started with (process.env). */
  baseEnv: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export function createEngineSecrets(options: EngineSecretsOptions): EngineSecrets {
  const log = options.log ?? (() => {});
  /** Names whose keychain value the engine currently holds. */
  let handedOver = new Set<string>();

  const storedValues = (): Record<string, string> => {
    try {
      return options.store.values();
    } catch (error) {
      // A damaged store must not keep the engine from starting; the agents that need a key will say so.
      log(`stored API keys not passed to the engine: ${error instanceof Error ? error.message : 'unreadable'}`);
      return {};
    }
  };

  return {
    forkEnv() {
      const values = storedValues();
      handedOver = new Set(Object.keys(values));
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(options.baseEnv)) if (value !== undefined) env[name] = value;
      return Object.assign(env, values, { [KEYCHAIN_NAMES_ENV]: Object.keys(values).join(',') });
    },
    update() {
      const values = storedValues();
      const set: Record<string, string> = { ...values };
      const unset: string[] = [];
      for (const name of handedOver) {
        if (Object.hasOwn(values, name)) continue;
        // A deleted key falls back to what the launching environment had, as if it had never been stored.
        const fromBase = options.baseEnv[name];
        if (fromBase !== undefined && fromBase !== '') set[name] = fromBase;
        else unset.push(name);
      }
      handedOver = new Set(Object.keys(values));
      return { type: 'secrets', set, unset };
    },
  };
}
