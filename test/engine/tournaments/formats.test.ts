// The executor's use of the schedulers: every format plays the games the core plans, seat swaps share a seed, the
// same definition and seed give the same schedule, void games are replayed and never rated, GSPRT stops early.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTournamentSpec, scheduleGames, staticScheduleConfig } from '../../../engine/core/tournament/index.js';
import { engineForFile, lowerIndexWins, manyAgents, play, scripted, spec } from './helpers.js';

const ctx = engineForFile((e) => {
  e.tournaments.overrides.runners = scripted(lowerIndexWins);
});

const keyOf = (g: { challenge: string; round: number; pairingIndex: number; opening: number; seats: number[] }) =>
  `${g.challenge}:r${g.round}:p${g.pairingIndex}:o${g.opening}:s${g.seats.join('-')}`;

describe('formats', () => {
  it('round-robin plays exactly the core schedule, seat-swapped pairs on one seed', async () => {
    const raw = spec({ agents: manyAgents(4), games_per_pairing: 2 });
    const r = await play(ctx.engine, raw);
    expect(r.outcome).toEqual({ status: 'finished', stopReason: 'complete' });
    const parsed = parseTournamentSpec(raw);
    if (!parsed.ok) throw new Error('bad spec');
    const planned = [...scheduleGames(staticScheduleConfig(parsed.spec, () => 2))];
    expect(r.games.map((g) => g.gameKey).sort()).toEqual(planned.map(keyOf).sort());
    expect(r.games).toHaveLength(12);
    for (const g of r.games.filter((x) => x.swapOf !== null)) {
      const first = r.games.find((x) => x.gameIndex === g.swapOf);
      expect(first?.seed).toBe(g.seed);
      expect(first?.seats).toEqual([...g.seats].reverse());
    }
    // Each pairing: both agents sat in both seats.
    const seatCount = new Map<string, number>();
    for (const g of r.games) seatCount.set(`${g.seats[0]}@0`, (seatCount.get(`${g.seats[0]}@0`) ?? 0) + 1);
    for (const a of [0, 1, 2, 3]) expect(seatCount.get(`${a}@0`)).toBe(3);
  });

  it('gauntlet: only the challenger meets the field', async () => {
    const r = await play(ctx.engine, spec({ agents: manyAgents(4), format: { kind: 'gauntlet', challengers: 1 } }));
    expect(r.games).toHaveLength(6);
    for (const g of r.games) expect(g.seats).toContain(0);
  });

  it('swiss: rounds × floor(N/2) meetings, no rematch, a leader with full points', async () => {
    const r = await play(ctx.engine, spec({ agents: manyAgents(6), format: { kind: 'swiss', rounds: 3 } }));
    expect(r.outcome.status).toBe('finished');
    expect(r.games).toHaveLength(3 * 3 * 2);
    const meetings = new Set<string>();
    for (const g of r.games.filter((x) => x.swapOf === null)) {
      const key = [...g.seats].sort().join('-');
      expect(meetings.has(key)).toBe(false);
      meetings.add(key);
    }
    // Agent 0 wins every game: 6 points after 3 rounds.
    const points = r.games.filter((g) => g.seats.includes(0)).length;
    expect(points).toBe(6);
  });

  it('knockout: the bracket ends with the best seed as champion; ties go to tie-break pairs', async () => {
    const r = await play(ctx.engine, spec({ agents: manyAgents(4), format: { kind: 'knockout', third_place: true } }));
    expect(r.outcome.status).toBe('finished');
    // 2 semis + final + third place, one pair each.
    expect(r.games).toHaveLength(8);
    const final = r.games.filter((g) => g.round === 2);
    expect(final.some((g) => g.seats.includes(0))).toBe(true);
    const report = JSON.parse(fs.readFileSync(`${ctx.dir}/reports/${r.id}/report.json`, 'utf8'));
    const meetings = report.ratings.format.meetings as Array<{ round: number; winner: number; third_place: boolean }>;
    expect(meetings.find((m) => m.round === 2 && !m.third_place)?.winner).toBe(0);

    ctx.engine.tournaments.overrides.runners = scripted((g) => ({ placements: g.seats.map(() => 1) }));
    try {
      const tied = await play(ctx.engine, spec({ agents: manyAgents(2), format: { kind: 'knockout', tie_break_pairs: 2 } }));
      // Regular pair + 2 tie-break pairs, then the higher seed advances.
      expect(tied.games).toHaveLength(6);
      expect(new Set(tied.games.map((g) => g.seed)).size).toBe(3);
    } finally {
      ctx.engine.tournaments.overrides.runners = scripted(lowerIndexWins);
    }
  });

  it('swiss with an odd field gives each bye once; knockout gives the top seed the bye', async () => {
    const swiss = await play(ctx.engine, spec({ agents: manyAgents(5), format: { kind: 'swiss', rounds: 3 } }));
    expect(swiss.games).toHaveLength(3 * 2 * 2);
    const report = JSON.parse(fs.readFileSync(`${ctx.dir}/reports/${swiss.id}/report.json`, 'utf8'));
    const byes = (report.ratings.format.history as Array<{ bye?: number }>).filter((h) => h.bye !== undefined).map((h) => h.bye);
    expect(byes).toHaveLength(3);
    expect(new Set(byes).size).toBe(3);

    const ko = await play(ctx.engine, spec({ agents: manyAgents(3), format: { kind: 'knockout' } }));
    // Round 1: a1 vs a2 (a0 has the bye); final a0 vs a1.
    expect(ko.games.map((g) => [g.round, [...g.seats].sort().join('-')])).toEqual([
      [1, '1-2'],
      [1, '1-2'],
      [2, '0-1'],
      [2, '0-1'],
    ]);
  });

  it('same definition and seed give the same schedule; another seed gives other openings', async () => {
    const a = await play(ctx.engine, spec({ agents: manyAgents(3), seed: 'same' }));
    const b = await play(ctx.engine, spec({ agents: manyAgents(3), seed: 'same' }));
    const c = await play(ctx.engine, spec({ agents: manyAgents(3), seed: 'other' }));
    const view = (games: typeof a.games) => games.map((g) => [g.gameIndex, g.gameKey, g.seed]).sort();
    expect(view(a.games)).toEqual(view(b.games));
    expect(c.games.map((g) => g.seed).sort()).not.toEqual(a.games.map((g) => g.seed).sort());
  });
});

