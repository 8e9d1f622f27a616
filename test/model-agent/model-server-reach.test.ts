// A model agent reaches the model server its model.yaml names with no network.allow in its manifest, under the real
// sandbox; the isolation record lists the server like the arena; `network.model_server: false` takes it away again;
// and the engine never sends a server more requests at once than its reported capacity, across every game.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type RunningEngine, startEngine } from '../../engine/app.js';
import { ADMIN_PREFIX } from '../../engine/contract/admin.js';
import { type TournamentModelServersResponse, TournamentModelServersResponseSchema } from '../../engine/contract/model-server-use.js';
import { modelGateStats } from '../../engine/runner/model-gate.js';
import { type CompiledAgent, compileModelAgent } from './compiled-agent.js';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.js';
import { psiGuesser } from './scripted-models.js';

const REPO = path.resolve(import.meta.dirname, '../..');

let compiled: CompiledAgent;
let engine: RunningEngine;
let dataDir: string;
const servers: FakeModelServer[] = [];

/** A per-game model agent folder with no network.allow; `network` is merged into its manifest. */
function modelAgent(id: string, server: FakeModelServer, network?: Record<string, unknown>): string {
  const dir = path.join(compiled.agentHome, 'examples', id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'model.yaml'),
    YAML.stringify({
      provider: 'openai-compatible',
      base_url: `${server.url}/v1`,
      model: 'fake-model',
      timeouts: { turn_seconds: 20, request_seconds: 20 },
      retry: { max_retries: 0 },
      idle_reask_seconds: 0.3,
      max_turns: 8,
      game_seconds: 80,
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'agent.yaml'),
    YAML.stringify({
      id,
      name: id,
      framework: 'node',
      entrypoint: { command: ['node', '../../arena-model-agent.mjs', '--config', 'model.yaml'] },
      protocol: 'specarena',
      challenges: ['psi'],
      limits: { memory_mb: 16384 },
      ...(network ? { network } : {}),
    }),
  );
  return path.join(dir, 'agent.yaml');
}

async function play(
  manifest: string,
  games: number,
  concurrency: number,
  seed: string,
  gameSeconds = 100,
  onGameEnded?: (id: string) => void,
) {
  const t = engine.tournaments.create(
    {
      name: seed,
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: games,
      concurrency,
      seed,
      agents: [
        { manifest, id: 'model' },
        { manifest: path.join(REPO, 'challenges/psi/agents/honest-exact/agent.yaml'), id: 'honest' },
      ],
      // Generous clocks: the suite runs beside other files on two cores, and a move clock is not what it measures.
      limits: { move_seconds: Math.min(60, gameSeconds), game_seconds: gameSeconds },
    },
    REPO,
  );
  const unsubscribe = onGameEnded ? engine.tournaments.subscribe(t.id, (e) => e.event === 'game_ended' && onGameEnded(t.id)) : () => {};
  expect((await engine.tournaments.start(t.id)).status).toBe('finished');
  unsubscribe();
  lastRun = t.id;
  return engine.store.tournaments.games(t.id);
}
let lastRun = '';

async function liveServers(id: string): Promise<TournamentModelServersResponse> {
  const res = await fetch(`${engine.url}${ADMIN_PREFIX}/tournaments/${id}/model-servers`, {
    headers: { authorization: `Bearer ${engine.token}` },
  });
  expect(res.status).toBe(200);
  return TournamentModelServersResponseSchema.parse(await res.json());
}

beforeAll(async () => {
  compiled = compileModelAgent();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-reach-'));
  engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
}, 90_000);

