// The model agent program: `arena-agent model --config model.yaml [--protocol specarena|clawarena|governance]`. It
// reads the runner's ARENA_* contract, builds the provider from model.yaml (the key comes from the variable
// api_key_env names) and plays one game through the protocol's adapter. stdout carries progress; stderr carries the
// ARENA_MODEL_* channel lines and, on failure, one error line. Exit codes: 0 game over, 1 error, 2 game deadline
// passed, 64 bad usage/config.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createScrubber } from '../core/secret-scrub.js';
import { ClawArenaAdapter } from './clawarena-adapter.js';
import { ConfigError, loadModelConfig, type ModelConfig, resolveApiKey } from './config.js';
import { GovernanceAdapter } from './governance-adapter.js';
import { readCommonContract } from './launch-contract.js';
import { EMPTY_PRICE_TABLE, loadPriceTable } from './price-table.js';
import type { ProtocolAdapter } from './protocol-adapter.js';
import type { ModelProvider } from './provider.js';
import { SpecArenaAdapter } from './specarena-adapter.js';
import { TurnEngine } from './turn-engine.js';
import { nextSeat, seatEnv } from './warm-seats.js';

export const USAGE =
  'usage: arena-agent model --config <model.yaml> [--protocol specarena|clawarena|governance] [--scenario <id>] [--framework <name>]';

interface Args {
  config: string;
  protocol: string;
  /** Governance only: the scenario the agent plays (markers carry it). */
  scenario: string | undefined;
  framework: string;
}

const FLAGS = ['config', 'protocol', 'scenario', 'framework'] as const;

export function parseArgs(argv: readonly string[]): Args {
  const values: Partial<Record<(typeof FLAGS)[number], string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const flag = FLAGS.find((f) => arg === `--${f}` || arg.startsWith(`--${f}=`));
    if (flag === undefined) throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}\n${USAGE}`);
    if (arg.includes('=')) values[flag] = arg.slice(arg.indexOf('=') + 1);
    else {
      const value = argv[++i];
      if (value === undefined) throw new ConfigError(`--${flag} needs a value\n${USAGE}`);
      values[flag] = value;
    }
  }
  if (values.config === undefined) throw new ConfigError(USAGE);
  return {
    config: values.config,
    protocol: values.protocol ?? 'specarena',
    scenario: values.scenario,
    framework: values.framework ?? 'other',
  };
}

/** `host:port` of the server the provider calls (the Anthropic API when no base_url is set). */
export function providerEndpoint(config: Pick<ModelConfig, 'provider' | 'base_url'>): string {
  const url = new URL(config.base_url ?? 'https://api.anthropic.com');
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** Loads only the chosen client library: the other one would add about a second to every agent's cold start. */
export async function createProvider(config: ModelConfig, apiKey: string | undefined): Promise<ModelProvider> {
  if (config.provider === 'anthropic') return (await import('./anthropic-provider.js')).createAnthropicProvider(config, apiKey);
  return (await import('./openai-provider.js')).createOpenAiProvider(config, apiKey);
}

/** One agent, one adapter per protocol. */
export function adapterFor(args: Pick<Args, 'protocol' | 'scenario' | 'framework'>): ProtocolAdapter {
  if (args.protocol === 'specarena') return new SpecArenaAdapter();
  if (args.protocol === 'clawarena') return new ClawArenaAdapter();
  if (args.protocol === 'governance') return new GovernanceAdapter(args.scenario, args.framework);
  throw new ConfigError(`unknown protocol ${JSON.stringify(args.protocol)} (available: specarena, clawarena, governance)`);
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const errorLine = (text: string) => process.stderr.write(`model-agent: ${text}\n`);
  let secrets: string[] = [];
  let scrub = createScrubber([]);
  let deadline: NodeJS.Timeout | undefined;
  try {
    const args = parseArgs(argv);
    const loaded = loadModelConfig(args.config);
    const { config } = loaded;
    const apiKey = resolveApiKey(config, env);
    secrets = apiKey ? [apiKey] : [];
    scrub = createScrubber(secrets);
    const priceTable = config.price_table ? loadPriceTable(path.resolve(loaded.dir, config.price_table)) : EMPTY_PRICE_TABLE;
    const provider = await createProvider(config, apiKey);
    /** One game with a fresh adapter and turn engine (the provider is shared); resolves with the exit code. */
    const playGame = async (gameEnv: NodeJS.ProcessEnv, deadlineMs: number): Promise<number> => {
      const adapter = adapterFor(args);
      const contract = readCommonContract(gameEnv);
      const name = contract.agentId ?? 'model-agent';
      const engine = new TurnEngine({
        provider,
        config,
        priceTable,
        protocol: adapter.protocol,
        ...(contract.agentId !== undefined ? { agentId: contract.agentId } : {}),
        ...(contract.moveSeconds !== undefined ? { moveLimitSeconds: contract.moveSeconds } : {}),
        secrets,
        endpoint: providerEndpoint(config),
        emit: (line) => process.stderr.write(`${line}\n`),
      });
      const timedOut = new Promise<number>((resolve) => {
        deadline = setTimeout(() => {
          errorLine(`gave up after ${Math.round(deadlineMs / 1000)} s without the game ending`);
          resolve(2);
        }, deadlineMs);
      });
      const played = adapter
        .run({
          env: gameEnv,
          agentId: contract.agentId,
          engine,
          systemPrompt: loaded.systemPrompt,
          maxTurns: config.max_turns,
          idleReaskMs: config.idle_reask_seconds * 1000,
          log: (line) => process.stdout.write(`[${name}] ${scrub(line)}\n`),
        })
        .then(() => 0);
      try {
        return await Promise.race([played, timedOut]);
      } finally {
        clearTimeout(deadline);
      }
    };
    const agentKey = env.ARENA_AGENT_KEY;
    if (!agentKey) return await playGame(env, config.game_seconds * 1000);
    if (args.protocol !== 'specarena') throw new ConfigError(`a warm model agent plays SpecArena seats, not ${args.protocol}`);
    const url = env.ARENA_URL;
    if (!url) throw new Error('ARENA_URL is not set');
    for (;;) {
      const seat = await nextSeat(url, agentKey);
      if (seat === null) continue;
      if (seat === 'finished') return 0;
      const code = await playGame(seatEnv(env, seat), Math.min(config.game_seconds * 1000, Math.max(1000, seat.deadline - Date.now())));
      // A failed game ends the process, as it would a per-game agent: the harness starts a fresh one.
      if (code !== 0) return code;
    }
  } catch (error) {
    errorLine(scrub(error instanceof Error ? error.message : String(error)));
    return error instanceof ConfigError ? 64 : 1;
  } finally {
    clearTimeout(deadline);
  }
}

/** Writes nothing, but calls back once everything written before has been handed to the OS. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * Runs the agent and exits. Exiting is explicit because the client libraries' keep-alive sockets would hold a
 * finished agent for seconds; it waits for stdio first, since pipes are asynchronous on macOS and a lost
 * ARENA_MODEL_USAGE line is lost accounting.
 */
export async function runAndExit(argv: readonly string[]): Promise<never> {
  const code = await main(argv);
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

// Run when executed directly (`node dist/engine/model-agent/main.js`); the launcher in agents/model-agent imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await runAndExit(process.argv.slice(2));
}
