// Preflight of a model agent's server, made by the engine before a run: the server named by the agent's model.yaml
// answers (from this machine, which is where the sandbox's forwarder connects from) and lists the configured model.
// A manifest that does not start the model agent has nothing to check here.
import path from 'node:path';
import type { AgentManifest } from '../contract/manifest.js';
import type { PreflightProblem } from '../contract/preflight.js';
import { commandArgv } from '../runner/agent-command.js';
import { sameModel } from '../runtime/model-build.js';
import { loadModelConfig, type ModelConfig, resolveApiKey } from './config.js';
import { parseArgs, providerEndpoint } from './main.js';

const PROBE_TIMEOUT_MS = 5_000;

/** The model.yaml a manifest's command hands the model agent (`arena-agent model --config …`), else null. */
export function modelConfigFile(manifest: Pick<AgentManifest, 'entrypoint'>, dir: string): string | null {
  let argv: string[];
  try {
    argv = commandArgv(manifest.entrypoint, dir);
  } catch {
    return null;
  }
  const at = argv.findIndex((arg, i) => {
    const base = path.basename(arg);
    return (base === 'arena-agent' && argv[i + 1] === 'model') || base === 'arena-model-agent.mjs';
  });
  if (at < 0) return null;
  const rest = argv.slice(at + (path.basename(argv[at] as string) === 'arena-agent' ? 2 : 1));
  try {
    return path.resolve(dir, parseArgs(rest).config);
  } catch {
    return null;
  }
}

/** Problems with one agent's model server; empty when it answers and serves the model (or the agent has none). */
export async function modelServerProblems(
  agent: { id: string; dir: string; manifest: Pick<AgentManifest, 'entrypoint' | 'network'> },
  hostEnv: NodeJS.ProcessEnv = process.env,
): Promise<PreflightProblem[]> {
  const file = modelConfigFile(agent.manifest, agent.dir);
  if (file === null) return [];
  let config: ModelConfig;
  try {
    config = loadModelConfig(file).config;
  } catch (error) {
    return [{ agent: agent.id, check: 'model', message: `agent ${agent.id}: ${(error as Error).message}` }];
  }
  const endpoint = providerEndpoint(config);
  // The sandbox reaches the server only through a forward: from model.yaml unless the manifest turned that off, or
  // from network.allow. Without either, every call would fail inside and the games would be lost for nothing.
  const network = agent.manifest.network;
  if (network?.model_server === false && !(network.allow ?? []).includes(endpoint))
    return [
      {
        agent: agent.id,
        check: 'model_server',
        endpoint,
        message:
          `agent ${agent.id}: its sandbox cannot reach its model server ${endpoint} (network.model_server is false and ` +
          `network.allow does not list it); remove model_server: false or add "${endpoint}" to network.allow in agent.yaml`,
      },
    ];
  const probe = await probeModels(config, resolveApiKey(config, hostEnv));
  if (probe.kind === 'unreachable')
    return [
      {
        agent: agent.id,
        check: 'model_server',
        endpoint,
        message:
          `agent ${agent.id}: its model server ${endpoint} did not answer (${probe.error}); start it ` +
          `(e.g. \`ollama serve\`, \`llama-server --port …\`) or fix base_url in ${path.basename(file)}`,
      },
    ];
  if (probe.kind === 'listed' && !probe.models.some((id) => sameModel(id, config.model)))
    return [
      {
        agent: agent.id,
        check: 'model',
        endpoint,
        message:
          `agent ${agent.id}: the model server ${endpoint} does not serve model "${config.model}" (it lists ${listed(probe.models)}); ` +
          `pull it (e.g. \`ollama pull ${config.model}\`) or fix model in ${path.basename(file)}`,
      },
    ];
  return [];
}

type Probe = { kind: 'unreachable'; error: string } | { kind: 'listed'; models: string[] } | { kind: 'answered' };

/** `GET …/models`: any HTTP answer means the server is up; a model listing (OpenAI's and Anthropic's shape) is read. */
async function probeModels(config: ModelConfig, apiKey: string | undefined): Promise<Probe> {
  const anthropic = config.provider === 'anthropic';
  const base = (config.base_url ?? 'https://api.anthropic.com').replace(/\/+$/, '');
  const url = anthropic ? `${base}/v1/models` : `${base}/models`;
  const headers: Record<string, string> = anthropic
    ? { 'anthropic-version': '2023-06-01', ...(apiKey ? { 'x-api-key': apiKey } : {}) }
    : apiKey
      ? { authorization: `Bearer ${apiKey}` }
      : {};
  let res: Response;
  try {
    res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch (error) {
    return { kind: 'unreachable', error: connectionError(error) };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { kind: 'answered' };
  }
  try {
    const body = (await res.json()) as { data?: Array<{ id?: unknown; owned_by?: unknown }> };
    if (!Array.isArray(body.data)) return { kind: 'answered' };
    // llama.cpp's server plays its one loaded model whatever name a request gives: its listing decides nothing.
    if (body.data.length > 0 && body.data.every((m) => m.owned_by === 'llamacpp')) return { kind: 'answered' };
    return { kind: 'listed', models: body.data.map((m) => m.id).filter((id): id is string => typeof id === 'string') };
  } catch {
    return { kind: 'answered' };
  }
}

function listed(models: readonly string[]): string {
  if (models.length === 0) return 'no model';
  const shown = models.slice(0, 8).map((m) => `"${m}"`);
  return models.length > 8 ? `${shown.join(', ')} and ${models.length - 8} more` : shown.join(', ');
}

function connectionError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
