// API keys for model agents, encrypted with the OS keychain through Electron's safeStorage and kept in one small file
// in the data folder. Only names ever leave this module towards the renderer; values go to the engine process alone
// (see engine-secrets.ts).
import fs from 'node:fs';
import path from 'node:path';
import { type SecretList, SecretNameSchema } from '../engine/contract/channels.js';
import { writeFileAtomicSync } from './atomic-write.js';

/** Under the data folder's owner-only `secrets/` directory, next to the engine's own per-installation keys. */
export const SECRETS_FILE = path.join('secrets', 'api-keys.json');

/** Structural subset of Electron's safeStorage; tests pass a reversible fake. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron; absent elsewhere. */
  getSelectedStorageBackend?(): string;
}

/**
 * Whether safeStorage is backed by a real keychain. On Linux Electron falls back to the 'basic_text' backend when it
 * finds no secret service (no GNOME keyring or KWallet, e.g. a bare window manager or a headless session): the
 * "encryption" then uses a fixed key compiled into Chromium, so anyone who can read the file can decrypt it. That is
 * plaintext with extra steps, so it is refused and the user is told the keychain is unavailable. 'unknown' means the
 * app is not ready yet; treat it as unavailable rather than guess.
 */
export function keychainAvailable(safeStorage: SafeStorageLike, platform: NodeJS.Platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    return backend !== 'basic_text' && backend !== 'unknown';
  }
  return true;
}

interface SecretsFile {
  version: 1;
  /** name → base64 of the safeStorage ciphertext */
  secrets: Record<string, string>;
}

export interface SecretStore {
  list(): SecretList;
  set(name: string, value: string): SecretList;
  delete(name: string): SecretList;
  /** Decrypted values for the engine's environment. Never log or return these to a page. */
  values(): Record<string, string>;
}

export interface SecretStoreOptions {
  file: string;
  safeStorage: SafeStorageLike;
  platform?: NodeJS.Platform;
  /** Receives names and reasons only, never values. */
  log?: (line: string) => void;
}

export const KEYCHAIN_UNAVAILABLE_MESSAGE =
  'The OS keychain is not available, so API keys cannot be stored safely. On Linux, install and unlock a secret service (GNOME Keyring or KWallet); or set the keys in the environment and use arena serve.';

export function createSecretStore(options: SecretStoreOptions): SecretStore {
  const platform = options.platform ?? process.platform;
  const log = options.log ?? (() => {});
  const available = () => keychainAvailable(options.safeStorage, platform);

  function read(): SecretsFile {
    let text: string;
    try {
      text = fs.readFileSync(options.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, secrets: {} };
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const secrets = (parsed as Partial<SecretsFile> | null)?.secrets;
    if ((parsed as Partial<SecretsFile> | null)?.version !== 1 || typeof secrets !== 'object' || secrets === null) {
      // Refuse rather than overwrite: the user may still recover the keys from a damaged file.
      throw new Error(`The stored keys file (${SECRETS_FILE} in the data folder) is damaged; move it away to start afresh.`);
    }
    const clean: Record<string, string> = {};
    for (const [name, cipher] of Object.entries(secrets)) {
      if (SecretNameSchema.safeParse(name).success && typeof cipher === 'string') clean[name] = cipher;
    }
    return { version: 1, secrets: clean };
  }

  function write(file: SecretsFile): void {
    // Owner-only: the values are encrypted, but the names and the ciphertext are nobody else's business either.
    fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(options.file, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  }

  const listOf = (file: SecretsFile): SecretList => ({ available: available(), names: Object.keys(file.secrets).sort() });

  return {
    list: () => listOf(read()),
    set(name, value) {
      const checked = SecretNameSchema.safeParse(name);
      if (!checked.success) throw new Error(checked.error.issues[0]?.message ?? 'invalid key name');
      if (value.length === 0) throw new Error('An API key cannot be empty.');
      if (!available()) throw new Error(KEYCHAIN_UNAVAILABLE_MESSAGE);
      const file = read();
      file.secrets[name] = options.safeStorage.encryptString(value).toString('base64');
      write(file);
      return listOf(file);
    },
    delete(name) {
      const file = read();
      if (!Object.hasOwn(file.secrets, name)) return listOf(file);
      delete file.secrets[name];
      // Deleting needs no keychain: a key stored while one was available can still be removed.
      write(file);
      return listOf(file);
    },
    values() {
      const out: Record<string, string> = {};
      if (!available()) return out;
      const file = read();
      for (const [name, cipher] of Object.entries(file.secrets)) {
        try {
          out[name] = options.safeStorage.decryptString(Buffer.from(cipher, 'base64'));
        } catch {
          // A keychain reset or another OS user: the key is unusable, but the rest still work.
          log(`stored key ${name} could not be decrypted; set it again in Settings`);
        }
      }
      return out;
    },
  };
}
