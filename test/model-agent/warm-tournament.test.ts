// The model agent warm (lifecycle: persistent) in a real tournament: one model-agent process plays every PSI game
// against the honest-exact baseline through a scripted local model server, each game is accounted with its own model
// calls, and the provider's key reaches only the model server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import type { TournamentEvent } from '../../engine/contract/tournament.js';
import { type CompiledAgent, compileModelAgent } from './compiled-agent.js';
import { type FakeModelServer, lastUserText, openAiReply, startFakeModelServer } from './fake-model-server.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const KEY_VAR = 'WARM_FAKE_MODEL_KEY';
const KEY = 'sk-warm-test-0123456789abcdef';

let compiled: CompiledAgent;
let engine: RunningEngine;
let dataDir: string;
let model: FakeModelServer;

beforeAll(async () => {
  compiled = compileModelAgent();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-warm-model-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
  // A model that guesses one number of its set once it has seen it, then waits. One number, not the whole set: PSI
  // refuses a guess larger than the opponent's set (GUESS_TOO_LARGE), and a set's random part can overlap the planted
  // intersection, so the two sets of a game differ in size now and then; a model guessing its whole set then never
  // moved again (its history shows the refused guess) and the game ran out its move clock.
  model = await startFakeModelServer((request) => {
    const text = lastUserText(request);
    const first = /Your private set is: \{(\d+)/.exec(text)?.[1];
    if (!first || text.includes('action guess')) return openAiReply('{"wait": true}', 50, 5);
    return openAiReply(JSON.stringify({ method: 'guess', content: first }), 120, 12);
  });
  process.env[KEY_VAR] = KEY;
}, 90_000);

afterAll(async () => {
  delete process.env[KEY_VAR];
  await engine?.close();
  await model?.close();
  compiled?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A warm PSI model agent in examples/<name>/ of the compiled layout: its folder, with model.yaml and agent.yaml. */
function writeWarmAgent(
  name: string,
  model: Record<string, unknown>,
  manifest: { id: string; name: string } & Record<string, unknown>,
): string {
  const dir = path.join(compiled.agentHome, 'examples', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'model.yaml'),
    YAML.stringify({ provider: 'openai-compatible', model: 'fake-model', max_turns: 10, game_seconds: 60, ...model }),
  );
  fs.writeFileSync(
    path.join(dir, 'agent.yaml'),
    YAML.stringify({
      framework: 'node',
      entrypoint: { command: ['node', '../../arena-model-agent.mjs', '--config', 'model.yaml'] },
      protocol: 'specarena',
      challenges: ['psi'],
      lifecycle: 'persistent',
      limits: { memory_mb: 16384 },
      ...manifest,
    }),
  );
  return dir;
}

it('one warm model-agent process plays every game, each accounted with its own calls', async () => {
  const dir = writeWarmAgent(
    'warm-psi',
    {
      base_url: `${model.url}/v1`,
      api_key_env: KEY_VAR,
      timeouts: { turn_seconds: 6, request_seconds: 6 },
      idle_reask_seconds: 0.3,
    },
    {
      id: 'warm-model',
      name: 'Warm model agent',
      // The sandbox lets the agent reach its arena and, from here, the model server only.
      network: { allow: [new URL(model.url).host] },
      secrets: [KEY_VAR],
    },
  );
  const t = engine.tournaments.create(
    {
      name: 'warm model',
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: 4,
      concurrency: 1,
      seed: 'warm-model-1',
      agents: [
        { manifest: path.join(dir, 'agent.yaml'), id: 'model' },
        { manifest: path.join(REPO, 'challenges/psi/agents/honest-exact/agent.yaml'), id: 'honest' },
      ],
      // Generous clocks: the suite runs this beside other files on two cores, and a move clock is what it must not measure.
      limits: { move_seconds: 50, game_seconds: 90 },
    },
    REPO,
  );
  const events: TournamentEvent[] = [];
  engine.tournaments.subscribe(t.id, (e) => events.push(e));
  expect((await engine.tournaments.start(t.id)).status).toBe('finished');
  const games = engine.store.tournaments.games(t.id);
  expect(games.map((g) => `${g.termination} ${g.detail}`)).toEqual(Array(4).fill('completed game ended'));
  const ended = events.filter((e) => e.event === 'game_ended');
  const last = ended.at(-1);
  // One process for the model agent (and one for the warm baseline) across all four games, no restart.
  expect(last && 'lifecycles' in last ? last.lifecycles : null).toEqual([
    { agent: 'model', lifecycle: 'persistent', processes: 1, restarts: 0, retired: null },
    { agent: 'honest', lifecycle: 'persistent', processes: 1, restarts: 0, retired: null },
  ]);
  for (const g of games) {
    const seat = g.seats.indexOf(0);
    // Each game's usage is that game's calls: at least the guess, never the running total of the process.
    const usage = g.usage?.[seat] as { calls: number; prompt_tokens: number } | null | undefined;
    expect(usage?.calls).toBeGreaterThanOrEqual(1);
    expect(usage?.calls).toBeLessThanOrEqual(10);
    expect(g.usage?.[1 - seat]).toBeNull();
  }
  const calls = games.reduce((n, g) => n + ((g.usage?.[g.seats.indexOf(0)] as { calls?: number } | null)?.calls ?? 0), 0);
  expect(calls).toBe(model.requests.length);
  expect(new Set(model.requests.map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${KEY}`]));
}, 150_000);

it('a call still in flight when its game ends is recorded with that game, as asked and unanswered', async () => {
  // The first call guesses; every later one is held until its game has ended and been stored, so each game ends with
  // a call in flight. Before, such a call ended with no seat held and was dropped: the server saw more than the record.
  let gameOver = (): void => {};
  let stored = new Promise<void>((resolve) => (gameOver = resolve));
  const slow = await startFakeModelServer((request) => {
    const text = lastUserText(request);
    const first = /Your private set is: \{(\d+)/.exec(text)?.[1];
    if (first && !text.includes('action guess')) return openAiReply(JSON.stringify({ method: 'guess', content: first }), 120, 12);
    return { ...openAiReply('{"wait": true}', 50, 5), hold: stored };
  });
  try {
    const dir = writeWarmAgent(
      'warm-psi-held',
      { base_url: `${slow.url}/v1`, timeouts: { turn_seconds: 120, request_seconds: 120 }, capacity: 2, idle_reask_seconds: 0.2 },
      { id: 'warm-held', name: 'Warm model agent (held answers)' },
    );
    const t = engine.tournaments.create(
      {
        name: 'warm model, calls in flight at the end',
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: 2,
        concurrency: 1,
        seed: 'warm-model-held',
        agents: [
          { manifest: path.join(dir, 'agent.yaml'), id: 'model' },
          { manifest: path.join(REPO, 'challenges/psi/agents/honest-exact/agent.yaml'), id: 'honest' },
        ],
        limits: { move_seconds: 50, game_seconds: 90 },
      },
      REPO,
    );
    engine.tournaments.subscribe(t.id, (e) => {
      if (e.event !== 'game_ended') return;
      // Stored: let the held answers go, and hold the next game's.
      const release = gameOver;
      stored = new Promise<void>((resolve) => (gameOver = resolve));
      release();
    });
    expect((await engine.tournaments.start(t.id)).status).toBe('finished');
    gameOver();
    const games = engine.store.tournaments.games(t.id);
    expect(games.map((g) => g.termination)).toEqual(['completed', 'completed']);
    // A call caught in flight still carries the capacity it was scheduled against: the figures keep the server's 2.
    expect(engine.tournaments.modelServers(t.id).servers).toEqual([
      expect.objectContaining({ server: new URL(slow.url).host, capacity: 2, calls: slow.requests.length }),
    ]);
    const rows = engine.store.modelCalls.ofRun(t.id);
    // Every request the server got is in the record, each under the game it was asked in.
    expect(rows.reduce((n, r) => n + r.calls.length, 0)).toBe(slow.requests.length);
    for (const g of games) {
      const row = rows.find((r) => r.gameIndex === g.gameIndex);
      const last = row?.calls.at(-1);
      expect(row?.calls.map((c) => c.seq)).toEqual(row?.calls.map((_, i) => i));
      expect(last).toMatchObject({ unanswered_at_end: true, status: null, response: null });
      expect((last?.request as { messages?: unknown[] } | undefined)?.messages?.length).toBeGreaterThan(0);
      // The answered ones carry no such mark.
      expect(row?.calls.slice(0, -1).every((c) => c.unanswered_at_end === undefined && c.status === 200)).toBe(true);
    }
  } finally {
    gameOver();
    await slow.close();
  }
}, 150_000);
