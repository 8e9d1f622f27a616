// The Anthropic provider against a local fake Messages API: system prompt placement, token accounting, 429 retry.
import { afterEach, describe, expect, it } from 'vitest';
import { parseAgentOutput } from '../../engine/contract/usage-line.js';
import { createAnthropicProvider } from '../../engine/model-agent/anthropic-provider.js';
import { parseModelConfig } from '../../engine/model-agent/config.js';
import { TurnEngine } from '../../engine/model-agent/turn-engine.js';
import { anthropicReply, errorReply, type FakeModelServer, type Script, startFakeModelServer } from './fake-model-server.js';

const KEY = 'sk-ant-test-0123456789abcdef';
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: Script) {
  server = await startFakeModelServer(script);
  const config = parseModelConfig(
    {
      provider: 'anthropic',
      base_url: server.url,
      model: 'fake-claude',
      api_key_env: 'ANTHROPIC_API_KEY',
      max_tokens: 300,
      timeouts: { turn_seconds: 2, request_seconds: 2 },
      retry: { max_retries: 1, base_delay_ms: 10, max_delay_ms: 20 },
    },
    'test',
  );
  const lines: string[] = [];
  const engine = new TurnEngine({
    provider: createAnthropicProvider(config, KEY),
    config,
    priceTable: { models: { 'anthropic:fake-claude': { input_per_mtok: 3, output_per_mtok: 15 } } },
    protocol: 'test',
    secrets: [KEY],
    emit: (line) => lines.push(line),
  });
  return { engine, output: () => parseAgentOutput(lines.join('\n')), lines };
}

const spec = {
  messages: [
    { role: 'system' as const, content: 'Rules: answer {"ok": true}.' },
    { role: 'user' as const, content: 'Go.' },
  ],
  interpret: (text: string) =>
    text.trim() === '{"ok": true}'
      ? { ok: true as const, action: 'ok' }
      : { ok: false as const, cause: 'model_unparsable' as const, error: 'say {"ok": true}' },
  execute: async () => ({ ok: true as const }),
  fallback: { describe: 'nothing', run: async () => {} },
};

describe('Anthropic Messages provider', () => {
  it('sends system separately, and accounts input/output tokens at the table price', async () => {
    const { engine, output, lines } = await setup(() => anthropicReply('{"ok": true}', 2000, 100));
    expect(await engine.play(spec)).toEqual({ source: 'model', action: 'ok' });
    const sent = server?.requests[0];
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.body).toMatchObject({
      model: 'fake-claude',
      max_tokens: 300,
      system: 'Rules: answer {"ok": true}.',
      messages: [{ role: 'user', content: 'Go.' }],
    });
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(output().usage).toEqual([
      expect.objectContaining({
        provider: 'anthropic',
        model: 'fake-claude',
        prompt_tokens: 2000,
        completion_tokens: 100,
        cost_usd: 0.0075,
        priced: true,
        outcome: 'ok',
      }),
    ]);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('retries a 429 and rethinks a wrong answer', async () => {
    const { engine, output } = await setup((_r, i) =>
      i === 0 ? errorReply(429, { 'retry-after': '0' }) : i === 1 ? anthropicReply('no') : anthropicReply('{"ok": true}'),
    );
    expect(await engine.play(spec)).toEqual({ source: 'rethink', action: 'ok' });
    expect(output().usage.map((u) => (u.kind === 'call' ? `${u.phase}/${u.attempt}/${u.outcome}` : u.kind))).toEqual([
      'initial/1/rate_limited',
      'initial/2/ok',
      'rethink/1/ok',
    ]);
    // The rethink carries the rejected answer as the assistant turn.
    expect(server?.requests[2]?.body.messages).toEqual([
      { role: 'user', content: 'Go.' },
      { role: 'assistant', content: 'no' },
      { role: 'user', content: expect.stringContaining('rejected: say {"ok": true}') },
    ]);
  });
});
