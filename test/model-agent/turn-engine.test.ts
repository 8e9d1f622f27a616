// The turn engine against a real local OpenAI-compatible server: retry on 429 (Retry-After honoured) and 5xx, strict
// parsing with one rethink, fallback causes, per-call accounting and the transcript cap.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  parseAgentOutput,
  TRANSCRIPT_BUDGET_CHARS,
  TRANSCRIPT_CAP_CHARS,
  TRANSCRIPT_TAIL_CAP_CHARS,
  totalUsage,
} from '../../engine/contract/usage-line.js';
import { parseModelConfig } from '../../engine/model-agent/config.js';
import { parseAnswer } from '../../engine/model-agent/json-answer.js';
import { createOpenAiProvider } from '../../engine/model-agent/openai-provider.js';
import type { PriceTable } from '../../engine/model-agent/price-table.js';
import { type Interpretation, TurnEngine, type TurnSpec } from '../../engine/model-agent/turn-engine.js';
import { errorReply, type FakeModelServer, lastUserText, openAiReply, type Script, startFakeModelServer } from './fake-model-server.js';

const PRICES: PriceTable = { models: { 'openai-compatible:fake-model': { input_per_mtok: 2, output_per_mtok: 10 } } };
const KEY = 'sk-test-turn-engine-0123456789';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MoveSchema = z.strictObject({ move: z.enum(['rock', 'paper', 'scissors']) });
type Move = z.infer<typeof MoveSchema>;

async function setup(script: Script, overrides: Record<string, unknown> = {}) {
  server = await startFakeModelServer(script);
  const config = parseModelConfig(
    {
      provider: 'openai-compatible',
      base_url: `${server.url}/v1`,
      model: 'fake-model',
      api_key_env: 'FAKE_KEY',
      seed: 7,
      timeouts: { turn_seconds: 2, request_seconds: 2 },
      retry: { max_retries: 2, base_delay_ms: 10, max_delay_ms: 50 },
      ...overrides,
    },
    'test',
  );
  const lines: string[] = [];
  const engine = new TurnEngine({
    provider: createOpenAiProvider(config, KEY),
    config,
    priceTable: PRICES,
    protocol: 'test',
    agentId: 'model-a',
    secrets: [KEY],
    emit: (line) => lines.push(line),
  });
  return { engine, lines, output: () => parseAgentOutput(lines.join('\n')) };
}

/** A spec whose moves are all legal except "scissors", which the "server" refuses. */
function spec(executed: Move[], fellBack: string[]): TurnSpec<Move> {
  return {
    messages: [
      { role: 'system', content: 'Play rock-paper-scissors. Answer {"move": ...}.' },
      { role: 'user', content: 'Your move?' },
    ],
    interpret: (text): Interpretation<Move> => {
      const parsed = parseAnswer(text, MoveSchema);
      return parsed.ok ? { ok: true, action: parsed.value } : { ok: false, cause: 'model_unparsable', error: parsed.error };
    },
    execute: async (move) => {
      if (move.move === 'scissors') return { ok: false, error: 'scissors are not allowed this turn' };
      executed.push(move);
      return { ok: true };
    },
    fallback: { describe: 'rock (default)', run: async () => void fellBack.push('rock') },
  };
}