describe('faults and stopping rules', () => {
  it('a harness fault is void, replayed on the same opening and seats, and never rated', async () => {
    let failures = 0;
    ctx.engine.tournaments.overrides.runners = scripted((g) => {
      if (g.gameIndex === 1 && failures < 1) {
        failures++;
        return { termination: 'harness_error' };
      }
      return lowerIndexWins(g);
    });
    try {
      const r = await play(ctx.engine, spec());
      expect(r.games).toHaveLength(3);
      const attempts = r.games.filter((g) => g.gameIndex === 1);
      expect(attempts.map((g) => [g.attempt, g.termination, g.fault])).toEqual([
        [1, 'harness_error', 'harness'],
        [2, 'completed', 'none'],
      ]);
      expect(attempts[0]?.seed).toBe(attempts[1]?.seed);
      // Both games settled; the voided first attempt is not counted.
      expect(ctx.engine.tournaments.summary(r.id).games_done).toBe(2);
      expect(attempts[0]?.seats).toEqual(attempts[1]?.seats);
      const { stats } = ctx.engine.tournaments.statistics(r.id);
      expect(stats.ratings.voidedGames).toBe(0);
      const row = stats.standings.combined.find((s) => s.agent === 'bluffer');
      expect(row?.games).toBe(2);
    } finally {
      ctx.engine.tournaments.overrides.runners = scripted(lowerIndexWins);
    }
  });

  it('a game voided on every replay is left out of the statistics', async () => {
    ctx.engine.tournaments.overrides.runners = scripted((g) => (g.gameIndex === 0 ? { termination: 'harness_error' } : lowerIndexWins(g)));
    try {
      const r = await play(ctx.engine, spec());
      expect(r.games.filter((g) => g.gameIndex === 0)).toHaveLength(3);
      // The summary counts settled games in SQLite: both games, one of them void after its last replay, once each.
      expect(ctx.engine.tournaments.summary(r.id).games_done).toBe(2);
      const { stats } = ctx.engine.tournaments.statistics(r.id);
      // The whole pair drops out: game 1 waits for a partner that never counts.
      expect(stats.ratings.incompleteUnits).toHaveLength(1);
      expect(stats.standings.combined.every((s) => s.games === 0)).toBe(true);
    } finally {
      ctx.engine.tournaments.overrides.runners = scripted(lowerIndexWins);
    }
  });

  it('GSPRT stops early once a bound is crossed and reports the LLR', async () => {
    const r = await play(
      ctx.engine,
      spec({
        format: { kind: 'round-robin', cycles: 500 },
        concurrency: 1,
        stop: { kind: 'sprt', elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05 },
      }),
    );
    expect(r.outcome).toEqual({ status: 'finished', stopReason: 'sprt_accept_h1' });
    expect(r.games.length).toBeLessThan(1000);
    const last = r.events.filter((e) => e.event === 'game_ended').at(-1);
    expect(last?.event === 'game_ended' && last.sprt && last.sprt.llr >= last.sprt.upper).toBe(true);
  });

  it('GSPRT with the BayesElo model decides on seat-swapped pairs and on a sweep (issue 44)', async () => {
    // games_per_pairing 2: pentanomial counts, which used to throw "no pentanomial form" and leave the run paused;
    // and lower index wins every game, a sweep whose BayesElo LLR used to stay 0 forever.
    const r = await play(
      ctx.engine,
      spec({
        format: { kind: 'round-robin', cycles: 500 },
        games_per_pairing: 2,
        concurrency: 1,
        stop: { kind: 'sprt', elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05, model: 'bayeselo' },
      }),
    );
    expect(r.outcome).toEqual({ status: 'finished', stopReason: 'sprt_accept_h1' });
    expect(r.games.length).toBeLessThan(1000);
    expect(r.games.length % 2).toBe(0);
  });

  it('a fixed run plays every planned game', async () => {
    const r = await play(ctx.engine, spec({ format: { kind: 'round-robin', cycles: 3 } }));
    expect(r.games).toHaveLength(6);
  });
});

