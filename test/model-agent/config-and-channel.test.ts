// model.yaml validation, the price table, Retry-After parsing and the ARENA_MODEL_* line format the runner parses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { AgentManifestSchema } from '../../engine/contract/manifest.js';
import {
  capText,
  formatTurnLine,
  formatUsageLine,
  type ModelUsageLine,
  parseAgentLine,
  parseAgentOutput,
  totalUsage,
} from '../../engine/contract/usage-line.js';
import { backoffDelay } from '../../engine/model-agent/backoff.js';
import { interpretClawArena } from '../../engine/model-agent/clawarena-adapter.js';
import { ConfigError, loadModelConfig, parseModelConfig, resolveApiKey } from '../../engine/model-agent/config.js';
import { extractJsonObject } from '../../engine/model-agent/json-answer.js';
import { costOf, loadPriceTable } from '../../engine/model-agent/price-table.js';
import { retryAfterMs } from '../../engine/model-agent/provider.js';
import { interpretSpecArena } from '../../engine/model-agent/specarena-adapter.js';
import { commandArgv } from '../../engine/runner/agent-command.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const tmp: string[] = [];
afterEach(() => {
  for (const dir of tmp.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function writeConfig(config: unknown, files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-config-'));
  tmp.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const file = path.join(dir, 'model.yaml');
  fs.writeFileSync(file, typeof config === 'string' ? config : YAML.stringify(config));
  return file;
}

describe('model.yaml', () => {
  it('fills defaults and reads the system prompt relative to the file', () => {
    const file = writeConfig(
      { provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', system_prompt_file: 'p.md' },
      { 'p.md': 'Be brief.' },
    );
    const { config, systemPrompt, dir } = loadModelConfig(file);
    expect(config).toMatchObject({
      temperature: 0,
      max_tokens: 512,
      json_mode: false,
      max_turns: 20,
      timeouts: { turn_seconds: 60, request_seconds: 30 },
      retry: { max_retries: 3 },
    });
    expect(systemPrompt).toBe('Be brief.');
    expect(dir).toBe(path.dirname(file));
  });

  it('explains every problem with its field path', () => {
    const error = (() => {
      try {
        parseModelConfig({ provider: 'gemini', model: '', api_key_env: 'sk-123', temperature: 9, extra: 1 }, 'model.yaml');
      } catch (e) {
        return e as Error;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/model\.yaml: provider: /);
    expect(error.message).toMatch(/model\.yaml: model: must name the model/);
    expect(error.message).toMatch(/model\.yaml: api_key_env: must be the NAME of an environment variable/);
    expect(error.message).toMatch(/model\.yaml: temperature: /);
    expect(error.message).toMatch(/Unrecognized key: "extra"/);
  });

  it('needs a base_url for OpenAI-compatible servers and a key variable for hosted Anthropic', () => {
    expect(() => parseModelConfig({ provider: 'openai-compatible', model: 'm' }, 'f')).toThrow(/base_url: is required/);
    expect(() => parseModelConfig({ provider: 'anthropic', model: 'm' }, 'f')).toThrow(/api_key_env: is required/);
    expect(() => parseModelConfig({ provider: 'anthropic', model: 'm', api_key_env: 'ARENA_KEY' }, 'f')).toThrow(/reserved/);
  });

  it('reports a missing system prompt file and bad YAML', () => {
    expect(() =>
      loadModelConfig(writeConfig({ provider: 'anthropic', model: 'm', api_key_env: 'K', system_prompt_file: 'nope.md' })),
    ).toThrow(/system_prompt_file: cannot read/);
    expect(() => loadModelConfig(writeConfig('provider: [unclosed'))).toThrow(/not valid YAML/);
  });

  it('reads the key from the named variable only, and says how to grant it when it is missing', () => {
    const config = parseModelConfig({ provider: 'anthropic', model: 'm', api_key_env: 'MY_KEY' }, 'f');
    expect(resolveApiKey(config, { MY_KEY: 'secret-value' })).toBe('secret-value');
    expect(() => resolveApiKey(config, { ANTHROPIC_API_KEY: 'other' })).toThrow(/MY_KEY is not set .*"secrets" in agent.yaml/);
    expect(
      resolveApiKey(parseModelConfig({ provider: 'openai-compatible', base_url: 'http://x/v1', model: 'm' }, 'f'), { OPENAI_API_KEY: 'k' }),
    ).toBeUndefined();
  });
});

describe('shipped examples', () => {
  it.each(['ollama-psi', 'openai-psi', 'anthropic-psi'])('%s: agent.yaml and model.yaml are valid and consistent', (name) => {
    const dir = path.join(REPO, 'agents', 'model-agent', 'examples', name);
    const manifest = AgentManifestSchema.parse(YAML.parse(fs.readFileSync(path.join(dir, 'agent.yaml'), 'utf8')));
    const { config } = loadModelConfig(path.join(dir, 'model.yaml'));
    // A manifest grants exactly the variable its model.yaml reads, and no key is written into either file.
    expect(manifest.secrets).toEqual(config.api_key_env ? [config.api_key_env] : []);
    expect(manifest.protocol).toBe('specarena');
    // Launched by name (no repo path), with model.yaml next to the manifest.
    const argv = commandArgv(manifest.entrypoint, dir);
    expect(argv).toEqual(['arena-agent', 'model', '--config', path.join(dir, 'model.yaml')]);
    if (config.price_table) loadPriceTable(path.join(dir, config.price_table));
  });
});

describe('price table', () => {
  it('prices provider:model first, then the bare model, and leaves unknown models unpriced at 0', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prices-'));
    tmp.push(dir);
    const file = path.join(dir, 'prices.yaml');
    fs.writeFileSync(
      file,
      YAML.stringify({
        models: { 'gpt-x': { input_per_mtok: 1, output_per_mtok: 2 }, 'anthropic:gpt-x': { input_per_mtok: 10, output_per_mtok: 20 } },
      }),
    );
    const table = loadPriceTable(file);
    expect(costOf(table, 'openai-compatible', 'gpt-x', 1_000_000, 500_000)).toEqual({ cost_usd: 2, priced: true });
    expect(costOf(table, 'anthropic', 'gpt-x', 1000, 1000)).toEqual({ cost_usd: 0.03, priced: true });
    expect(costOf(table, 'openai-compatible', 'llama3.2', 1000, 1000)).toEqual({ cost_usd: 0, priced: false });
    fs.writeFileSync(file, 'models: {a: {input_per_mtok: -1, output_per_mtok: 0}}');
    expect(() => loadPriceTable(file)).toThrow(/price table/);
  });

  it('the shipped price table parses', () => {
    loadPriceTable(path.join(REPO, 'agents', 'model-agent', 'prices.yaml'));
  });
});

describe('retry timing', () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  it('reads Retry-After as seconds, HTTP date or retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after-ms': '150', 'retry-after': '9' }))).toBe(150);
    expect(retryAfterMs(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(6000);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({}))).toBeUndefined();
  });

  it('backs off exponentially up to the cap, but never sooner than the server asked', () => {
    const policy = { base_delay_ms: 100, max_delay_ms: 1000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(policy, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(policy, 0, 3000)).toBe(3000);
    expect(backoffDelay(policy, 3, 10)).toBe(800);
  });
});

