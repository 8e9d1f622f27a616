// A full SpecArena PSI game: the model agent runs as a child process against a scripted local model server (OpenAI
// chat-completions, then Anthropic Messages) and plays the honest-exact baseline through a real engine. The script
// walks the agent through every robustness path — malformed JSON and rethink, an illegal method and its fallback,
// a reply slower than the turn, a 429 then success, an operator refusal rethought into a legal guess — and the test
// checks the game ends, the usage channel accounts for every call, and the API key leaks nowhere.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import type { AdminSessionDetail } from '../../engine/contract/admin.js';
import { AgentManifestSchema } from '../../engine/contract/manifest.js';
import { type ModelCallUsage, parseAgentOutput } from '../../engine/contract/usage-line.js';
import { costOf, type PriceTable } from '../../engine/model-agent/price-table.js';
import { commandArgv } from '../../engine/runner/agent-command.js';
import { buildAgentEnv } from '../../engine/runner/agent-env.js';
import { client as httpClient } from '../support/http.js';
import { runNode } from '../support/run-node.js';
import { type CompiledAgent, compileModelAgent } from './compiled-agent.js';
import { anthropicReply, type FakeModelServer, lastUserText, openAiReply, startFakeModelServer } from './fake-model-server.js';
import { psiScript } from './scripted-models.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const HONEST_DIR = path.join(REPO, 'challenges', 'psi', 'agents', 'honest-exact');
const GAME_TIMEOUT_MS = 90_000;
const PRICES: PriceTable = {
  models: { 'fake-model': { input_per_mtok: 1, output_per_mtok: 4 }, 'fake-claude': { input_per_mtok: 3, output_per_mtok: 15 } },
};

let compiled: CompiledAgent;
let engine: RunningEngine;
let dataDir: string;

beforeAll(async () => {
  compiled = compileModelAgent();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-agent-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null });
}, 60_000);

