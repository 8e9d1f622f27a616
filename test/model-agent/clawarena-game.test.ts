// A full ClawArena match (Claw Vegas, 3 seats): the model agent, launched from a manifest through its launcher, plays
// two baseline Node agents with a scripted local OpenAI-compatible server. The script exercises a rethought malformed
// answer, an unknown action and params that break the params_schema (rethink, then the server's fallback move), a
// reply past the turn deadline and a 429 before success; the match must finish with every call accounted for.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import { AgentManifestSchema } from '../../engine/contract/manifest.js';
import { parseAgentOutput } from '../../engine/contract/usage-line.js';
import { commandArgv } from '../../engine/runner/agent-command.js';
import { runNode } from '../support/run-node.js';
import { type CompiledAgent, compileModelAgent } from './compiled-agent.js';
import {
  errorReply,
  type FakeModelServer,
  lastUserText,
  openAiReply,
  type RecordedRequest,
  type ScriptedReply,
  startFakeModelServer,
} from './fake-model-server.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const BASELINE_DIR = path.join(REPO, 'agents', 'clawarena', 'baseline-node');
const MATCH_TIMEOUT_MS = 90_000;

let compiled: CompiledAgent;
let engine: RunningEngine;
let dataDir: string;
let modelServer: FakeModelServer;

beforeAll(async () => {
  compiled = compileModelAgent();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-claw-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null });
}, 60_000);

afterAll(async () => {
  await modelServer?.close();
  await engine?.close();
  compiled?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The first legal action and its example params, as the prompt lists them. */
function firstLegal(request: RecordedRequest): { action: string; params: Record<string, unknown> } {
  const messages = (request.body.messages ?? []) as { role: string; content: string }[];
  const prompt = messages.find((m) => m.role === 'user')?.content ?? '';
  const action = /Legal actions now:\n- "([^"]+)"/.exec(prompt)?.[1] ?? 'none';
  const params = JSON.parse(/example params: (\{.*\})/.exec(prompt)?.[1] ?? '{}') as Record<string, unknown>;
  return { action, params };
}

function script(request: RecordedRequest, index: number): ScriptedReply {
  const legal = firstLegal(request);
  const good = openAiReply(JSON.stringify(legal), 300 + index, 12);
  switch (index) {
    case 0:
      return openAiReply('I will place on the best casino.', 300, 12);
    case 1:
      return good; // the rethink of turn 1 succeeds
    case 2:
      return openAiReply('{"action": "cheat", "params": {}}', 302, 12);
    case 3:
      return openAiReply(JSON.stringify({ action: legal.action, params: { face: 'six' } }), 303, 12); // breaks params_schema
    case 4:
      return { ...good, delayMs: 12_000 };
    case 5:
      return errorReply(429, { 'retry-after': '0.1' });
    default:
      return good;
  }
}

const run = (argv: string[], cwd: string, env: Record<string, string>) => runNode(argv, { cwd, env, timeoutMs: MATCH_TIMEOUT_MS });

describe('model agent plays a full ClawArena match', () => {
  it(
    'Claw Vegas against two baselines: retry, rethink, fallbacks and accounting',
    async () => {
      modelServer = await startFakeModelServer(script);
      const agentDir = path.join(compiled.agentHome, 'examples', 'test-clawarena');
      fs.mkdirSync(agentDir, { recursive: true });
      fs.writeFileSync(
        path.join(agentDir, 'model.yaml'),
        YAML.stringify({
          provider: 'openai-compatible',
          base_url: `${modelServer.url}/v1`,
          model: 'fake-model',
          // Generous for a loaded machine: only the scripted slow reply (12 s) may pass it.
          timeouts: { turn_seconds: 6, request_seconds: 6 },
          retry: { max_retries: 2, base_delay_ms: 20, max_delay_ms: 100 },
          max_turns: 200,
          game_seconds: 80,
        }),
      );
      const manifest = AgentManifestSchema.parse({
        id: 'model-claw-test',
        name: 'Model agent',
        framework: 'node',
        protocol: 'clawarena',
        entrypoint: { command: ['node', '../../arena-model-agent.mjs', '--config', 'model.yaml', '--protocol', 'clawarena'] },
      });

      const service = engine.clawarena;
      const match = service.createMatch({
        gameType: 'las_vegas',
        seats: [{ name: 'model' }, { name: 'base-1' }, { name: 'base-2' }],
        waitForConnect: false,
        seed: 'mv',
      });
      const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
      const [modelSeat, ...baselineSeats] = match.seats;
      const exits = await Promise.all([
        run(commandArgv(manifest.entrypoint, agentDir).slice(1), agentDir, {
          ...base,
          ...service.agentEnvironment(modelSeat?.token as string),
          ARENA_AGENT_ID: 'model-claw-test',
        }),
        ...baselineSeats.map((seat) =>
          run(['agent.mjs', '--matches', '1', '--wait', '10'], BASELINE_DIR, { ...base, ...service.agentEnvironment(seat.token) }),
        ),
      ]);
      for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);
      expect(service.match(match.matchId)?.status).toBe('finished');

      const out = parseAgentOutput(exits[0]?.stderr ?? '');
      expect(out.invalid).toEqual([]);
      expect(out.other).toEqual([]);
      const calls = out.usage.filter((u) => u.kind === 'call');
      expect(calls.slice(0, 7).map((c) => (c.kind === 'call' ? `${c.turn}/${c.phase}/${c.attempt}/${c.outcome}` : ''))).toEqual([
        '1/initial/1/ok',
        '1/rethink/1/ok',
        '2/initial/1/ok',
        '2/rethink/1/ok',
        '3/initial/1/timeout',
        '4/initial/1/rate_limited',
        '4/initial/2/ok',
      ]);
      expect(calls.every((c) => c.kind === 'call' && c.protocol === 'clawarena' && c.cost_usd === 0 && !c.priced)).toBe(true);
      const fallbacks = out.usage.filter((u) => u.kind === 'fallback');
      expect(fallbacks.map((f) => [f.turn, f.cause])).toEqual([
        [2, 'model_illegal'],
        [3, 'model_timeout'],
      ]);
      expect(fallbacks[0]?.kind === 'fallback' && fallbacks[0].detail).toMatch(/params_schema/);
      expect(fallbacks[0]?.kind === 'fallback' && fallbacks[0].action).toMatch(/^server fallback: \{"action":"place"/);
      // The rethink prompts carried the errors: the unknown action, then (turn 1) the unparsable prose.
      expect(lastUserText(modelServer.requests[1] as RecordedRequest)).toMatch(/not valid JSON/);
      expect(lastUserText(modelServer.requests[3] as RecordedRequest)).toMatch(/"cheat" is not a legal action now/);
      // Later turns were all answered by the model.
      expect(calls.length).toBeGreaterThan(8);
      expect(out.turns).toHaveLength(calls.length);
    },
    MATCH_TIMEOUT_MS + 15_000,
  );
});
