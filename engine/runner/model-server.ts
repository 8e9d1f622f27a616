// The model server a shipped model agent talks to, read from the `model.yaml` its command names: the sandbox forwards
// it without a hand-written `network.allow` (the engine already knows it), and the engine schedules its capacity.
import path from 'node:path';
import YAML from 'yaml';
import { type AgentManifest, NetworkEndpointSchema } from '../contract/manifest.js';
import { type ModelConfig, ModelConfigSchema } from '../contract/model-config.js';
import { readDefinitionText } from '../runtime/bounded-read.js';
import { commandArgv } from './agent-command.js';

export interface ModelServer {
  /** `host:port` forwarded into the sandbox. */
  endpoint: string;
  baseUrl: string;
  provider: ModelConfig['provider'];
  model: string;
  /** model.yaml's `capacity`, when it sets one. */
  capacity?: number;
  /** Plain http: the engine can see its requests one by one (gate, record); https is forwarded as opaque bytes. */
  plain: boolean;
  /** model.yaml `cache: true` (answers of identical requests reused: engine/tournaments/model-cache.ts). */
  cache: boolean;
  /** Sampler settings, for the run's determinism record. */
  sampler: { temperature: number; max_tokens: number; seed: number | null; json_mode: boolean };
}

/** The `--config` file of `arena-agent model …` or `…/arena-model-agent.mjs …`; null for any other command. */
export function modelConfigFile(manifest: Pick<AgentManifest, 'entrypoint'>, manifestDir: string): string | null {
  if (manifest.entrypoint.type !== 'command') return null;
  let argv: string[];
  try {
    argv = commandArgv(manifest.entrypoint, manifestDir);
  } catch {
    return null;
  }
  const at = argv.findIndex(
    (arg, i) => (path.basename(arg) === 'arena-agent' && argv[i + 1] === 'model') || path.basename(arg) === 'arena-model-agent.mjs',
  );
  if (at < 0) return null;
  const rest = argv.slice(at + 1);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg.startsWith('--config=')) return path.resolve(manifestDir, arg.slice('--config='.length));
    if (arg === '--config' && rest[i + 1] !== undefined) return path.resolve(manifestDir, rest[i + 1] as string);
  }
  return null;
}

/**
 * The model server of a model agent, or null: not a model agent, or a config the agent itself will refuse (it exits
 * 64 naming the field, which blames the agent; the launch must not fail in its place).
 */
export function modelServerOf(manifest: Pick<AgentManifest, 'entrypoint'>, manifestDir: string): ModelServer | null {
  const file = modelConfigFile(manifest, manifestDir);
  if (file === null) return null;
  let config: ModelConfig;
  try {
    const parsed = ModelConfigSchema.safeParse(YAML.parse(readDefinitionText(file)) ?? {});
    if (!parsed.success) return null;
    config = parsed.data;
  } catch {
    return null;
  }
  const baseUrl = config.base_url ?? 'https://api.anthropic.com';
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return {
    endpoint: `${url.hostname.replace(/^\[|\]$/g, '')}:${port}`,
    baseUrl,
    provider: config.provider,
    model: config.model,
    ...(config.capacity !== undefined ? { capacity: config.capacity } : {}),
    plain: baseUrl.startsWith('http:'),
    cache: config.cache,
    sampler: { temperature: config.temperature, max_tokens: config.max_tokens, seed: config.seed ?? null, json_mode: config.json_mode },
  };
}

/**
 * The endpoints a launch forwards for its model server: none when the manifest turns it off (`network.model_server:
 * false`), or for an address the sandbox cannot forward under its own name (a LAN IP: name the host instead).
 */
export function modelEndpoints(manifest: Pick<AgentManifest, 'network'>, server: ModelServer | null): string[] {
  if (server === null || manifest.network?.model_server === false) return [];
  return NetworkEndpointSchema.safeParse(server.endpoint).success ? [server.endpoint] : [];
}