afterAll(async () => {
  await engine?.close();
  for (const s of servers) await s.close();
  compiled?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the model server from model.yaml', () => {
  it('is reachable from the sandbox without network.allow, and listed in the isolation record', async () => {
    const server = await startFakeModelServer(psiGuesser());
    servers.push(server);
    const games = await play(modelAgent('reach-model', server), 2, 1, 'reach-1');
    // A game the harness lost (a busy machine) is played again: the two scheduled games are what must complete.
    const completed = games.filter((g) => g.termination === 'completed');
    expect(completed.map((g) => g.detail)).toEqual(['game ended', 'game ended']);
    const host = new URL(server.url).host;
    for (const g of completed) {
      const seat = g.seats.indexOf(0);
      const isolation = g.isolation?.[seat];
      expect(isolation?.method).toBe('bubblewrap');
      expect(isolation?.network).toBe('endpoints');
      expect(isolation?.endpoints).toContain(host);
      // The baseline's sandbox has its arena only: the model agent's server is its own.
      expect(g.isolation?.[1 - seat]?.endpoints).not.toContain(host);
      const usage = g.usage?.[seat] as { calls: number; fallbacks?: number } | null | undefined;
      expect(usage?.calls).toBeGreaterThanOrEqual(1);
    }
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    // The run manifest records the model agent's server, model and sampler settings.
    const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, 'reports', lastRun, 'manifest.json'), 'utf8'));
    expect(manifest.manifest.agents.find((a: { id: string }) => a.id === 'model').model).toEqual({
      provider: 'openai-compatible',
      base_url: `${server.url}/v1`,
      model: 'fake-model',
      sampler: { temperature: 0, max_tokens: 512, seed: null, json_mode: false },
      capacity: null,
    });
  }, 150_000);

  it('is cut off again by network.model_server: false', async () => {
    const server = await startFakeModelServer(psiGuesser());
    servers.push(server);
    // The agent cannot answer a single move: the game's clock ends it, so it is kept short.
    const games = await play(modelAgent('narrowed-model', server, { model_server: false }), 1, 1, 'reach-2', 15);
    const seat = games[0]?.seats.indexOf(0) ?? 0;
    expect(games[0]?.isolation?.[seat]?.endpoints).not.toContain(new URL(server.url).host);
    expect(server.requests).toHaveLength(0);
  }, 150_000);
});

describe('capacity-aware scheduling', () => {
  it('never sends a server reporting 2 slots more than 2 requests at once while 6 games run', async () => {
    // llama.cpp reports its parallel slots at /props; each answer takes a while so requests overlap.
    const server = await startFakeModelServer(psiGuesser(150), {
      get: { '/props': { total_slots: 2, default_generation_settings: { n_ctx: 4096 } } },
    });
    servers.push(server);
    // The live view's figures, read over HTTP while the run plays (after each game ends).
    const live: Array<Promise<TournamentModelServersResponse>> = [];
    const games = await play(modelAgent('capacity-model', server), 6, 6, 'capacity-1', 100, (id) => live.push(liveServers(id)));
    expect(games.filter((g) => g.termination === 'completed')).toHaveLength(6);
    expect(server.requests.length).toBeGreaterThanOrEqual(6);
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
    const gate = modelGateStats().find((g) => g.server === new URL(server.url).host);
    expect(gate).toMatchObject({ capacity: 2, capacity_source: 'server' });
    expect(gate?.requests).toBe(server.requests.length);
    // The report shows the server's load: every call, at the capacity it was scheduled against, and its queueing.
    const report = JSON.parse(fs.readFileSync(path.join(dataDir, 'reports', lastRun, 'report.json'), 'utf8'));
    const use = report.model_servers.find((s: { server: string }) => s.server === new URL(server.url).host);
    expect(use).toMatchObject({ capacity: 2, calls: server.requests.length });
    expect(use.utilisation).toBeGreaterThan(0);
    expect(use.utilisation).toBeLessThanOrEqual(1);
    expect(use.queued_ms_max).toBeGreaterThanOrEqual(use.queued_ms_mean);
    const markdown = fs.readFileSync(path.join(dataDir, 'reports', lastRun, 'report.md'), 'utf8');
    expect(markdown).toContain('## Model servers');
    expect(markdown).toContain(`| ${use.server} | 2 | ${use.calls} | 0 | ${(use.utilisation * 100).toFixed(1)}% | ${use.queued_ms_mean} |`);

    // The live view shows the report's figures, from the calls recorded with the games: the same numbers once the run
    // is over, and while it ran never more calls than the server got, at its capacity.
    const recorded = engine.store.modelCalls.ofRun(lastRun).flatMap((r) => r.calls);
    expect(recorded).toHaveLength(server.requests.length);
    const final = await liveServers(lastRun);
    expect(final).toEqual({ model_agents: 1, servers: report.model_servers });
    const during = await Promise.all(live);
    expect(during).toHaveLength(6);
    for (const seen of during) {
      expect(seen.model_agents).toBe(1);
      const s = seen.servers.find((x) => x.server === use.server);
      // A game may end before any of its calls is stored (its own calls are committed with it): 0 calls is no server.
      if (!s) continue;
      expect(s.capacity).toBe(2);
      expect(s.calls).toBeLessThanOrEqual(use.calls);
      expect(s.utilisation).toBeGreaterThanOrEqual(0);
      expect(s.utilisation).toBeLessThanOrEqual(1);
      expect(s.queued_ms_max).toBeGreaterThanOrEqual(s.queued_ms_mean);
    }
    expect(during.some((seen) => seen.servers.length > 0)).toBe(true);
  }, 240_000);
});
