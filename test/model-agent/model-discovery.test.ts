// `arena models` and GET /admin/api/v1/models find model servers and what they offer: a scripted OpenAI-compatible
// server that reports llama.cpp's slots and context size, and one speaking Ollama's own listing (digests; no slots,
// so "unknown"). The CLI runs as a real child process on the current sources.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import { runNode } from '../support/run-node.js';
import { type CompiledApp, compileApp } from './compiled-app.js';
import { type FakeModelServer, openAiReply, startFakeModelServer } from './fake-model-server.js';

const DIGEST = 'sha256:a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72';
let app: CompiledApp;
let llama: FakeModelServer;
let ollama: FakeModelServer;
let engine: RunningEngine;
let dataDir: string;

beforeAll(async () => {
  app = compileApp();
  llama = await startFakeModelServer(() => openAiReply('{}'), {
    get: {
      '/v1/models': { object: 'list', data: [{ id: 'qwen2.5-7b-instruct-q4_k_m.gguf', object: 'model' }] },
      '/props': { total_slots: 4, default_generation_settings: { n_ctx: 8192 }, model_path: '/models/qwen.gguf', build_info: 'b4500' },
    },
  });
  ollama = await startFakeModelServer(() => openAiReply('{}'), {
    get: {
      '/v1/models': { object: 'list', data: [{ id: 'llama3.2:latest', object: 'model' }] },
      '/api/tags': { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', digest: DIGEST, size: 2019393189 }] },
      '/api/version': { version: '0.5.7' },
    },
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-discovery-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
}, 180_000);

afterAll(async () => {
  await engine?.close();
  await llama?.close();
  await ollama?.close();
  app?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH ?? '', HOME: os.tmpdir() };

it('arena models --server URL --json lists each server with its models, slots and context size', async () => {
  const exit = await runNode([app.arena, 'models', '--only', '--server', `${llama.url}/v1`, '--server', ollama.url, '--json'], {
    env,
    timeoutMs: 60_000,
  });
  expect(exit.code, exit.stderr).toBe(0);
  const { servers } = JSON.parse(exit.stdout);
  expect(servers).toEqual([
    {
      url: llama.url,
      base_url: `${llama.url}/v1`,
      kind: 'llama.cpp',
      version: 'b4500',
      models: [{ id: 'qwen2.5-7b-instruct-q4_k_m.gguf', digest: null, size_bytes: null, context: null, source: null }],
      slots: 4,
      context: 8192,
      model_path: '/models/qwen.gguf',
    },
    {
      url: ollama.url,
      base_url: `${ollama.url}/v1`,
      kind: 'ollama',
      version: '0.5.7',
      models: [{ id: 'llama3.2:latest', digest: DIGEST, size_bytes: 2019393189, context: null, source: null }],
      slots: null,
      context: null,
      model_path: null,
    },
  ]);
  // Listing is not a model call: nothing was asked of either model.
  expect(llama.requests).toHaveLength(0);
  expect(ollama.requests).toHaveLength(0);

  const text = await runNode([app.arena, 'models', '--only', '--server', ollama.url], { env, timeoutMs: 60_000 });
  expect(text.stdout).toContain(`${ollama.url}/v1  (ollama 0.5.7, slots unknown, context unknown)`);
  expect(text.stdout).toContain('llama3.2:latest  sha256:a80c4');

  // Hosted APIs only with --hosted; with no key set none is asked, each is listed with the variable to set.
  const hosted = await runNode([app.arena, 'models', '--only', '--server', ollama.url, '--hosted', '--json'], { env, timeoutMs: 60_000 });
  expect(hosted.code, hosted.stderr).toBe(0);
  expect(
    JSON.parse(hosted.stdout).hosted.map((h: { id: string; configured: boolean; models: unknown }) => [h.id, h.configured, h.models]),
  ).toEqual([
    ['openai', false, null],
    ['anthropic', false, null],
    ['openrouter', false, null],
    ['mistral', false, null],
  ]);
  const hostedText = await runNode([app.arena, 'models', '--only', '--server', ollama.url, '--hosted'], { env, timeoutMs: 60_000 });
  expect(hostedText.stdout).toContain('https://api.openai.com/v1  (OpenAI: not asked; set OPENAI_API_KEY to list its models)');
  expect(JSON.parse(exit.stdout).hosted).toBeUndefined();

  const bad = await runNode([app.arena, 'models', '--server', 'ftp://127.0.0.1:1'], { env, timeoutMs: 60_000 });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--server: ftp:\/\/127\.0\.0\.1:1: only http\(s\) servers can be probed/);
}, 120_000);

it('GET /admin/api/v1/models?server= answers the same, and refuses a non-http server with the field named', async () => {
  const base = `${engine.url}/admin/api/v1/models`;
  const headers = { authorization: `Bearer ${engine.token}` };
  const res = await fetch(`${base}?only=true&server=${encodeURIComponent(ollama.url)}`, { headers });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { servers: { kind: string; models: { id: string; digest: string }[] }[] };
  expect(body.servers.map((s) => [s.kind, s.models.map((m) => [m.id, m.digest])])).toEqual([['ollama', [['llama3.2:latest', DIGEST]]]]);
  const withHosted = await fetch(`${base}?only=true&hosted=true&server=${encodeURIComponent(ollama.url)}`, { headers });
  const listed = (await withHosted.json()) as { hosted: { id: string; api_key_env: string }[] };
  expect(listed.hosted.map((h) => [h.id, h.api_key_env])).toEqual([
    ['openai', 'OPENAI_API_KEY'],
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['openrouter', 'OPENROUTER_API_KEY'],
    ['mistral', 'MISTRAL_API_KEY'],
  ]);
  const bad = await fetch(`${base}?server=file%3A%2F%2F%2Fetc%2Fpasswd`, { headers });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(await bad.json())).toMatch(/server: file:\/\/\/etc\/passwd: only http\(s\) servers/);
  expect((await fetch(base)).status).toBe(401);
});
