// The live view's data layer against a real engine playing real PSI games: the typed API module (through the
// renderer's one client) and the SSE feed, including a dropped connection that the reader must recover from.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArenaClient } from '../../renderer/src/arena-client/client.js';
import { ApiError } from '../../renderer/src/arena-client/errors.js';
import type { LiveStatus } from '../../renderer/src/arena-client/live.js';
import { type FeedMessage, openTournamentFeed } from '../../renderer/src/features/tournaments/tournament-feed.js';
import { type TournamentsApi, tournamentsApi } from '../../renderer/src/features/tournaments/tournaments-api.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

let server: TestServer;
let api: TournamentsApi;

/** What the builder submits: catalog agents by absolute manifest path, ids from their manifests. */
const spec = {
  name: 'feed test',
  challenge: 'psi',
  format: { kind: 'round-robin', cycles: 1 },
  games_per_pairing: 1,
  concurrency: 1,
  seed: 7,
  agents: ['honest-exact', 'greedy-overclaim', 'cautious-minimal'].map((id) => ({
    manifest: path.join(ROOT, 'challenges/psi/agents', id, 'agent.yaml'),
    id,
    lifecycle: 'per-game',
  })),
  stop: { kind: 'fixed' },
  limits: { move_seconds: 10, game_seconds: 30 },
};

function until<T>(check: () => T | undefined, ms = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > ms) reject(new Error('timed out'));
      else setTimeout(tick, 25);
    };
    tick();
  });
}

beforeAll(async () => {
  server = await startTestServer();
  api = tournamentsApi(createArenaClient({ baseUrl: server.url, token: server.token }));
});

afterAll(async () => {
  await server?.close();
});

describe('tournament API module and live feed against a real engine', () => {
  it('reads the builder catalog, validates with the planned count and says 404 for an unknown id', async () => {
    const catalog = await api.catalog();
    expect(catalog.challenges.find((c) => c.id === 'psi')?.players).toEqual({ min: 2, max: 2 });
    expect(catalog.formats).toEqual(['round-robin', 'gauntlet', 'swiss', 'knockout', 'adaptive']);
    const agents = await api.agents();
    const baseline = agents.agents.find((a) => a.manifest_path === spec.agents[0]?.manifest);
    expect(baseline).toMatchObject({ ok: true, id: 'honest-exact', challenges: ['psi'] });
    expect(await api.validate(spec, catalog.base_dir)).toMatchObject({ planned_games: 3, planned_exact: true });
    const invalid = await api.validate({ ...spec, concurrency: 0 }, catalog.base_dir).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect((invalid as ApiError).status).toBe(400);
    expect((invalid as ApiError).message).toContain('concurrency: concurrency must be at least 1');
    const missing = await api.summary('t-nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
  });

  it('follows a run over the feed, recovers from a dropped connection, and reads every section', async () => {
    // Created and started in one call, as the builder's Start does; paused at once (the game already starting plays
    // on), so that however fast games are, the run is still going when the dropped feed has reconnected.
    const created = await api.create(spec, undefined);
    await api.act(created.id, 'pause');
    const messages: FeedMessage[] = [];
    const statuses: LiveStatus[] = [];
    const feed = openTournamentFeed({
      baseUrl: server.url,
      token: server.token,
      path: api.eventsPath(created.id),
      onMessage: (m) => messages.push(m),
      onStatus: (s) => statuses.push(s),
    });
    try {
      const first = await until(() => messages.find((m) => m.event === 'snapshot'));
      expect(first.event === 'snapshot' && first.summary.id).toBe(created.id);

      // The engine drops every connection (sleep, proxy): the reader reconnects and gets a fresh snapshot.
      server.engine.http.server.closeAllConnections();
      await until(() => (statuses.includes('reconnecting') ? true : undefined));
      await until(() => (messages.filter((m) => m.event === 'snapshot').length >= 2 ? true : undefined));
      expect(statuses.at(-1)).toBe('open');
      await api.act(created.id, 'resume');

      const finished = await until(() => messages.find((m) => m.event === 'finished'), 90_000);
      expect(finished).toMatchObject({ event: 'finished', games_done: 3 });
      const ended = messages.filter((m) => m.event === 'game_ended');
      // Each game ends once on the feed (a drop may cost events that happened while reconnecting, never duplicate them).
      const indices = ended.map((m) => (m.event === 'game_ended' ? m.game_index : -1));
      expect(new Set(indices).size).toBe(indices.length);
    } finally {
      feed.close();
    }
    expect(statuses.at(-1)).toBe('closed');

    const summary = await api.summary(created.id);
    expect(summary).toMatchObject({ status: 'finished', games_done: 3, planned_games: 3 });
    const standings = await api.standings(created.id);
    expect(standings.standings.combined.map((r) => r.games)).toEqual([2, 2, 2]);
    const recent = await api.recentGames(created.id, 2);
    expect(recent.map((g) => g.gameIndex)).toEqual([2, 1]);
    expect(await api.running(created.id)).toEqual([]);
    const charts = await api.charts(created.id);
    expect(charts.agents).toHaveLength(3);
    // The builder's "new tournament from this one" reads the definition back as the run manifest holds it: the same,
    // with the absolute manifest paths made relative to the folder it was submitted from (no local path in reports).
    expect(await api.submittedSpec(created.id)).toEqual({
      ...spec,
      agents: spec.agents.map((a) => ({ ...a, manifest: path.relative(process.cwd(), a.manifest).split(path.sep).join('/') })),
    });
    const list = await api.list();
    expect(list.tournaments.map((t) => t.id)).toContain(created.id);
    // A finished run accepts no more controls.
    const again = await api.act(created.id, 'resume').catch((e: unknown) => e);
    expect((again as ApiError).status).toBe(409);
  }, 120_000);
});
