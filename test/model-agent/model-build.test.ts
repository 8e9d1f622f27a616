// Which model build played: before a run the engine asks each model agent's server its kind, version and the model's
// digest, and the run manifest (manifest.json, report.md) records them. Scripted servers on 127.0.0.1 speak each
// kind's own listing (Ollama, llama.cpp, vLLM, LM Studio); a resume onto a server whose tag now points at other
// weights is refused, naming both digests, and `arena compare` counts such a change as a changed agent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import { modelBuild } from '../../engine/runtime/model-build.js';
import { compareRuns } from '../../engine/tournaments/compare/compare.js';
import type { RunModelRecord } from '../../engine/tournaments/run/run-manifest.js';
import { type CompiledAgent, compileModelAgent, writeLiarsDiceModelAgent } from './compiled-agent.js';
import { type FakeModelServer, openAiReply, startFakeModelServer } from './fake-model-server.js';
import { firstLegal } from './scripted-models.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const DIGEST_A = 'sha256:a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72';
const DIGEST_B = 'sha256:42182419e9508c30c4b1fe55015f06b65f4ca4b9e28a744be55008d21998a093';

let compiled: CompiledAgent;
let engine: RunningEngine;
let dataDir: string;
const servers: FakeModelServer[] = [];

beforeAll(async () => {
  compiled = compileModelAgent();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-build-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await Promise.all(servers.map((s) => s.close()));
  compiled?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function fake(get: Record<string, unknown>, models?: string[]): Promise<FakeModelServer> {
  const server = await startFakeModelServer((request) => openAiReply(JSON.stringify(firstLegal(request)), 300, 12), {
    get,
    ...(models ? { models } : {}),
  });
  servers.push(server);
  return server;
}

it('tells each kind of server by what only it answers, with its version and the build of the model', async () => {
  const llama = await fake({
    '/v1/models': { data: [{ id: 'qwen.gguf', owned_by: 'llamacpp', meta: { size: 4683073504 } }] },
    '/props': {
      total_slots: 2,
      model_path: '/models/qwen2.5-7b-q4_k_m.gguf',
      build_info: 'b4500-1a2b3c',
      default_generation_settings: { n_ctx: 8192 },
    },
  });
  const vllm = await fake({
    '/v1/models': { data: [{ id: 'qwen', owned_by: 'vllm', root: 'Qwen/Qwen2.5-7B-Instruct', max_model_len: 32768 }] },
    '/version': { version: '0.6.3.post1' },
  });
  const studio = await fake({
    '/v1/models': { data: [{ id: 'qwen2.5-7b-instruct', owned_by: 'organization_owner' }] },
    '/api/v0/models': {
      data: [
        { id: 'qwen2.5-7b-instruct', publisher: 'lmstudio-community', arch: 'qwen2', quantization: 'Q4_K_M', max_context_length: 32768 },
      ],
    },
  });
  const plain = await fake({}, ['gpt-x']);

  // llama.cpp serves its one model whatever the request calls it: the file and its size identify the build.
  expect(await modelBuild(`${llama.url}/v1`, 'anything')).toEqual({
    kind: 'llama.cpp',
    version: 'b4500-1a2b3c',
    served_as: 'qwen.gguf',
    digest: null,
    size_bytes: 4683073504,
    source: '/models/qwen2.5-7b-q4_k_m.gguf',
    context: 8192,
  });
  expect(await modelBuild(`${vllm.url}/v1`, 'qwen')).toMatchObject({
    kind: 'vllm',
    version: '0.6.3.post1',
    source: 'Qwen/Qwen2.5-7B-Instruct',
    context: 32768,
  });
  expect(await modelBuild(`${studio.url}/v1`, 'qwen2.5-7b-instruct')).toMatchObject({
    kind: 'lm-studio',
    version: null,
    source: 'lmstudio-community/qwen2 Q4_K_M',
    context: 32768,
  });
  // A server that says nothing of itself: "unknown", never guessed; a model it does not list is named.
  expect(await modelBuild(`${plain.url}/v1`, 'other')).toMatchObject({
    kind: 'openai-compatible',
    version: null,
    served_as: null,
    digest: null,
    note: 'the server does not list model "other"',
  });
  // Nobody there (a port just freed): unknown, with the reason.
  const gone = await startFakeModelServer(() => openAiReply('{}'));
  await gone.close();
  expect(await modelBuild(`${gone.url}/v1`, 'm')).toMatchObject({
    kind: 'unknown',
    note: `${gone.url}/v1 did not answer a model listing before the run`,
  });
  // A hosted API is not asked at all (its base URL here is unreachable on purpose: a probe would say so in the note).
  expect(await modelBuild('https://127.0.0.1:1/v1', 'gpt-4o')).toMatchObject({ kind: 'hosted', digest: null });
  // Listing the build is not a model call.
  for (const s of [llama, vllm, studio, plain]) expect(s.requests).toHaveLength(0);
});

function modelAgentDir(name: string, baseUrl: string): string {
  return writeLiarsDiceModelAgent(compiled, { id: name, name: 'Model agent on Ollama', baseUrl, model: 'llama3.2' });
}

const definition = (manifest: string, seed: string) => ({
  name: 'which build played',
  challenge: 'liars_dice',
  format: 'round-robin',
  games_per_pairing: 1,
  concurrency: 1,
  seed,
  agents: [
    { manifest, id: 'model' },
    { manifest: path.join(REPO, 'agents/clawarena/baseline-node/agent.yaml'), id: 'baseline', lifecycle: 'per-game' },
  ],
  limits: { move_seconds: 30, game_seconds: 90 },
});

async function admin(method: string, route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${engine.url}/admin/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${engine.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const modelOf = (manifest: Record<string, unknown>): RunModelRecord =>
  (manifest.agents as Array<{ id: string; model?: RunModelRecord }>).find((a) => a.id === 'model')?.model as RunModelRecord;

it('records the Ollama build a run played in its manifest and report; a resume onto moved weights is refused', async () => {
  const get: Record<string, unknown> = {
    '/v1/models': { object: 'list', data: [{ id: 'llama3.2:latest', object: 'model', owned_by: 'library' }] },
    '/api/tags': { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', digest: DIGEST_A, size: 2019393189 }] },
    '/api/version': { version: '0.5.7' },
  };
  const ollama = await fake(get);
  const manifest = modelAgentDir('ollama-build', `${ollama.url}/v1`);

  const played = await admin('POST', '/tournaments', { spec: definition(manifest, 'build-1'), base_dir: REPO, start: true });
  expect(played.status, JSON.stringify(played.json)).toBe(200);
  const id = played.json.id as string;
  const outcome = await engine.tournaments.settled(id).then(() => engine.tournaments.get(id));
  expect(outcome.status).toBe('finished');
  expect(ollama.requests.length).toBeGreaterThan(0);
  const build = {
    kind: 'ollama',
    version: '0.5.7',
    served_as: 'llama3.2:latest',
    digest: DIGEST_A,
    size_bytes: 2019393189,
    source: null,
    context: null,
  };
  expect(modelOf(outcome.manifest).build).toEqual(build);
  // The exports carry it: manifest.json and the run manifest in report.md.
  const dir = await engine.tournaments.exportReports(id);
  expect(modelOf(JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).manifest).build).toEqual(build);
  expect(fs.readFileSync(path.join(dir, 'report.md'), 'utf8')).toContain(DIGEST_A);

  // A run created now, not started; then the tag moves to other weights (`ollama pull` of a newer llama3.2).
  const waiting = await admin('POST', '/tournaments', { spec: definition(manifest, 'build-2'), base_dir: REPO, start: false });
  expect(waiting.status).toBe(200);
  const waitingId = waiting.json.id as string;
  expect(modelOf(engine.tournaments.get(waitingId).manifest).build?.digest).toBe(DIGEST_A);
  get['/api/tags'] = { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', digest: DIGEST_B, size: 2019393189 }] };
  const refused = await admin('POST', `/tournaments/${waitingId}/start`);
  expect(refused.status).toBe(400);
  expect(JSON.stringify(refused.json)).toContain(
    `agent model: its model server now serves another build of llama3.2:latest (${DIGEST_A} when tournament ${waitingId} started, ${DIGEST_B} now)`,
  );
  expect(engine.tournaments.get(waitingId).status).toBe('paused');

  // The same definition played on the moved tag: `arena compare` counts the model agent as changed, the baseline not.
  const report = (manifestRecord: Record<string, unknown>) => ({
    id: 'r',
    name: 'r',
    manifest_hash: 'sha256:x',
    manifest: manifestRecord as never,
    standings: { combined: [] },
    ratings: {},
    games: [],
  });
  const before = outcome.manifest;
  const moved = structuredClone(before);
  (modelOf(moved).build as { digest: string }).digest = DIGEST_B;
  const unknownNow = structuredClone(before);
  (modelOf(unknownNow) as { build: unknown }).build = {
    ...build,
    kind: 'unknown',
    version: null,
    digest: null,
    size_bytes: null,
    note: 'down',
  };
  const changed = (b: Record<string, unknown>) => compareRuns(report(before), report(b)).agents.map((a) => [a.agent, a.changed]);
  expect(changed(moved)).toEqual([
    ['model', true],
    ['baseline', false],
  ]);
  // A server that could not say which build it served is no evidence of a change.
  expect(changed(unknownNow)).toEqual([
    ['model', false],
    ['baseline', false],
  ]);
}, 300_000);
