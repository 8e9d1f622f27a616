// format: adaptive at a real three-seat table (issue 46): Dining Cryptographers diners of known strength (test
// fixtures, real sandboxed processes) — perfect (right every game) > unknown (never commits) > two wrong diners
// (wrong every game, level with each other). With focus top_k 2 the run must stop with top_k_decided on
// perfect, unknown at the top, every game a table of three distinct diners, every set rotating the seats, the two
// wrong diners left undecided, and the API summary, report.json and report.md saying the same.
import path from 'node:path';
import { expect, it } from 'vitest';
import { scaled } from '../../support/slowness.js';
import { engineForFile, play, ROOT } from './helpers.js';

const ctx = engineForFile();
const DINERS = path.join(ROOT, 'test/fixtures/agents/diners');
const diner = (strategy: string, id: string) => ({ manifest: path.join(DINERS, `${strategy}.yaml`), id });

const api = async <T>(route: string): Promise<T> => {
  const res = await fetch(`${ctx.engine.url}/admin/api/v1${route}`, { headers: { authorization: `Bearer ${ctx.engine.token}` } });
  expect(res.status, route).toBe(200);
  return (res.headers.get('content-type') ?? '').includes('json') ? ((await res.json()) as T) : ((await res.text()) as T);
};

type Pair = { place: number; upper: string; lower: string; in_focus: boolean; decided: boolean; units: number };
type Summary = { stop_reason: string; ranking: string[]; pairs: Pair[]; budget: { games: number; games_done: number } };

it(
  'stops with top_k_decided on the known top two, rotating every seat at tables of three',
  async () => {
    const run = await play(ctx.engine, {
      name: 'adaptive diners',
      challenge: 'dining-cryptographers',
      format: { kind: 'adaptive', confidence: 0.8, focus: { top_k: 2 } },
      budget: { games: 90 },
      games_per_pairing: 3,
      concurrency: 3,
      seed: 'adaptive-diners',
      // Definition order puts the strongest last, so nothing is found by listing order.
      agents: [diner('wrong', 'wrong-a'), diner('unknown', 'unknown'), diner('wrong', 'wrong-b'), diner('perfect', 'perfect')],
      limits: { move_seconds: 20, game_seconds: 60 },
    });
    expect(run.outcome.status).toBe('finished');
    const games = run.games;
    // Every game completed (no fault blamed on anyone), so the known strengths decide the placements.
    expect(games.map((g) => g.termination).filter((t) => t !== 'completed')).toEqual([]);

    const summary = (await api<{ adaptive: Summary }>(`/tournaments/${run.id}`)).adaptive;
    expect(summary.stop_reason).toBe('top_k_decided');
    expect(summary.ranking.slice(0, 2)).toEqual(['perfect', 'unknown']);
    expect(summary.ranking.slice(2).sort()).toEqual(['wrong-a', 'wrong-b']);
    const byPlace = new Map(summary.pairs.map((p) => [p.place, p]));
    expect(byPlace.get(1)).toMatchObject({ upper: 'perfect', lower: 'unknown', in_focus: true, decided: true });
    expect(byPlace.get(2)).toMatchObject({ upper: 'unknown', in_focus: true, decided: true });
    // Two diners who always tie cannot be ordered; outside the focus they were not chased.
    expect(byPlace.get(3)).toMatchObject({ in_focus: false, decided: false });
    expect(summary.budget).toMatchObject({ games: 90, games_done: games.length });
    expect(games.length).toBeLessThan(90);

    // Tables of three distinct diners in sets of three games on one opening, each diner in each seat once per set.
    expect(games.length % 3).toBe(0);
    for (let i = 0; i < games.length; i += 3) {
      const set = games.slice(i, i + 3);
      expect(new Set(set.map((g) => g.seed)).size).toBe(1);
      expect(new Set(set[0]?.seats).size).toBe(3);
      for (let seat = 0; seat < 3; seat++) expect(new Set(set.map((g) => g.seats[seat])).size).toBe(3);
    }

    const report = await api<{ ratings: { format: Summary } }>(`/tournaments/${run.id}/exports/report.json`);
    expect(report.ratings.format).toMatchObject({
      stop_reason: 'top_k_decided',
      ranking: summary.ranking,
      budget: { games: 90, games_done: games.length },
    });
    const md = await api<string>(`/tournaments/${run.id}/exports/report.md`);
    expect(md).toContain('- Stop: top_k_decided (the top k are ordered and separated from the rest)');
    expect(md).toContain(`- Budget used: ${games.length} of 90 games`);
    expect(md).toContain('| 1 | perfect | unknown |');
  },
  scaled(600_000),
);
