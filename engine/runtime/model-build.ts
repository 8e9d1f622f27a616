// Which build of a model a server plays, asked before a run so the run manifest says exactly what played: the server's
// kind and version, and the model's digest where the server exposes one (Ollama: the digest a tag like `llama3.2`
// pointed at; llama.cpp: the model file's path and size from `/props` and its listing; vLLM: the weights it loaded and
// its version). What a server does not report is null ("unknown"), never guessed.
import { probeServer, type ServerKind } from './model-discovery.js';

export interface ModelBuild {
  /** `hosted`: an https API, which exposes no build (asked nothing); `unknown`: the server did not answer. */
  kind: ServerKind | 'hosted' | 'unknown';
  version: string | null;
  /** The name the server lists the model under (`llama3.2:latest` for `llama3.2`); null when it lists no match. */
  served_as: string | null;
  digest: string | null;
  size_bytes: number | null;
  /** The model file (llama.cpp) or the weights' path or repository (vLLM `root`), LM Studio's publisher/arch/quantization. */
  source: string | null;
  context: number | null;
  /** Why the build is unknown, when it is. */
  note?: string;
}

/** As long as the preflight's probe: the server is known to be there, and may be busy answering another run. */
const PROBE_TIMEOUT_MS = 5_000;

const unknown = (kind: ModelBuild['kind'], note: string): ModelBuild => ({
  kind,
  version: null,
  served_as: null,
  digest: null,
  size_bytes: null,
  source: null,
  context: null,
  note,
});

/** Ollama lists `llama3.2:latest` for a model configured as `llama3.2`. */
export function sameModel(listedId: string, configured: string): boolean {
  return listedId === configured || listedId === `${configured}:latest` || `${listedId}:latest` === configured;
}

/** The build of `model` at `baseUrl` (model.yaml's). An https API is not asked: it exposes no build. */
export async function modelBuild(baseUrl: string, model: string): Promise<ModelBuild> {
  if (!baseUrl.startsWith('http:')) return unknown('hosted', 'a hosted API does not expose which build of a model it serves');
  const server = await probeServer(baseUrl, PROBE_TIMEOUT_MS).catch(() => null);
  if (server === null) return unknown('unknown', `${baseUrl} did not answer a model listing before the run`);
  // llama.cpp serves its one loaded model whatever name a request gives.
  const served =
    server.kind === 'llama.cpp' && server.models.length === 1 ? server.models[0] : server.models.find((m) => sameModel(m.id, model));
  return {
    kind: server.kind,
    version: server.version,
    served_as: served?.id ?? null,
    digest: served?.digest ?? null,
    size_bytes: served?.size_bytes ?? null,
    source: server.model_path ?? served?.source ?? null,
    context: served?.context ?? server.context,
    ...(served ? {} : { note: `the server does not list model "${model}"` }),
  };
}

/**
 * What identifies the weights a build names: Ollama's digest, else the model file and its size (llama.cpp), else
 * null (nothing known: a server that does not say cannot be said to have changed).
 */
export function buildFingerprint(build: ModelBuild | null | undefined): string | null {
  if (!build) return null;
  if (build.digest) return build.digest;
  if (build.source && build.size_bytes !== null) return `${build.source} (${build.size_bytes} bytes)`;
  return null;
}

/** Two builds known to be different weights (both fingerprints known and unequal). */
export function buildsDiffer(a: ModelBuild | null | undefined, b: ModelBuild | null | undefined): boolean {
  const [fa, fb] = [buildFingerprint(a), buildFingerprint(b)];
  return fa !== null && fb !== null && fa !== fb;
}
