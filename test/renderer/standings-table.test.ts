// The live view's standings table, rendered server-side: model-spend columns appear only when an agent made model
// calls, and cost per rating point reads as a dollar figure or as "–" when it is undefined.
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { StandingRow } from '../../engine/contract/tournament.js';

// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const STANDINGS_TABLE = '../../renderer/src/features/tournaments/standings-table.js';
const { StandingsTable } = (await import(STANDINGS_TABLE)) as { StandingsTable: FunctionComponent<{ rows: StandingRow[] }> };

const row = (agent: string, rank: number, over: Partial<StandingRow> = {}): StandingRow => ({
  rank,
  rank_range: [rank, rank],
  agent,
  agent_name: `Agent ${agent}`,
  games: 4,
  wins: 2,
  draws: 0,
  losses: 2,
  points: 2,
  score_pct: 50,
  rating: 1000,
  rating_lower: 950,
  rating_upper: 1050,
  rating_interval: '1000 [950, 1050]',
  security: null,
  utility: null,
  ...over,
});

describe('StandingsTable', () => {
  it('leaves the spend columns out for scripted agents', () => {
    const html = renderToStaticMarkup(createElement(StandingsTable, { rows: [row('a', 1), row('b', 2)] }));
    expect(html).toContain('data-agent="a"');
    expect(html).not.toContain('Cost / rating point');
  });

  it('shows tokens, cost and cost per rating point when a model agent played', () => {
    const rows = [
      row('model', 1, { rating: 1100, tokens: 12_345, cost_usd: 0.42, cost_per_game_usd: 0.105, cost_per_rating_point: 0.0012 }),
      row('baseline', 2, { rating: 1000, tokens: null, cost_usd: null, cost_per_game_usd: null, cost_per_rating_point: null }),
    ];
    const html = renderToStaticMarkup(createElement(StandingsTable, { rows }));
    expect(html).toContain('Cost / rating point');
    expect(html).toContain('$0.42');
    expect(html).toContain('$0.0012');
    const cells = [...html.matchAll(/data-testid="cost-per-rating-point">([^<]*)</g)].map((m) => m[1]);
    expect(cells).toEqual(['$0.0012', '–']);
  });

  it('prints an open bound as the engine words it and fades that side of the bar', () => {
    const rows = [
      row('unbeaten', 1, { rating: 1150, rating_lower: 1010, rating_upper: null, rating_interval: '1150 [> 1010]' }),
      row('winless', 1, { rating: 850, rating_lower: null, rating_upper: 990, rating_interval: '850 [< 990]' }),
    ];
    const html = renderToStaticMarkup(createElement(StandingsTable, { rows }));
    expect(html).toContain('[&gt; 1010]');
    expect(html).toContain('[&lt; 990]');
    expect(html).toContain('t-interval-bar open-high');
    expect(html).toContain('t-interval-bar open-low');
    expect(html).not.toMatch(/Infinity|NaN/);
  });

  it('prints rank ranges as report.md does, "–" before a rated game, and the legend', () => {
    const rows = [
      row('a', 1, { rank_range: [1, 2] }),
      row('b', 1, { rank_range: [1, 2] }),
      row('c', 3, { rank_range: [3, 3] }),
      row('new', 0, { rank_range: [0, 0], games: 0, rating: null, rating_interval: null }),
    ];
    const html = renderToStaticMarkup(createElement(StandingsTable, { rows }));
    const ranks = [...html.matchAll(/data-testid="standing-rank"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(ranks).toEqual(['1 (1–2)', '1 (1–2)', '3', '–']);
    expect(html).toContain('data-testid="rank-legend"');
    expect(html).toContain('joint posterior');
  });
});
