// Which model servers answer on this machine and what they offer: the usual local ports (Ollama 11434, llama.cpp
// 8080, LM Studio 1234, vLLM 8000) and any URL the user names. Each is asked for its OpenAI-compatible model list
// (`/v1/models`), Ollama's own listing (`/api/tags`: digests and sizes) and llama.cpp's `/props` (parallel slots,
// context size, model file); what a server does not report is null ("unknown"), never guessed.

export const USUAL_SERVERS = ['http://127.0.0.1:11434', 'http://127.0.0.1:8080', 'http://127.0.0.1:1234', 'http://127.0.0.1:8000'];

const PROBE_TIMEOUT_MS = 1_500;
/** A listing bigger than this is not a model server's. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface DiscoveredModel {
  id: string;
  /** Ollama: the digest of the tag's manifest (what a moving tag like `llama3.2` pointed at). */
  digest: string | null;
  size_bytes: number | null;
}

export interface DiscoveredServer {
  /** As probed, without a trailing slash or /v1. */
  url: string;
  /** What model.yaml's base_url should say. */
  base_url: string;
  kind: 'ollama' | 'llama.cpp' | 'openai-compatible';
  version: string | null;
  models: DiscoveredModel[];
  /** Requests it runs at once (llama.cpp total_slots); null when the server does not say (Ollama: OLLAMA_NUM_PARALLEL). */
  slots: number | null;
  /** Context size in tokens (llama.cpp n_ctx); null when not reported. */
  context: number | null;
  /** llama.cpp: the model file it serves. */
  model_path: string | null;
}

/** `http://host:port[/v1]` → `http://host:port`; throws on anything but an http(s) URL. */
export function serverRoot(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${JSON.stringify(url)} is not a URL (e.g. http://127.0.0.1:11434)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${url}: only http(s) servers can be probed`);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`;
}

async function getJson(url: string): Promise<unknown> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'error' });
    if (!res.ok) return undefined;
    const text = await res.text();
    if (text.length > MAX_BODY_BYTES) return undefined;
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const record = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** One server, or null when it answers none of the listings. */
export async function probeServer(url: string): Promise<DiscoveredServer | null> {
  const root = serverRoot(url);
  const [openai, tags, version, props] = await Promise.all([
    getJson(`${root}/v1/models`),
    getJson(`${root}/api/tags`),
    getJson(`${root}/api/version`),
    getJson(`${root}/props`),
  ]);
  const listed = Array.isArray(record(openai)?.data) ? (record(openai)?.data as unknown[]) : null;
  const ollama = Array.isArray(record(tags)?.models) ? (record(tags)?.models as unknown[]) : null;
  const llama = record(props);
  if (listed === null && ollama === null) return null;
  const models = new Map<string, DiscoveredModel>();
  for (const m of listed ?? []) {
    const id = str(record(m)?.id);
    if (id) models.set(id, { id, digest: null, size_bytes: null });
  }
  // Ollama's own listing is richer: the same names with the digest of what each tag points at.
  for (const m of ollama ?? []) {
    const id = str(record(m)?.name) ?? str(record(m)?.model);
    if (id) models.set(id, { id, digest: str(record(m)?.digest), size_bytes: int(record(m)?.size) });
  }
  const slots = int(llama?.total_slots);
  const kind = ollama !== null ? 'ollama' : slots !== null ? 'llama.cpp' : 'openai-compatible';
  const settings = record(llama?.default_generation_settings);
  return {
    url: root,
    base_url: `${root}/v1`,
    kind,
    version: str(record(version)?.version) ?? str(llama?.build_info),
    models: [...models.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    slots,
    context: int(settings?.n_ctx) ?? int(llama?.n_ctx),
    model_path: str(llama?.model_path),
  };
}

/** The usual local servers and `extra`, probed at once; the ones that answered, in the order asked. */
export async function discoverServers(extra: readonly string[] = [], usual = true): Promise<DiscoveredServer[]> {
  const urls = [...new Set([...(usual ? USUAL_SERVERS : []), ...extra.map(serverRoot)])];
  const found = await Promise.all(urls.map((u) => probeServer(u)));
  return found.filter((s): s is DiscoveredServer => s !== null);
}
