// What "New model agent" offers: the model servers discovery found (local ones and hosted APIs) as one list of
// choices, and the agent id a name suggests. Hosted APIs without a key are listed with the variable to set, never
// asked; the key itself never reaches the page.
import type { ModelsResponse } from '../../../../engine/contract/model-discovery.js';

export interface ServerChoice {
  /** base_url: what model.yaml says, and the choice's key. */
  base_url: string;
  label: string;
  provider: 'openai-compatible' | 'anthropic';
  /** A hosted API's key variable (keychain entry): the agent is granted it by name. */
  api_key_env?: string;
  models: string[];
  /** Requests the server runs at once, when it reports them (llama.cpp). */
  slots: number | null;
  /** Why it cannot be picked (no key set, the listing failed); null when it can. */
  unavailable: string | null;
}

export function serverChoices(found: ModelsResponse | undefined, typed: readonly ModelsResponse['servers'][number][]): ServerChoice[] {
  const local = [...(found?.servers ?? []), ...typed].map(
    (s): ServerChoice => ({
      base_url: s.base_url,
      label: `${s.url} (${s.kind}${s.version ? ` ${s.version}` : ''})`,
      provider: 'openai-compatible',
      models: s.models.map((m) => m.id),
      slots: s.slots,
      unavailable: s.models.length === 0 ? 'lists no model' : null,
    }),
  );
  const hosted = (found?.hosted ?? []).map(
    (h): ServerChoice => ({
      base_url: h.base_url,
      label: `${h.name} (hosted, key from ${h.api_key_env})`,
      provider: h.provider,
      api_key_env: h.api_key_env,
      models: (h.models ?? []).map((m) => m.id),
      slots: null,
      unavailable: !h.configured
        ? `set ${h.api_key_env} (the OS keychain in the app, the environment for arena serve) to use it`
        : (h.error ?? null),
    }),
  );
  // A server found twice (typed and also on a usual port) is listed once.
  const seen = new Set<string>();
  return [...local, ...hosted].filter((c) => !seen.has(c.base_url) && seen.add(c.base_url));
}

/** `My Llama (PSI)` → `my-llama-psi`: the agent id and folder name a name suggests. */
export function idFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}
