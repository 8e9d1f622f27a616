// Warm agents (manifest `lifecycle: persistent`) with real, sandboxed processes: one process plays game after game
// (the agent names its process in each game's chat), a crash or a hang loses only the game in progress and the next
// game gets a fresh process, the restart cap turns the remaining games into forfeits, and a per-game agent plays
// beside a warm one. No process outlives its run (checked on the host by command line).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TournamentEvent } from '../../../engine/contract/tournament.js';
import { engineForFile, FIXTURES, MILLIONAIRE, play, processesWith, procLog, ROOT, spec, warmBot } from './helpers.js';

const ctx = engineForFile();
const procs = (r: { id: string; games: Array<{ seq: number; gameIndex: number; seats: number[] }> }, agent = 0) =>
  procLog(r.games, (seq) => ctx.engine.store.tournaments.transcript(r.id, seq), agent);

const versus = (warm: string, extra: Record<string, unknown> = {}) =>
  spec({
    agents: [
      { manifest: warm, id: 'warm' },
      // The per-game baseline beside the warm one: a fresh process per game.
      { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful', lifecycle: 'per-game' },
    ],
    concurrency: 1,
    ...extra,
  });

/** The warm agent's seat in a game (agent 0). */
const warmSeat = (g: { seats: number[] }) => g.seats.indexOf(0);

describe('warm agents', () => {
  it('one process plays every game; the per-game agent beside it gets a fresh process each game', async () => {
    const bot = warmBot('ok');
    const r = await play(ctx.engine, versus(bot.manifest, { games_per_pairing: 8 }));
    expect(r.outcome.status).toBe('finished');
    expect(r.games.map((g) => `${g.termination} ${g.detail}`)).toEqual(Array(8).fill('completed game ended'));
    const seats = procs(r);
    expect(new Set(seats.map((s) => s?.[0])).size).toBe(1);
    expect(seats.map((s) => s?.[1])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The run is over only once the warm process is gone.
    expect(processesWith(bot.tag)).toEqual([]);
  }, 120_000);

  it('a crash loses only the game in progress; the next game is played by a restarted process', async () => {
    const bot = warmBot('crash');
    // The summary the live view reads carries the lifecycles while the run is on.
    const seen: unknown[] = [];
    const t = ctx.engine.tournaments.create(versus(bot.manifest, { games_per_pairing: 4 }), ROOT);
    const events: TournamentEvent[] = [];
    ctx.engine.tournaments.subscribe(t.id, (e) => {
      events.push(e);
      if (e.event === 'game_ended') seen.push(ctx.engine.tournaments.summary(t.id).agent_lifecycles);
    });
    const outcome = await ctx.engine.tournaments.start(t.id);
    const r = { id: t.id, outcome, events, games: ctx.engine.store.tournaments.games(t.id) };
    expect(r.outcome.status).toBe('finished');
    expect(r.games.map((g) => g.termination)).toEqual(['completed', 'agent_crash', 'completed', 'completed']);
    const crashed = r.games[1] as (typeof r.games)[number];
    expect(crashed.faultedSeats).toEqual([warmSeat(crashed)]);
    expect(crashed.detail).toMatch(/exited with code 3/);
    const seats = procs(r);
    expect(seats.map((s) => s?.[1])).toEqual([1, 2, 1, 2]);
    expect(seats[1]?.[0]).toBe(seats[0]?.[0]);
    expect(seats[2]?.[0]).not.toBe(seats[1]?.[0]);
    expect(seats[3]?.[0]).toBe(seats[2]?.[0]);
    expect(processesWith(bot.tag)).toEqual([]);
    // The live feed and the summary report each agent's lifecycle and restarts.
    const last = r.events.filter((e) => e.event === 'game_ended').at(-1);
    expect(last && 'lifecycles' in last ? last.lifecycles : null).toEqual([
      { agent: 'warm', lifecycle: 'persistent', processes: 2, restarts: 1, retired: null },
      { agent: 'truthful', lifecycle: 'per-game', processes: 0, restarts: 0, retired: null },
    ]);
    expect(seen.at(-1)).toMatchObject([
      { agent: 'warm', restarts: 1 },
      { agent: 'truthful', lifecycle: 'per-game' },
    ]);
    // Finished: the summary still shows the run's figures (kept with the tournament).
    expect(ctx.engine.tournaments.summary(t.id).agent_lifecycles).toEqual(last && 'lifecycles' in last ? last.lifecycles : null);
  }, 120_000);

  it('a hang is cut by the move clock, lost by the warm seat, and the process replaced', async () => {
    const bot = warmBot('hang');
    const r = await play(ctx.engine, versus(bot.manifest, { games_per_pairing: 3, limits: { move_seconds: 8, game_seconds: 40 } }));
    expect(r.outcome.status).toBe('finished');
    expect(r.games.map((g) => g.termination)).toEqual(['completed', 'agent_timeout', 'completed']);
    const hung = r.games[1] as (typeof r.games)[number];
    expect(hung.faultedSeats).toEqual([warmSeat(hung)]);
    expect(hung.detail).toMatch(/no move within 8 s/);
    const seats = procs(r);
    expect(seats.map((s) => s?.[1])).toEqual([1, 2, 1]);
    expect(seats[2]?.[0]).not.toBe(seats[1]?.[0]);
    expect(processesWith(bot.tag)).toEqual([]);
  }, 120_000);

  it('past the restart cap the remaining games are forfeits with the reason', async () => {
    const bot = warmBot('cap');
    const r = await play(ctx.engine, versus(bot.manifest, { games_per_pairing: 6, max_restarts: 1 }));
    expect(r.outcome.status).toBe('finished');
    expect(r.games).toHaveLength(6);
    for (const g of r.games) {
      expect(g.termination).toBe('agent_crash');
      expect(g.faultedSeats).toEqual([warmSeat(g)]);
    }
    expect(r.games.slice(0, 2).every((g) => /exited with code 3/.test(g.detail))).toBe(true);
    for (const g of r.games.slice(2)) expect(g.detail).toMatch(/retired after 1 restart\(s\) \(cap 1/);
    // Two processes played (the first and its one restart); the forfeits started none; none is left.
    const seats = procs(r);
    expect(new Set(seats.slice(0, 2).map((s) => s?.[0])).size).toBe(2);
    expect(seats.slice(2)).toEqual([null, null, null, null]);
    expect(processesWith(bot.tag)).toEqual([]);
  }, 120_000);

  it('restarts count against the cap across a pause and resume, and the stored figures reach summary and report.json', async () => {
    const bot = warmBot('cap');
    const t = ctx.engine.tournaments.create(versus(bot.manifest, { games_per_pairing: 6, max_restarts: 2 }), ROOT);
    const off = ctx.engine.tournaments.subscribe(t.id, (e) => {
      if (e.event === 'game_ended') ctx.engine.tournaments.pause(t.id);
    });
    expect((await ctx.engine.tournaments.start(t.id)).status).toBe('paused');
    off();
    const first = ctx.engine.store.tournaments.games(t.id);
    expect(first.map((g) => g.termination)).toEqual(['agent_crash']);
    // Paused: no executor, yet the live view still shows what the run did.
    expect(ctx.engine.tournaments.summary(t.id).agent_lifecycles).toEqual([
      { agent: 'warm', lifecycle: 'persistent', processes: 1, restarts: 1, retired: null },
      { agent: 'truthful', lifecycle: 'per-game', processes: 0, restarts: 0, retired: null },
    ]);
    // Resumed: one more restart is left of the cap of 2, so the third crash retires the agent.
    expect((await ctx.engine.tournaments.start(t.id)).status).toBe('finished');
    const games = ctx.engine.store.tournaments.games(t.id);
    expect(games).toHaveLength(6);
    // Without the stored count the resumed run would have allowed two more restarts (four crashes in all).
    expect(games.slice(0, 3).every((g) => /^seat \d exited with code 3/.test(g.detail))).toBe(true);
    for (const g of games.slice(3)) expect(g.detail).toMatch(/retired after 2 restart\(s\) \(cap 2/);
    const lifecycles = ctx.engine.tournaments.summary(t.id).agent_lifecycles;
    expect(lifecycles?.[0]).toMatchObject({ agent: 'warm', processes: 3, restarts: 2, retired: expect.stringMatching(/retired/) });
    const report = JSON.parse(fs.readFileSync(path.join(await ctx.engine.tournaments.exportReports(t.id), 'report.json'), 'utf8'));
    expect(report.agent_lifecycles).toEqual(lifecycles);
    expect(processesWith(bot.tag)).toEqual([]);
  }, 120_000);

  it('max_concurrent_games: 2 — one process plays two games at once', async () => {
    const a = warmBot('two-a');
    const b = warmBot('two-b');
    const r = await play(
      ctx.engine,
      spec({
        agents: [
          { manifest: a.manifest, id: 'a' },
          { manifest: b.manifest, id: 'b' },
        ],
        games_per_pairing: 6,
        concurrency: 2,
      }),
    );
    expect(r.games.map((g) => g.termination)).toEqual(Array(6).fill('completed'));
    // Games overlapped, yet each agent used a single process.
    const overlapped = r.games.some((g, i) => r.games.some((h, j) => i !== j && h.startedAt < g.endedAt && g.startedAt < h.endedAt));
    expect(overlapped).toBe(true);
    for (const agent of [0, 1]) expect(new Set(procs(r, agent).map((s) => s?.[0])).size).toBe(1);
  }, 120_000);

  it('the next-seat poll refuses a missing or unknown agent key', async () => {
    const url = `${ctx.engine.url}/api/arena/next-seat?wait=0`;
    expect((await fetch(url)).status).toBe(401);
    const forged = await fetch(url, { headers: { authorization: `Bearer k_${'0'.repeat(48)}` } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ error: expect.stringMatching(/agent key/) });
  });

  it('each game accounts only the usage lines its warm process wrote during that game', async () => {
    const bot = warmBot('usage');
    const r = await play(ctx.engine, versus(bot.manifest, { games_per_pairing: 4 }));
    expect(r.games.map((g) => g.termination)).toEqual(Array(4).fill('completed'));
    expect(new Set(procs(r).map((s) => s?.[0])).size).toBe(1);
    // The process's n-th game reported 100·n prompt tokens: one call per game, never the sum of earlier games.
    const prompt = r.games.map((g) => (g.usage?.[warmSeat(g)] as { prompt_tokens?: number } | null)?.prompt_tokens);
    expect(prompt).toEqual([100, 200, 300, 400]);
    for (const g of r.games) expect(g.usage?.[warmSeat(g)]).toMatchObject({ calls: 1, completion_tokens: 10 });
  }, 120_000);

  it('the Python agent-kit helper: one Python process plays every seat', async () => {
    const tag = 'warm-python-fixture';
    const r = await play(ctx.engine, versus(path.join(FIXTURES, 'warm-python/agent.yaml'), { games_per_pairing: 4 }));
    expect(r.games.map((g) => `${g.termination} ${g.detail}`)).toEqual(Array(4).fill('completed game ended'));
    const seats = procs(r);
    expect(seats.map((s) => s?.[1])).toEqual([1, 2, 3, 4]);
    expect(new Set(seats.map((s) => s?.[0])).size).toBe(1);
    expect(processesWith(tag)).toEqual([]);
  }, 120_000);
});
