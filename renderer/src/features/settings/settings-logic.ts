// Pure rules behind the Settings page, kept out of the component so they are unit-tested without a DOM.
import { type SecretList, SecretNameSchema } from '../../../../engine/contract/channels.js';

export type KeyFormCheck = { ok: true; name: string; replaces: boolean } | { ok: false; field: 'name' | 'value'; message: string };

/** Checks the add/replace form before anything crosses to the shell, with the same name rule main applies. */
export function checkKeyForm(rawName: string, value: string, stored: readonly string[]): KeyFormCheck {
  const name = rawName.trim();
  if (name === '') return { ok: false, field: 'name', message: 'Enter the variable name a manifest lists, e.g. OPENAI_API_KEY.' };
  const parsed = SecretNameSchema.safeParse(name);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Not a valid name.';
    // Lower-case names fail the pattern; say how to fix it rather than just restating the rule.
    const hint = name !== name.toUpperCase() && SecretNameSchema.safeParse(name.toUpperCase()).success ? ` Try ${name.toUpperCase()}.` : '';
    return { ok: false, field: 'name', message: `Not a usable name: ${message}.${hint}` };
  }
  if (value === '') return { ok: false, field: 'value', message: 'Paste the key itself; an empty key cannot be stored.' };
  if (value.trim() !== value)
    return { ok: false, field: 'value', message: 'The key starts or ends with spaces or a line break; remove them (copied by accident?).' };
  return { ok: true, name, replaces: stored.includes(name) };
}

export interface KeychainState {
  /** Whether the form to add keys is offered. */
  canStore: boolean;
  title: string;
  detail: string;
}

export function keychainState(list: SecretList): KeychainState {
  if (list.available)
    return {
      canStore: true,
      title: 'Stored in the OS keychain',
      detail: 'Keys are encrypted by the operating system’s keychain and handed only to agents whose manifest lists them under secrets.',
    };
  return {
    canStore: false,
    title: 'Keychain unavailable',
    detail:
      list.names.length > 0
        ? 'The OS keychain cannot be reached, so the keys below cannot be used or changed; you can still delete them.'
        : 'This system offers no keychain-backed encryption (on Linux: no running GNOME Keyring or KWallet), so API keys cannot be stored here. Set them in the environment and start the engine with arena serve instead.',
  };
}

/** Where `arena serve` keeps its data, as the CLI resolves it (`--data-dir`, then ARENA_DATA_DIR, then the default). */
export const DATA_FOLDER_RULE =
  'The folder given with arena serve --data-dir, else the ARENA_DATA_DIR variable, else “Local Arena” in the OS application-data folder.';

/**
 * A shell line that starts `arena serve` with a key in its environment, for the browser-mode explanation. `npx` finds
 * the CLI both in a checkout and where the package is installed.
 */
export function serveWithKeyExample(name = 'OPENAI_API_KEY'): { posix: string; powershell: string } {
  return { posix: `${name}=sk-… npx arena serve --open`, powershell: `$env:${name}="sk-…"; npx arena serve --open` };
}
