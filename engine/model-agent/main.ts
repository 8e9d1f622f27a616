// The model agent program: `arena-model-agent --config model.yaml [--protocol specarena]`. It reads the runner's
// ARENA_* contract, builds the provider from model.yaml (the key comes from the variable api_key_env names) and plays
// one game through the protocol's adapter. stdout carries progress; stderr carries the ARENA_MODEL_* channel lines
// and, on failure, one error line. Exit codes: 0 game over, 1 error, 2 game deadline passed, 64 bad usage/config.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAnthropicProvider } from './anthropic-provider.js';
import { ConfigError, loadModelConfig, type ModelConfig, resolveApiKey } from './config.js';
import { readLaunchContract } from './launch-contract.js';
import { createOpenAiProvider } from './openai-provider.js';
import { EMPTY_PRICE_TABLE, loadPriceTable } from './price-table.js';
import type { ProtocolAdapter } from './protocol-adapter.js';
import type { ModelProvider } from './provider.js';
import { SpecArenaAdapter } from './specarena-adapter.js';
import { TurnEngine } from './turn-engine.js';

export const USAGE = 'usage: arena-model-agent --config <model.yaml> [--protocol specarena]';

interface Args {
  config: string;
  protocol: string;
}

function parseArgs(argv: readonly string[]): Args {
  let config: string | undefined;
  let protocol = 'specarena';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if ((arg === '--config' || arg === '--protocol') && value !== undefined) {
      if (arg === '--config') config = value;
      else protocol = value;
      i++;
    } else if (arg?.startsWith('--config=')) config = arg.slice('--config='.length);
    else if (arg?.startsWith('--protocol=')) protocol = arg.slice('--protocol='.length);
    else throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}\n${USAGE}`);
  }
  if (config === undefined) throw new ConfigError(USAGE);
  return { config, protocol };
}

export function createProvider(config: ModelConfig, apiKey: string | undefined): ModelProvider {
  return config.provider === 'anthropic' ? createAnthropicProvider(config, apiKey) : createOpenAiProvider(config, apiKey);
}

/** Adapters by protocol; ClawArena (legal actions + params_schema) and governance (markers) plug in here. */
export function adapterFor(protocol: string): ProtocolAdapter {
  if (protocol === 'specarena') return new SpecArenaAdapter();
  throw new ConfigError(`protocol ${JSON.stringify(protocol)} has no model-agent adapter yet (available: specarena)`);
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const errorLine = (text: string) => process.stderr.write(`model-agent: ${text}\n`);
  let secrets: string[] = [];
  const scrub = (text: string) => secrets.reduce((out, s) => (s.length >= 4 ? out.split(s).join('<secret>') : out), text);
  let deadline: NodeJS.Timeout | undefined;
  try {
    const args = parseArgs(argv);
    const loaded = loadModelConfig(args.config);
    const { config } = loaded;
    const apiKey = resolveApiKey(config, env);
    secrets = apiKey ? [apiKey] : [];
    const priceTable = config.price_table ? loadPriceTable(path.resolve(loaded.dir, config.price_table)) : EMPTY_PRICE_TABLE;
    const adapter = adapterFor(args.protocol);
    const contract = readLaunchContract(env);
    const name = contract.agentId ?? 'model-agent';
    const engine = new TurnEngine({
      provider: createProvider(config, apiKey),
      config,
      priceTable,
      protocol: adapter.protocol,
      ...(contract.agentId !== undefined ? { agentId: contract.agentId } : {}),
      ...(contract.moveSeconds !== undefined ? { moveLimitSeconds: contract.moveSeconds } : {}),
      secrets,
      emit: (line) => process.stderr.write(`${line}\n`),
    });
    const timedOut = new Promise<number>((resolve) => {
      deadline = setTimeout(() => {
        errorLine(`gave up after ${config.game_seconds} s without the game ending`);
        resolve(2);
      }, config.game_seconds * 1000);
    });
    const played = adapter
      .run({
        contract,
        engine,
        systemPrompt: loaded.systemPrompt,
        maxTurns: config.max_turns,
        idleReaskMs: config.idle_reask_seconds * 1000,
        log: (line) => process.stdout.write(`[${name}] ${scrub(line)}\n`),
      })
      .then(() => 0);
    return await Promise.race([played, timedOut]);
  } catch (error) {
    errorLine(scrub(error instanceof Error ? error.message : String(error)));
    return error instanceof ConfigError ? 64 : 1;
  } finally {
    clearTimeout(deadline);
  }
}

// Run when executed directly (`node dist/engine/model-agent/main.js`); the launcher in agents/model-agent imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const code = await main(process.argv.slice(2));
  // Open sockets of the client libraries must not keep a finished agent alive.
  process.exit(code);
}

export const MAIN_FILE = fileURLToPath(import.meta.url);
