// Every model call is recorded with its game (request and response as the engine forwarded them), and a finished run
// replays from that record with its model server stopped: every game comes out identical; after one recorded answer
// is altered, the replay names the first difference. Liar's Dice against the seeded Node baseline: turn-based, so a
// game's prompts depend on the moves only, not on timing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import { callSummary } from '../../engine/contract/model-call.js';
import { replayRun } from '../../engine/tournaments/run/model-replay.js';
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
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-replay-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
}, 90_000);

afterAll(async () => {
  await engine?.close();
  await server?.close();
  compiled?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('records every call, and replays the run without its server: identical, then the altered answer named', async () => {
  server = await startFakeModelServer((request) => openAiReply(JSON.stringify(firstLegal(request)), 300, 12));
  const manifest = writeLiarsDiceModelAgent(compiled, { id: 'replay-claw', name: 'Replayed model agent', baseUrl: `${server.url}/v1` });
  const t = engine.tournaments.create(
    {
      name: 'replayable',
      challenge: 'liars_dice',
      format: 'round-robin',
      games_per_pairing: 2,
      concurrency: 1,
      seed: 'replay-1',
      agents: [
        { manifest, id: 'model' },
        { manifest: path.join(REPO, 'agents/clawarena/baseline-node/agent.yaml'), id: 'baseline', lifecycle: 'per-game' },
      ],
      limits: { move_seconds: 30, game_seconds: 90 },
    },
    REPO,
  );
  expect((await engine.tournaments.start(t.id)).status).toBe('finished');
  const games = engine.store.tournaments.games(t.id).filter((g) => g.termination === 'completed');
  expect(games).toHaveLength(2);

  // Recorded: every request the server saw, in order, with its model, messages, seed and the answer's text and usage.
  const recorded = engine.store.modelCalls.ofRun(t.id);
  const calls = recorded.flatMap((r) => r.calls);
  // (The engine's one capacity probe, GET /props, is not a model call.)
  const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(calls).toHaveLength(chats().length);
  const first = callSummary(calls[0] as (typeof calls)[number]);
  expect(first).toMatchObject({ model: 'fake-model', sampler: { temperature: 0, max_tokens: 512, seed: 7 }, finish_reason: 'stop' });
  expect(first.text).toMatch(/"action"/);
  expect(first.usage).toMatchObject({ prompt_tokens: 300, completion_tokens: 12 });
  expect(Array.isArray(first.messages)).toBe(true);
  expect(calls.every((c) => c.status === 200 && c.latency_ms >= 0)).toBe(true);

  // The server is gone: the replay never needs it.
  await server.close();
  const seen = server.requests.length;
  expect(seen).toBeGreaterThan(0);
  const same = await replayRun(engine, t.id);
  expect(same.games.map((g) => [g.game, g.identical, g.difference])).toEqual(games.map((g) => [g.gameIndex, true, null]));
  expect(same.identical).toBe(true);
  expect(server.requests).toHaveLength(seen);

  // One recorded answer altered (game 0's first call now picks the last legal action): named as the first difference.
  const row = recorded.find((r) => r.gameIndex === 0 && r.calls.length > 0);
  if (!row) throw new Error('game 0 has no recorded calls');
  const altered = structuredClone(row.calls);
  const response = altered[0]?.response as { choices: { message: { content: string } }[] };
  (response.choices[0] as { message: { content: string } }).message.content = 'I fold.';
  engine.store.modelCalls.replace(t.id, row.gameIndex, row.attempt, row.seat, altered);
  const changed = await replayRun(engine, t.id);
  expect(changed.identical).toBe(false);
  const game0 = changed.games.find((g) => g.game === 0);
  expect(game0?.identical).toBe(false);
  expect(game0?.difference).toMatch(/model call #2|transcript|result|termination/);
  expect(changed.games.find((g) => g.game === 1)?.identical).toBe(true);
}, 300_000);
