// Which model servers answer on this machine and what they offer: the usual local ports (Ollama 11434, llama.cpp
// 8080, LM Studio 1234, vLLM 8000) and any URL the user names. Each is asked for its OpenAI-compatible model list
// (`/v1/models`), Ollama's own listing (`/api/tags`: digests and sizes, `/api/version`), llama.cpp's `/props` (parallel
// slots, context size, model file), vLLM's `/version` and LM Studio's `/api/v0/models`; what a server does not report
// is null ("unknown"), never guessed. The kind is told by what only that server answers: Ollama's tag listing, llama.cpp's
// slots or `owned_by: "llamacpp"`, vLLM's `owned_by: "vllm"`, LM Studio's v0 listing.

export const USUAL_SERVERS = ['http://127.0.0.1:11434', 'http://127.0.0.1:8080', 'http://127.0.0.1:1234', 'http://127.0.0.1:8000'];

const PROBE_TIMEOUT_MS = 1_500;
/** A listing bigger than this is not a model server's. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type ServerKind = 'ollama' | 'llama.cpp' | 'vllm' | 'lm-studio' | 'openai-compatible';

export interface DiscoveredModel {
  id: string;
  /** Ollama: the digest of the tag's manifest (what a moving tag like `llama3.2` pointed at). */
  digest: string | null;
  /** Ollama: the tag's size; llama.cpp: the model file's (`meta.size` of its listing). */
  size_bytes: number | null;
  /** Context size the server runs this model with (vLLM `max_model_len`, LM Studio `max_context_length`). */
  context: number | null;
  /** What the name stands for: vLLM's `root` (the weights' path or repository), LM Studio's `publisher/arch quantization`. */
  source: string | null;
}

export interface DiscoveredServer {
  /** As probed, without a trailing slash or /v1. */
  url: string;
  /** What model.yaml's base_url should say. */
  base_url: string;
  kind: ServerKind;
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

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
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

/**
 * One server, or null when it answers none of the listings. `timeoutMs` per request: short when sweeping the usual
 * ports (nothing there answers at once), longer before a run, where the server is known and may be busy.
 */
export async function probeServer(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<DiscoveredServer | null> {
  const root = serverRoot(url);
  const paths = ['/v1/models', '/api/tags', '/api/version', '/props', '/version', '/api/v0/models'];
  const [openai, tags, ollamaVersion, props, vllmVersion, lmStudio] = await Promise.all(
    paths.map((p) => getJson(`${root}${p}`, timeoutMs)),
  );
  const listed = list(openai, 'data');
  const ollama = list(tags, 'models');
  // LM Studio's v0 listing says what each model is (publisher, architecture); a plain OpenAI listing there is not it.
  const studio = list(lmStudio, 'data')?.some((m) => str(record(m)?.arch) ?? str(record(m)?.publisher)) ? list(lmStudio, 'data') : null;
  const llama = record(props);
  if (listed === null && ollama === null) return null;
  const models = new Map<string, DiscoveredModel>();
  for (const m of listed ?? []) {
    const id = str(record(m)?.id);
    const meta = record(record(m)?.meta);
    if (id)
      models.set(id, {
        id,
        digest: null,
        size_bytes: int(meta?.size),
        context: int(record(m)?.max_model_len),
        source: str(record(m)?.root),
      });
  }
  // Ollama's own listing is richer: the same names with the digest of what each tag points at.
  for (const m of ollama ?? []) {
    const id = str(record(m)?.name) ?? str(record(m)?.model);
    if (id) models.set(id, { id, digest: str(record(m)?.digest), size_bytes: int(record(m)?.size), context: null, source: null });
  }
  for (const m of studio ?? []) {
    const r = record(m);
    const id = str(r?.id);
    const known = id ? models.get(id) : undefined;
    if (!id || !known) continue;
    const source = [str(r?.publisher), str(r?.arch)].filter(Boolean).join('/');
    const quant = str(r?.quantization);
    models.set(id, { ...known, context: int(r?.max_context_length), source: [source, quant].filter(Boolean).join(' ') || null });
  }
  const slots = int(llama?.total_slots);
  const owners = new Set((listed ?? []).map((m) => record(m)?.owned_by));
  const kind: ServerKind =
    ollama !== null
      ? 'ollama'
      : slots !== null || owners.has('llamacpp')
        ? 'llama.cpp'
        : owners.has('vllm')
          ? 'vllm'
          : studio !== null
            ? 'lm-studio'
            : 'openai-compatible';
  const settings = record(llama?.default_generation_settings);
  const version =
    kind === 'ollama'
      ? str(record(ollamaVersion)?.version)
      : kind === 'llama.cpp'
        ? str(llama?.build_info)
        : kind === 'vllm'
          ? str(record(vllmVersion)?.version)
          : null;
  return {
    url: root,
    base_url: `${root}/v1`,
    kind,
    version,
    models: [...models.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    slots,
    context: int(settings?.n_ctx) ?? int(llama?.n_ctx),
    model_path: str(llama?.model_path),
  };
}

const list = (body: unknown, key: string): unknown[] | null => {
  const value = record(body)?.[key];
  return Array.isArray(value) ? value : null;
};

/** The usual local servers and `extra`, probed at once; the ones that answered, in the order asked. */
export async function discoverServers(extra: readonly string[] = [], usual = true): Promise<DiscoveredServer[]> {
  const urls = [...new Set([...(usual ? USUAL_SERVERS : []), ...extra.map(serverRoot)])];
  const found = await Promise.all(urls.map((u) => probeServer(u)));
  return found.filter((s): s is DiscoveredServer => s !== null);
}