describe('pause, resume and cancel', () => {
  it('pause then resume completes the run with no game lost or played twice', async () => {
    const t = ctx.engine.tournaments.create(spec({ agents: manyAgents(4), games_per_pairing: 4, concurrency: 2 }), '/');
    let ended = 0;
    ctx.engine.tournaments.subscribe(t.id, (e) => {
      if (e.event === 'game_ended' && ++ended === 5) ctx.engine.tournaments.pause(t.id);
    });
    const first = await ctx.engine.tournaments.start(t.id);
    expect(first.status).toBe('paused');
    const partial = ctx.engine.store.tournaments.games(t.id).length;
    expect(partial).toBeGreaterThanOrEqual(5);
    expect(partial).toBeLessThan(24);
    expect(ctx.engine.store.tournaments.get(t.id)?.status).toBe('paused');
    const second = await ctx.engine.tournaments.start(t.id);
    expect(second.status).toBe('finished');
    const keys = ctx.engine.store.tournaments.games(t.id).map((g) => g.gameKey);
    expect(keys).toHaveLength(24);
    expect(new Set(keys).size).toBe(24);
  });

  it('the summary reports a pause as pending until the run stops, and inactive as soon as its outcome is recorded', async () => {
    const t = ctx.engine.tournaments.create(spec({ agents: manyAgents(4), games_per_pairing: 4, concurrency: 2 }), '/');
    const seen: Array<{ event: string; status: string; active: boolean; stopping: string | undefined }> = [];
    // Set inside the listener, which the type checker cannot follow.
    let resumed = null as Promise<{ status: string }> | null;
    ctx.engine.tournaments.subscribe(t.id, (e) => {
      if (e.event === 'game_ended' && e.games_done === 3) {
        ctx.engine.tournaments.pause(t.id);
        const s = ctx.engine.tournaments.summary(t.id);
        seen.push({ event: 'pause accepted', status: s.status, active: s.active, stopping: s.stopping });
      }
      if (e.event === 'paused') {
        // Read on the event itself, while the run's agents may still be shutting down: no longer playing, and a
        // second pause is refused with the reason.
        const s = ctx.engine.tournaments.summary(t.id);
        seen.push({ event: 'paused', status: s.status, active: s.active, stopping: s.stopping });
        expect(() => ctx.engine.tournaments.pause(t.id)).toThrow(/is not running/);
        // A resume asked for now waits for the old run to let go, then plays the rest.
        resumed = ctx.engine.tournaments.start(t.id);
      }
    });
    expect((await ctx.engine.tournaments.start(t.id)).status).toBe('paused');
    expect(seen).toEqual([
      { event: 'pause accepted', status: 'running', active: true, stopping: 'pausing' },
      { event: 'paused', status: 'paused', active: false, stopping: undefined },
    ]);
    expect(resumed).not.toBeNull();
    expect((await resumed)?.status).toBe('finished');
    const keys = ctx.engine.store.tournaments.games(t.id).map((g) => g.gameKey);
    expect(keys).toHaveLength(24);
    expect(new Set(keys).size).toBe(24);
  });

  it('cancel stops the run and it cannot be restarted', async () => {
    const t = ctx.engine.tournaments.create(spec({ agents: manyAgents(4), games_per_pairing: 4 }), '/');
    ctx.engine.tournaments.subscribe(t.id, (e) => {
      if (e.event === 'game_ended' && e.games_done === 3) ctx.engine.tournaments.cancel(t.id);
    });
    expect((await ctx.engine.tournaments.start(t.id)).status).toBe('cancelled');
    expect(() => ctx.engine.tournaments.start(t.id)).toThrow(/cancelled/);
  });
});