describe('turn engine over an OpenAI-compatible server', () => {
  it('plays a well-formed answer and accounts for the call', async () => {
    const { engine, output } = await setup(() => openAiReply('{"move": "paper"}', 1000, 200));
    const executed: Move[] = [];
    const result = await engine.play(spec(executed, []));
    expect(result).toEqual({ source: 'model', action: { move: 'paper' } });
    expect(executed).toEqual([{ move: 'paper' }]);
    const { usage, turns, invalid } = output();
    expect(invalid).toEqual([]);
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({
      kind: 'call',
      provider: 'openai-compatible',
      model: 'fake-model',
      prompt_tokens: 1000,
      completion_tokens: 200,
      cost_usd: 0.004,
      priced: true,
      outcome: 'ok',
      turn: 1,
      phase: 'initial',
      attempt: 1,
      agent_id: 'model-a',
    });
    expect(turns[0]?.completion).toBe('{"move": "paper"}');
    expect(turns[0]?.prompt).toContain('Your move?');
    // The request carried the config: model, seed, max_tokens, and the key only as a bearer header.
    const sent = server?.requests[0];
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.body).toMatchObject({ model: 'fake-model', seed: 7, max_tokens: 512, temperature: 0 });
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('accepts a fenced JSON answer', async () => {
    const { engine } = await setup(() => openAiReply('```json\n{"move": "rock"}\n```'));
    expect(await engine.play(spec([], []))).toEqual({ source: 'model', action: { move: 'rock' } });
  });

  it('re-asks once with the parse error after malformed JSON, then plays the rethought answer', async () => {
    const { engine, output } = await setup((_req, i) => (i === 0 ? openAiReply('Sure! {move: paper') : openAiReply('{"move": "rock"}')));
    const result = await engine.play(spec([], []));
    expect(result).toEqual({ source: 'rethink', action: { move: 'rock' } });
    const rethink = server?.requests[1];
    expect(rethink && lastUserText(rethink)).toMatch(/rejected: the answer is not valid JSON/);
    const messages = rethink?.body.messages as { role: string; content: string }[];
    expect(messages.at(-2)).toEqual({ role: 'assistant', content: 'Sure! {move: paper' });
    expect(output().usage.map((u) => (u.kind === 'call' ? u.phase : u.kind))).toEqual(['initial', 'rethink']);
  });

  it('falls back with model_illegal when the rethought move is refused too', async () => {
    const { engine, output } = await setup(() => openAiReply('{"move": "scissors"}'));
    const fellBack: string[] = [];
    const result = await engine.play(spec([], fellBack));
    expect(result).toMatchObject({ source: 'fallback', cause: 'model_illegal', detail: 'scissors are not allowed this turn' });
    expect(fellBack).toEqual(['rock']);
    expect(server?.requests).toHaveLength(2);
    const fallback = output().usage.find((u) => u.kind === 'fallback');
    expect(fallback).toMatchObject({ cause: 'model_illegal', action: 'rock (default)', turn: 1 });
  });

  it('falls back with model_unparsable when both answers are not the required shape', async () => {
    const { engine, output } = await setup((_req, i) => openAiReply(i === 0 ? '["rock"]' : '{"move": "lizard"}'));
    const result = await engine.play(spec([], []));
    expect(result).toMatchObject({ source: 'fallback', cause: 'model_unparsable' });
    expect(totalUsage(output().usage).fallbacks).toEqual({ model_unparsable: 1 });
  });

  it('falls back with model_timeout when the reply comes after the turn deadline', async () => {
    const { engine, output } = await setup(() => ({ ...openAiReply('{"move": "paper"}'), delayMs: 8000 }), {
      timeouts: { turn_seconds: 0.5, request_seconds: 5 },
    });
    const started = Date.now();
    const result = await engine.play(spec([], []));
    // Well before the reply (8 s) would have come, even on a busy machine.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result).toMatchObject({ source: 'fallback', cause: 'model_timeout' });
    const call = output().usage.find((u) => u.kind === 'call');
    expect(call).toMatchObject({ outcome: 'timeout', prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 });
    expect(call?.kind === 'call' && call.latency_ms).toBeGreaterThanOrEqual(400);
  });

  it('honours ARENA_MOVE_SECONDS when it is shorter than the configured turn', async () => {
    const config = parseModelConfig(
      { provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'm', timeouts: { turn_seconds: 2 } },
      'test',
    );
    const options = { provider: createOpenAiProvider(config, undefined), config, priceTable: PRICES, protocol: 'test', emit: () => {} };
    expect(new TurnEngine({ ...options, moveLimitSeconds: 0.25 }).turnTimeoutMs()).toBe(250);
    expect(new TurnEngine({ ...options, moveLimitSeconds: 30 }).turnTimeoutMs()).toBe(2000);
    expect(new TurnEngine(options).turnTimeoutMs()).toBe(2000);
  });

  it('retries a 429 after its Retry-After, then plays; both calls are accounted', async () => {
    const { engine, output } = await setup((_req, i) =>
      i === 0 ? errorReply(429, { 'retry-after': '0.3' }) : openAiReply('{"move": "paper"}', 50, 5),
    );
    const started = Date.now();
    const result = await engine.play(spec([], []));
    expect(result).toEqual({ source: 'model', action: { move: 'paper' } });
    // The base delay is 10 ms: only the server's Retry-After explains a 300 ms pause.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const calls = output().usage.filter((u) => u.kind === 'call');
    expect(calls.map((c) => [c.attempt, c.outcome, c.http_status])).toEqual([
      [1, 'rate_limited', 429],
      [2, 'ok', undefined],
    ]);
    expect(totalUsage(output().usage)).toMatchObject({ calls: 2, prompt_tokens: 50, completion_tokens: 5 });
  });

  it('retries 5xx with backoff and falls back with provider_error once retries are spent', async () => {
    const { engine, output } = await setup(() => errorReply(503));
    const result = await engine.play(spec([], []));
    expect(result).toMatchObject({ source: 'fallback', cause: 'provider_error' });
    expect(server?.requests).toHaveLength(3);
    expect(
      output()
        .usage.filter((u) => u.kind === 'call')
        .map((c) => c.kind === 'call' && c.outcome),
    ).toEqual(['provider_error', 'provider_error', 'provider_error']);
  });

  it('does not retry a 401', async () => {
    const { engine } = await setup(() => errorReply(401));
    expect(await engine.play(spec([], []))).toMatchObject({ source: 'fallback', cause: 'provider_error' });
    expect(server?.requests).toHaveLength(1);
  });

  it('gives up on a Retry-After longer than the turn has left', async () => {
    const { engine } = await setup(() => errorReply(429, { 'retry-after': '30' }));
    const started = Date.now();
    const result = await engine.play(spec([], []));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ source: 'fallback', cause: 'provider_error' });
    expect(result.source === 'fallback' && result.detail).toMatch(/would pass the turn's deadline/);
  });

  it('retries when the server is unreachable, then reports provider_error', async () => {
    const { engine } = await setup(() => openAiReply('{}'), { base_url: 'http://127.0.0.1:9/v1' });
    expect(await engine.play(spec([], []))).toMatchObject({ source: 'fallback', cause: 'provider_error' });
  });

  it('caps transcripts and never writes the key', async () => {
    const { engine, lines, output } = await setup(() =>
      openAiReply(`{"move": "paper", "note": "${'x'.repeat(TRANSCRIPT_CAP_CHARS + 500)}"}`),
    );
    await engine.play(spec([], []));
    const turn = output().turns[0];
    expect(turn?.truncated).toBe(true);
    expect(turn?.completion.length).toBeLessThan(TRANSCRIPT_CAP_CHARS + 100);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('shrinks transcripts once the per-process budget is spent, so later usage lines still fit the runner cap', async () => {
    const config = parseModelConfig({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'm' }, 'test');
    const lines: string[] = [];
    const engine = new TurnEngine({
      provider: {
        name: 'openai-compatible',
        model: 'm',
        complete: async () => ({ text: `{"move": "rock"}${' '.repeat(40_000)}`, promptTokens: 1, completionTokens: 1 }),
      },
      config,
      priceTable: PRICES,
      protocol: 'test',
      emit: (line) => lines.push(line),
    });
    const calls = Math.ceil(TRANSCRIPT_BUDGET_CHARS / TRANSCRIPT_CAP_CHARS) + 3;
    for (let i = 0; i < calls; i++) await engine.play(spec([], []));
    const { turns, usage } = parseAgentOutput(lines.join('\n'));
    expect(usage.filter((u) => u.kind === 'call')).toHaveLength(calls);
    expect(turns[0]?.completion.length).toBeGreaterThan(TRANSCRIPT_CAP_CHARS);
    expect(turns.at(-1)?.completion.length).toBeLessThan(TRANSCRIPT_TAIL_CAP_CHARS + 50);
    expect(lines.join('\n').length).toBeLessThan(TRANSCRIPT_BUDGET_CHARS + 2 * TRANSCRIPT_CAP_CHARS + 100_000);
  });
});
