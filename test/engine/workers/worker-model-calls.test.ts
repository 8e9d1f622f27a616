// A model agent's calls on a game worker reach the coordinator's record: a warm (persistent) model agent plays PSI on
// an `arena worker` against honest-exact through a scripted model server on 127.0.0.1, and the coordinator stores
// every call the server answered, each under its game, inside the signed record. Before, a worker's result carried
// only the usage lines: a run played on workers had no call record (no replay, no model-server figures).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type FakeModelServer, lastUserText, openAiReply, startFakeModelServer } from '../../model-agent/fake-model-server.js';
import { ROOT, tempDir } from '../tournaments/helpers.js';
import {
  type CliProcess,
  ensureBuilt,
  gameRows,
  hasRedis,
  PSI_AGENTS,
  spawnCoordinator,
  startRedis,
  startWorker,
  type TestRedis,
  tournamentIdOf,
  trustedFileOf,
} from './harness.js';

const redisMissing = !hasRedis();

describe.skipIf(redisMissing)('model calls from a game worker', () => {
  let dir: string;
  let redis: TestRedis;
  let model: FakeModelServer;
  const processes: CliProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir('arena-worker-model-');
    redis = await startRedis(dir);
    // Guesses one number of its set once it has seen it (never larger than the opponent's set), then waits.
    model = await startFakeModelServer((request) => {
      const text = lastUserText(request);
      const first = /Your private set is: \{(\d+)/.exec(text)?.[1];
      if (!first || text.includes('action guess')) return openAiReply('{"wait": true}', 50, 5);
      return openAiReply(JSON.stringify({ method: 'guess', content: first }), 120, 12);
    });
  }, 250_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await model?.close();
    await redis?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores every call the server answered, under its game, with the worker’s signed record', async () => {
    const agents = path.join(dir, 'agents');
    const agentDir = path.join(agents, 'worker-model');
    fs.mkdirSync(agentDir, { recursive: true });
    fs.writeFileSync(
      path.join(agentDir, 'model.yaml'),
      YAML.stringify({
        provider: 'openai-compatible',
        base_url: `${model.url}/v1`,
        model: 'fake-model',
        idle_reask_seconds: 0.2,
        max_turns: 10,
        game_seconds: 60,
      }),
    );
    fs.writeFileSync(
      path.join(agentDir, 'agent.yaml'),
      YAML.stringify({
        id: 'worker-model',
        name: 'Model agent on a worker',
        framework: 'node',
        entrypoint: { command: ['node', path.join(ROOT, 'agents/model-agent/arena-model-agent.mjs'), '--config', 'model.yaml'] },
        protocol: 'specarena',
        challenges: ['psi'],
        lifecycle: 'persistent',
        limits: { memory_mb: 16384 },
      }),
    );
    const worker = await startWorker(redis.url, path.join(dir, 'w1'), 'w1', ['--agents-root', PSI_AGENTS, '--agents-root', agents]);
    processes.push(worker);
    const spec = path.join(dir, 'model.tournament.yaml');
    fs.writeFileSync(
      spec,
      YAML.stringify({
        name: 'model on a worker',
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: 4,
        concurrency: 2,
        seed: 'worker-model-calls',
        agents: [
          { manifest: path.join(agentDir, 'agent.yaml'), id: 'worker-model' },
          { manifest: path.join(PSI_AGENTS, 'honest-exact', 'agent.yaml'), id: 'honest-exact' },
        ],
        limits: { move_seconds: 30, game_seconds: 60 },
      }),
    );
    const data = path.join(dir, 'coordinator');
    const run = spawnCoordinator([spec, '--data-dir', data], redis.url, trustedFileOf(path.join(dir, 'w1')));
    processes.push(run);
    expect(await run.exited, run.stderr()).toBe(0);
    const id = tournamentIdOf(run);
    const rows = gameRows(data, id);
    expect(rows.map((r) => `${r.termination} ${r.worker_id}`)).toEqual(Array(4).fill('completed w1'));
    const db = new Database(path.join(data, 'arena.sqlite'), { readonly: true });
    try {
      const stored = db.prepare('SELECT game_index, seat, calls FROM tournament_model_calls WHERE tournament_id = ?').all(id) as Array<{
        game_index: number;
        seat: number;
        calls: string;
      }>;
      const calls = stored.flatMap((r) => JSON.parse(r.calls) as Array<{ status: number | null; request: { messages?: unknown[] } }>);
      // Every request the server saw, each game with its own: the model agent's seat only.
      expect(calls).toHaveLength(model.requests.length);
      expect(new Set(stored.map((r) => r.game_index))).toEqual(new Set([0, 1, 2, 3]));
      expect(calls.every((c) => (c.request.messages?.length ?? 0) > 0)).toBe(true);
      // Signed by the worker as before: the calls are part of the record its signature covers.
      const signed = db
        .prepare('SELECT COUNT(*) AS n FROM tournament_games WHERE tournament_id = ? AND worker_signature IS NOT NULL')
        .get(id) as { n: number };
      expect(signed.n).toBe(4);
    } finally {
      db.close();
    }
    const report = JSON.parse(fs.readFileSync(path.join(data, 'reports', id, 'report.json'), 'utf8'));
    expect(report.model_servers).toEqual([expect.objectContaining({ server: new URL(model.url).host, calls: model.requests.length })]);
  }, 300_000);
});
