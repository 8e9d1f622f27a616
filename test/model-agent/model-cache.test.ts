// model.yaml `cache: true`: a re-run of the same definition and seed answers every model call from the answers the
// first run got (the scripted server sees no request), the calls are recorded as cache hits, count no tokens or cost,
// and the report counts them apart from the server's calls. A different game (another seed) asks the model again,
// and an agent without `cache:` never reads the cache. Liar's Dice against the seeded Node baseline: turn-based, so
// the same seed asks the same questions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import type { ModelCallRecord } from '../../engine/contract/model-call.js';
import { modelCacheKey } from '../../engine/tournaments/model-cache.js';
import { type CompiledAgent, compileModelAgent, writeLiarsDiceModelAgent } from './compiled-agent.js';
import { type FakeModelServer, openAiReply, startFakeModelServer } from './fake-model-server.js';
import { firstLegal } from './scripted-models.js';

const REPO = path.resolve(import.meta.dirname, '../..');

let compiled: CompiledAgent;
let engine: RunningEngine;
let dataDir: string;
let server: FakeModelServer;

beforeAll(async () => {
  compiled = compileModelAgent();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-cache-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
  server = await startFakeModelServer((request) => openAiReply(JSON.stringify(firstLegal(request)), 300, 12));
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await server?.close();
  compiled?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function agentDir(name: string, cache: boolean): string {
  return writeLiarsDiceModelAgent(compiled, { id: name, baseUrl: `${server.url}/v1`, cache });
}

const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

async function play(manifest: string, seed: string) {
  const t = engine.tournaments.create(
    {
      name: 'cached',
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
    },
    REPO,
  );
  const asked = chats();
  expect((await engine.tournaments.start(t.id)).status).toBe('finished');
  const games = engine.store.tournaments.games(t.id);
  expect(games.map((g) => g.termination)).toEqual(['completed']);
  const calls: ModelCallRecord[] = engine.store.modelCalls.ofRun(t.id).flatMap((r) => r.calls);
  const report = JSON.parse(fs.readFileSync(path.join(await engine.tournaments.exportReports(t.id), 'report.json'), 'utf8'));
  return { id: t.id, calls, asked: chats() - asked, report, transcript: games[0]?.placements };
}

it('a re-run answers identical calls from the cache: no request reaches the server, no tokens counted, hits counted apart', async () => {
  const manifest = agentDir('cached-model', true);
  const first = await play(manifest, 'cache-1');
  expect(first.asked).toBeGreaterThan(0);
  expect(first.calls).toHaveLength(first.asked);
  expect(first.calls.every((c) => c.cached !== true && typeof c.cache_key === 'string')).toBe(true);
  // The game's rules and strategy briefs (objects in ClawArena's poll) reach the model as text.
  const firstRequest = first.calls[0]?.request as { messages?: { content: string }[] } | undefined;
  const system = firstRequest?.messages?.[0]?.content ?? '';
  expect(system).not.toContain('[object Object]');
  expect(system).toMatch(/Rules:\n.+\nrules:\n- \S/);
  // The key is the one documented: server, path, request body, game (challenge, opening seed), seat and turn.
  const game = engine.store.tournaments.games(first.id)[0];
  const call0 = first.calls.find((c) => c.seq === 0) as ModelCallRecord;
  const modelSeat = engine.store.modelCalls.ofRun(first.id)[0]?.seat as number;
  expect(call0.cache_key).toBe(
    modelCacheKey({
      server: new URL(server.url).host,
      path: call0.path,
      request: call0.request,
      challenge: 'liars_dice',
      gameSeed: game?.seed as string,
      seat: modelSeat,
      turn: 0,
    }),
  );
  expect(first.report.model_servers).toEqual([expect.objectContaining({ calls: first.asked, cache_hits: 0 })]);
  const firstUsage = first.report.standings.combined.find((r: { agent: string }) => r.agent === 'model').model_usage;
  expect(firstUsage.prompt_tokens).toBe(300 * first.asked);

  // The same definition and seed again: every call answered from the cache, the model never asked.
  const again = await play(manifest, 'cache-1');
  expect(again.asked).toBe(0);
  expect(again.calls).toHaveLength(first.calls.length);
  expect(again.calls.every((c) => c.cached === true)).toBe(true);
  expect(again.calls.map((c) => c.cache_key)).toEqual(first.calls.map((c) => c.cache_key));
  expect(again.transcript).toEqual(first.transcript);
  expect(again.report.model_servers).toEqual([expect.objectContaining({ calls: 0, cache_hits: first.calls.length, utilisation: 0 })]);
  const againUsage = again.report.standings.combined.find((r: { agent: string }) => r.agent === 'model').model_usage;
  expect([againUsage.prompt_tokens, againUsage.completion_tokens, againUsage.cost_usd]).toEqual([0, 0, 0]);
  const md = fs.readFileSync(path.join(await engine.tournaments.exportReports(again.id), 'report.md'), 'utf8');
  expect(md).toContain(`| ${new URL(server.url).host} | — | 0 | ${first.calls.length} | 0.0% |`);
  expect(engine.tournaments.get(again.id).manifest).toMatchObject({
    agents: [{ id: 'model', model: { cache: true } }, { id: 'baseline' }],
  });

  // Another game (another seed): other keys, the model is asked.
  const other = await play(manifest, 'cache-2');
  expect(other.asked).toBeGreaterThan(0);
  expect(other.calls.filter((c) => c.cached)).toHaveLength(0);

  // The same game for an agent without `cache:`: it is not read, the model is asked and nothing is keyed.
  const uncached = await play(agentDir('uncached-model', false), 'cache-1');
  expect(uncached.asked).toBe(uncached.calls.length);
  expect(uncached.calls.every((c) => c.cache_key === undefined && c.cached === undefined)).toBe(true);
}, 400_000);