afterAll(async () => {
  await engine?.close();
  compiled?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const run = (argv: string[], cwd: string, env: Record<string, string>) => runNode(argv, { cwd, env, timeoutMs: GAME_TIMEOUT_MS });

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe.each([
  {
    provider: 'openai-compatible' as const,
    model: 'fake-model',
    keyHeader: 'authorization',
    reply: openAiReply,
    basePath: '/v1',
    path: '/v1/chat/completions',
  },
  {
    provider: 'anthropic' as const,
    model: 'fake-claude',
    keyHeader: 'authorization',
    reply: anthropicReply,
    basePath: '',
    path: '/v1/messages',
  },
])('model agent ($provider) plays a full PSI game', ({ provider, model, keyHeader, reply, basePath, path: apiPath }) => {
  let modelServer: FakeModelServer;
  let served: { prompt: number; completion: number }[];
  afterAll(async () => {
    await modelServer?.close();
  });

  it(
    'ends the game, accounts for every call, records fallback causes and leaks no key',
    async () => {
      const scripted = psiScript(reply, 12_000);
      served = scripted.served;
      modelServer = await startFakeModelServer(scripted.script);
      const key = `sk-test-${randomBytes(18).toString('hex')}`;
      const keyVar = 'FAKE_MODEL_API_KEY';

      // The agent's folder: model.yaml naming the key's variable, a price table, a system prompt.
      const agentDir = path.join(compiled.agentHome, 'examples', `test-${provider}`);
      fs.mkdirSync(agentDir, { recursive: true });
      fs.writeFileSync(path.join(agentDir, 'prices.yaml'), YAML.stringify(PRICES));
      fs.writeFileSync(path.join(agentDir, 'system.md'), 'You are a careful PSI player.');
      fs.writeFileSync(
        path.join(agentDir, 'model.yaml'),
        YAML.stringify({
          provider,
          base_url: `${modelServer.url}${basePath}`,
          model,
          api_key_env: keyVar,
          seed: 3,
          system_prompt_file: 'system.md',
          price_table: 'prices.yaml',
          // Generous for a loaded machine: only the scripted slow reply (12 s) may pass it.
          timeouts: { turn_seconds: 6, request_seconds: 6 },
          retry: { max_retries: 2, base_delay_ms: 20, max_delay_ms: 100 },
          idle_reask_seconds: 0.3,
          max_turns: 30,
          game_seconds: 80,
        }),
      );

      const admin = httpClient(engine.url);
      const created = await admin.post<{ session: { id: string; invites: string[] }; seatKeys: string[] }>(
        '/admin/api/v1/sessions',
        { challengeType: 'psi', seatKeys: true },
        { headers: { authorization: `Bearer ${engine.token}` } },
      );
      expect(created.status, created.text).toBe(200);
      const { session, seatKeys } = created.body;

      // Environments built the way the runner builds them: the key is on the host, only the model agent's manifest
      // grants it, so only the model agent's process receives it.
      const hostEnv = { ...process.env, [keyVar]: key };
      const modelManifest = AgentManifestSchema.parse({
        id: 'model-agent-test',
        name: 'Model agent',
        framework: 'node',
        protocol: 'specarena',
        entrypoint: { command: ['node', '../../arena-model-agent.mjs', '--config', 'model.yaml'] },
        secrets: [keyVar],
      });
      const honestManifest = AgentManifestSchema.parse(YAML.parse(fs.readFileSync(path.join(HONEST_DIR, 'agent.yaml'), 'utf8')));
      const contract = (seat: number, id: string) => ({
        ARENA_URL: engine.url,
        ARENA_INVITE: session.invites[seat] as string,
        ARENA_SESSION_KEY: seatKeys[seat] as string,
        ARENA_CHALLENGE: 'psi',
        ARENA_AGENT_ID: id,
        ARENA_SEED: `seed-${seat}`,
      });
      const modelEnv = buildAgentEnv({ manifest: modelManifest, hostEnv, runnerEnv: contract(0, 'model-agent-test') });
      const honestEnv = buildAgentEnv({ manifest: honestManifest, hostEnv, runnerEnv: contract(1, 'honest-exact') });
      expect(modelEnv[keyVar]).toBe(key);
      expect(Object.values(honestEnv).join('\n')).not.toContain(key);

      const [modelExit, honestExit] = await Promise.all([
        // The argv the runner derives from the manifest, as the shipped examples write it.
        run(commandArgv(modelManifest.entrypoint, agentDir).slice(1), agentDir, modelEnv),
        run(['agent.mjs'], HONEST_DIR, honestEnv),
      ]);
      expect({ code: honestExit.code, stderr: honestExit.stderr }).toEqual({ code: 0, stderr: '' });
      expect(modelExit.code, modelExit.stderr).toBe(0);

      // The game ended, and the model agent's guess (the exact intersection) was accepted.
      const detail = await admin.get<AdminSessionDetail>(`/admin/api/v1/sessions/${session.id}`, {
        headers: { authorization: `Bearer ${engine.token}` },
      });
      const state = detail.body.session.state;
      expect(state.status).toBe('ended');
      const seat = state.players.indexOf(session.invites[0] as string);
      expect(state.scores[seat]?.utility).toBe(1);

      // The key reached the model server (so the agent had it) …
      const keys = modelServer.requests.map((r) => String(r.headers[keyHeader] ?? ''));
      expect(new Set(keys)).toEqual(new Set([`Bearer ${key}`]));
      expect(modelServer.requests.every((r) => r.path === apiPath)).toBe(true);

      // … and the usage channel accounts for every answered call with the server's token counts and the price table.
      const out = parseAgentOutput(modelExit.stderr);
      expect(out.invalid).toEqual([]);
      expect(out.other).toEqual([]);
      const calls = out.usage.filter((u): u is ModelCallUsage => u.kind === 'call');
      const answered = calls.filter((c) => c.outcome === 'ok');
      expect(answered.map((c) => [c.prompt_tokens, c.completion_tokens])).toEqual(
        served.filter((_s, i) => i !== 2).map((s) => [s.prompt, s.completion]),
      );
      for (const c of calls) {
        expect(c).toMatchObject({ provider, model, protocol: 'specarena', agent_id: 'model-agent-test', priced: true });
        expect(c.cost_usd).toBe(costOf(PRICES, provider, model, c.prompt_tokens, c.completion_tokens).cost_usd);
      }
      expect(answered.every((c) => c.cost_usd > 0)).toBe(true);
      expect(calls.map((c) => c.outcome).slice(0, 5)).toEqual(['ok', 'ok', 'timeout', 'rate_limited', 'ok']);
      expect(calls[1]?.phase).toBe('rethink');
      expect(calls[3]).toMatchObject({ http_status: 429, attempt: 1 });
      expect(calls[4]).toMatchObject({ attempt: 2, phase: 'initial' });

      // Fallbacks: the illegal method (after its rethink) and the slow reply; the refused guess was rethought.
      const fallbacks = out.usage.filter((u) => u.kind === 'fallback');
      expect(fallbacks.map((f) => [f.turn, f.cause])).toEqual([
        [1, 'model_illegal'],
        [2, 'model_timeout'],
      ]);
      expect(calls.some((c) => c.phase === 'rethink' && c.turn > 2)).toBe(true);
      const rethinkAfterRefusal = modelServer.requests.find((r) => lastUserText(r).includes('Invalid guess'));
      expect(rethinkAfterRefusal).toBeDefined();

      // One transcript line per call, with the system prompt file's text in the prompt.
      expect(out.turns).toHaveLength(calls.length);
      expect(out.turns[0]?.prompt).toContain('You are a careful PSI player.');
      expect(out.turns[0]?.completion).toBe('Sure! Here is my move: {method: guess');

      // The key is nowhere: not in any output of either agent, not in any file of the engine's data dir.
      for (const text of [modelExit.stdout, modelExit.stderr, honestExit.stdout, honestExit.stderr]) expect(text).not.toContain(key);
      await new Promise((r) => setTimeout(r, 50));
      for (const file of filesUnder(dataDir)) expect(fs.readFileSync(file).includes(Buffer.from(key)), file).toBe(false);
      for (const file of filesUnder(agentDir)) expect(fs.readFileSync(file).includes(Buffer.from(key)), file).toBe(false);
    },
    GAME_TIMEOUT_MS + 10_000,
  );
});