describe('answers', () => {
  it('accepts one JSON object, optionally fenced, and nothing else', () => {
    expect(extractJsonObject(' {"a": 1} ')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJsonObject('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJsonObject('Here: {"a": 1}').ok).toBe(false);
    expect(extractJsonObject('[1]').ok).toBe(false);
    expect(extractJsonObject('').ok).toBe(false);
  });

  it('separates unparsable SpecArena answers from illegal ones', () => {
    expect(interpretSpecArena('{"method": "guess", "content": "1, 2"}', ['guess'])).toEqual({
      ok: true,
      action: { method: 'guess', content: '1, 2' },
    });
    expect(interpretSpecArena('{"chat": "hi"}', ['guess'])).toEqual({ ok: true, action: { chat: 'hi' } });
    expect(interpretSpecArena('{"wait": true}', ['guess'])).toEqual({ ok: true, action: { wait: true } });
    expect(interpretSpecArena('{"method": "steal", "content": ""}', ['guess'])).toMatchObject({ ok: false, cause: 'model_illegal' });
    expect(interpretSpecArena('{"method": "guess"}', ['guess'])).toMatchObject({ ok: false, cause: 'model_unparsable' });
    expect(interpretSpecArena('{"chat": "hi", "method": "guess", "content": "1"}', ['guess'])).toMatchObject({
      ok: false,
      cause: 'model_unparsable',
    });
  });
});

describe('ClawArena answers', () => {
  const legal = [
    {
      action: 'challenge',
      params_schema: { type: 'object', properties: { message: { type: 'string', maxLength: 5 } }, additionalProperties: true },
    },
    {
      action: 'bid',
      params_schema: {
        type: 'object',
        required: ['quantity', 'face'],
        properties: { quantity: { type: 'integer', minimum: 1, maximum: 10 }, face: { type: 'integer', minimum: 1, maximum: 6 } },
        additionalProperties: true,
      },
    },
  ];
  it('checks the action against the legal list and its params against params_schema', () => {
    expect(interpretClawArena('{"action": "bid", "params": {"quantity": 2, "face": 3}}', legal)).toEqual({
      ok: true,
      action: { action: 'bid', params: { quantity: 2, face: 3 } },
    });
    expect(interpretClawArena('{"action": "challenge"}', legal)).toEqual({ ok: true, action: { action: 'challenge', params: {} } });
    expect(interpretClawArena('{"action": "fold", "params": {}}', legal)).toMatchObject({ ok: false, cause: 'model_illegal' });
    const bad = interpretClawArena('{"action": "bid", "params": {"quantity": 2, "face": 7}}', legal);
    expect(bad).toMatchObject({ ok: false, cause: 'model_illegal' });
    expect(!bad.ok && bad.error).toMatch(/face/);
    expect(interpretClawArena('{"action": "challenge", "params": {"message": "far too long"}}', legal)).toMatchObject({
      ok: false,
      cause: 'model_illegal',
    });
    expect(interpretClawArena('{"move": "bid"}', legal)).toMatchObject({ ok: false, cause: 'model_unparsable' });
  });

  it('leaves schemas zod cannot express to the server', () => {
    expect(
      interpretClawArena('{"action": "x", "params": {"a": 1}}', [{ action: 'x', params_schema: { type: 'object', $ref: '#/nowhere' } }]).ok,
    ).toBe(true);
  });
});

describe('ARENA_MODEL_* stderr channel', () => {
  const call: ModelUsageLine = {
    kind: 'call',
    v: 1,
    agent_id: 'a',
    protocol: 'specarena',
    turn: 1,
    phase: 'initial',
    attempt: 1,
    provider: 'openai-compatible',
    model: 'm',
    prompt_tokens: 10,
    completion_tokens: 5,
    latency_ms: 12,
    cost_usd: 0.001,
    priced: true,
    outcome: 'ok',
  };
  const fallback: ModelUsageLine = {
    kind: 'fallback',
    v: 1,
    protocol: 'specarena',
    turn: 2,
    cause: 'model_timeout',
    detail: 'slow',
    action: 'wait',
  };

  it('round-trips usage and turn lines and keeps other stderr apart', () => {
    const turn = {
      v: 1 as const,
      protocol: 'specarena',
      turn: 1,
      phase: 'initial' as const,
      attempt: 1,
      prompt: 'p',
      completion: 'c',
      truncated: false,
    };
    const stderr = [
      formatUsageLine(call),
      'plain error line',
      formatUsageLine(fallback),
      formatTurnLine(turn),
      'ARENA_MODEL_USAGE: {"kind":"call"}',
      'ARENA_MODEL_TURN: nope',
      '',
    ].join('\r\n');
    const out = parseAgentOutput(stderr);
    expect(out.usage).toEqual([call, fallback]);
    expect(out.turns).toEqual([turn]);
    expect(out.other).toEqual(['plain error line']);
    expect(out.invalid.map((i) => i.error)).toEqual([expect.stringContaining('✖'), expect.stringMatching(/^not JSON/)]);
    expect(parseAgentLine('ARENA_MODEL_USAGE:{}').type).toBe('other');
  });

  it('totals calls and counts fallbacks by cause, call outcomes, retries and rethinks', () => {
    expect(totalUsage([call, call, fallback])).toEqual({
      calls: 2,
      prompt_tokens: 20,
      completion_tokens: 10,
      latency_ms: 24,
      cost_usd: 0.002,
      fallbacks: { model_timeout: 1 },
      outcomes: { ok: 2 },
      retries: 0,
      rethinks: 0,
    });
    const limited = { ...call, outcome: 'rate_limited' as const, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, http_status: 429 };
    const retried = { ...call, attempt: 2 };
    const rethought = { ...call, phase: 'rethink' as const };
    expect(totalUsage([limited, retried, rethought])).toMatchObject({
      calls: 3,
      outcomes: { rate_limited: 1, ok: 2 },
      retries: 1,
      rethinks: 1,
    });
  });

  it('caps transcript text with a marker', () => {
    expect(capText('abcdef', 3)).toEqual({ text: 'abc\n…[3 characters cut]', truncated: true });
    expect(capText('abc', 3)).toEqual({ text: 'abc', truncated: false });
  });
});
