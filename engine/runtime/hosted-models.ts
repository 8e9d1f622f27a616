// Hosted model APIs in discovery: a provider is asked for its model list only when its API key is set in the engine's
// environment (where the desktop shell puts the keys the user stored in the OS keychain, and where `arena` finds the
// shell's) and the caller asked for hosted providers; otherwise nothing leaves the machine. The key goes in the
// request's header only: never into a listing, an error or a log.
import type { DiscoveredModel } from './model-discovery.js';

export interface HostedProvider {
  id: string;
  name: string;
  /** What model.yaml's base_url says. */
  base_url: string;
  /** model.yaml's provider. */
  provider: 'openai-compatible' | 'anthropic';
  /** The variable (keychain entry) holding the key: model.yaml's api_key_env. */
  api_key_env: string;
}

export const HOSTED_PROVIDERS: readonly HostedProvider[] = [
  { id: 'openai', name: 'OpenAI', base_url: 'https://api.openai.com/v1', provider: 'openai-compatible', api_key_env: 'OPENAI_API_KEY' },
  { id: 'anthropic', name: 'Anthropic', base_url: 'https://api.anthropic.com', provider: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY' },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    base_url: 'https://openrouter.ai/api/v1',
    provider: 'openai-compatible',
    api_key_env: 'OPENROUTER_API_KEY',
  },
  { id: 'mistral', name: 'Mistral', base_url: 'https://api.mistral.ai/v1', provider: 'openai-compatible', api_key_env: 'MISTRAL_API_KEY' },
];

export interface HostedListing extends HostedProvider {
  /** Its key is set: it was asked. */
  configured: boolean;
  /** null when not asked, or when the listing failed (then `error` says why). */
  models: DiscoveredModel[] | null;
  error: string | null;
}

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Every provider, the configured ones with their models; the others with the variable to set. */
export async function listHosted(
  env: NodeJS.ProcessEnv,
  providers: readonly HostedProvider[] = HOSTED_PROVIDERS,
): Promise<HostedListing[]> {
  return Promise.all(
    providers.map(async (p): Promise<HostedListing> => {
      const key = env[p.api_key_env];
      if (!key) return { ...p, configured: false, models: null, error: null };
      const listed = await modelList(p, key);
      return { ...p, configured: true, models: 'error' in listed ? null : listed.models, error: 'error' in listed ? listed.error : null };
    }),
  );
}

async function modelList(p: HostedProvider, key: string): Promise<{ models: DiscoveredModel[] } | { error: string }> {
  const base = p.base_url.replace(/\/+$/, '');
  const anthropic = p.provider === 'anthropic';
  const url = anthropic ? `${base}/v1/models?limit=1000` : `${base}/models`;
  const headers: Record<string, string> = anthropic
    ? { 'x-api-key': key, 'anthropic-version': '2023-06-01' }
    : { authorization: `Bearer ${key}` };
  let res: Response;
  try {
    res = await fetch(url, { headers, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    // Only a code or the timeout: a message could quote the request.
    if (error instanceof Error && error.name === 'TimeoutError') return { error: `no answer within ${TIMEOUT_MS / 1000} s` };
    return { error: `could not connect (${typeof cause?.code === 'string' ? cause.code : 'network error'})` };
  }
  if (!res.ok) {
    await res.body?.cancel();
    const hint = res.status === 401 || res.status === 403 ? `: check the key in ${p.api_key_env}` : '';
    return { error: `HTTP ${res.status}${hint}` };
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text.length > MAX_BODY_BYTES ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return { error: 'the answer is not a model list' };
  const ids = data.map((m) => (m as { id?: unknown }).id).filter((id): id is string => typeof id === 'string' && id !== '');
  return {
    models: [...new Set(ids)].sort().map((id) => ({ id, digest: null, size_bytes: null, context: null, source: null })),
  };
}
