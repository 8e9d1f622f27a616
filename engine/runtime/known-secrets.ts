// The secrets this engine process knows of: its own (admin token, installation keys, keychain values) and every
// secret granted to an agent it launched. Whatever the engine stores or shows is scrubbed against all of them.
import { createScrubber, type NamedSecret, type Scrubber } from '../core/secret-scrub.js';

const known = new Map<string, string>();
let cached: Scrubber | null = null;

export function registerSecret(name: string, value: string): void {
  if (known.get(value) === name) return;
  known.set(value, name);
  cached = null;
}

/** A granted name → value map (the runner's grantedSecrets) registered at once. */
export function registerSecrets(secrets: Record<string, string>): void {
  for (const [name, value] of Object.entries(secrets)) registerSecret(name, value);
}

/** The process-wide scrubber, plus `extra` values when given (they are not remembered). */
export function secretScrubber(extra: Iterable<NamedSecret> = []): Scrubber {
  const more = [...extra];
  if (more.length > 0) return createScrubber([...entries(), ...more]);
  cached ??= createScrubber(entries());
  return cached;
}

function entries(): NamedSecret[] {
  return [...known].map(([value, name]) => ({ name, value }));
}
