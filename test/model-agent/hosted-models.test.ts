// Hosted APIs in discovery: a provider whose key variable is set is asked for its models with the key in its header,
// and the key never appears in what discovery answers (not even in an error); a provider without a key is not asked
// at all. A scripted server on 127.0.0.1 stands in for the hosted APIs: an OpenAI-compatible listing that refuses a
// request without `Authorization: Bearer <key>`, and Anthropic's, which wants `x-api-key` and `anthropic-version`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HostedProvider, listHosted } from '../../engine/runtime/hosted-models.js';

const KEY = 'sk-test-hosted-0123456789abcdef';
const asked: string[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/openai/v1/models')
      return req.headers.authorization === `Bearer ${KEY}`
        ? json(200, { object: 'list', data: [{ id: 'gpt-4o-mini' }, { id: 'gpt-4o' }, { id: 'gpt-4o' }] })
        : json(401, { error: { message: `Incorrect API key provided: ${req.headers.authorization}` } });
    if (req.url === '/anthropic/v1/models?limit=1000')
      return req.headers['x-api-key'] === KEY && req.headers['anthropic-version'] === '2023-06-01'
        ? json(200, { data: [{ id: 'claude-sonnet-4-5', type: 'model' }] })
        : json(401, { error: 'bad key' });
    return json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const provider = (id: string, base: string, kind: HostedProvider['provider'] = 'openai-compatible'): HostedProvider => ({
  id,
  name: id,
  base_url: `${url}${base}`,
  provider: kind,
  api_key_env: `${id.toUpperCase()}_KEY`,
});

it('asks only the providers whose key is set, with the key in the header and nowhere in the answer', async () => {
  const providers = [
    provider('openai', '/openai/v1'),
    provider('anthropic', '/anthropic', 'anthropic'),
    provider('unset', '/unset/v1'),
    provider('wrong', '/openai/v1'),
    provider('missing', '/missing/v1'),
  ];
  const env = { OPENAI_KEY: KEY, ANTHROPIC_KEY: KEY, WRONG_KEY: `${KEY}-revoked`, MISSING_KEY: KEY };
  const listed = await listHosted(env, providers);
  expect(listed.map((h) => [h.id, h.configured, h.models?.map((m) => m.id) ?? null, h.error])).toEqual([
    ['openai', true, ['gpt-4o', 'gpt-4o-mini'], null],
    ['anthropic', true, ['claude-sonnet-4-5'], null],
    ['unset', false, null, null],
    // The server's own message quotes the key: discovery says only the status and where the key lives.
    ['wrong', true, null, 'HTTP 401: check the key in WRONG_KEY'],
    ['missing', true, null, 'HTTP 404'],
  ]);
  expect(JSON.stringify(listed)).not.toContain(KEY);
  // No key, no request: nothing leaves the machine for a provider that is not configured.
  expect(asked.filter((p) => p.startsWith('/unset'))).toEqual([]);
  expect(asked.sort()).toEqual(['/anthropic/v1/models?limit=1000', '/missing/v1/models', '/openai/v1/models', '/openai/v1/models']);

  // Without any key, nothing is asked at all.
  asked.length = 0;
  expect((await listHosted({}, providers)).every((h) => !h.configured && h.models === null)).toBe(true);
  expect(asked).toEqual([]);
});
