// Loading `model.yaml` (its schema: engine/contract/model-config.ts) and the API key it names.
import path from 'node:path';
import YAML from 'yaml';
import { type ModelConfig, ModelConfigSchema } from '../contract/model-config.js';
import { readDefinitionText } from '../runtime/bounded-read.js';

export { type ModelConfig, ModelConfigSchema };

export interface LoadedModelConfig {
  config: ModelConfig;
  /** Absolute directory of the config file: relative paths in it are resolved from here. */
  dir: string;
  systemPrompt: string | undefined;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Validation errors as `file: path.to.field: message` lines a user can act on. */
export function parseModelConfig(raw: unknown, source: string): ModelConfig {
  const parsed = ModelConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map(
    (issue) => `${source}: ${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`,
  );
  throw new ConfigError(lines.join('\n'));
}

export function loadModelConfig(file: string): LoadedModelConfig {
  const absolute = path.resolve(file);
  let text: string;
  try {
    // Capped before parsing, like every definition file the engine reads.
    text = readDefinitionText(absolute);
  } catch (error) {
    throw new ConfigError(`${file}: cannot read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid YAML: ${(error as Error).message}`);
  }
  const config = parseModelConfig(raw ?? {}, file);
  const dir = path.dirname(absolute);
  let systemPrompt: string | undefined;
  if (config.system_prompt_file !== undefined) {
    const promptFile = path.resolve(dir, config.system_prompt_file);
    try {
      systemPrompt = readDefinitionText(promptFile);
    } catch (error) {
      throw new ConfigError(`${file}: system_prompt_file: cannot read ${promptFile}: ${(error as Error).message}`);
    }
  }
  return { config, dir, systemPrompt };
}

/** The key from the user's environment; undefined when the config names none. Missing-but-named is an error. */
export function resolveApiKey(config: ModelConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (config.api_key_env === undefined) return undefined;
  const value = env[config.api_key_env];
  if (value === undefined || value === '') {
    throw new ConfigError(
      `api_key_env: ${config.api_key_env} is not set in the agent's environment (list it under "secrets" in agent.yaml)`,
    );
  }
  return value;
}
