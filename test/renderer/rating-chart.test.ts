// The live view's rating chart, rendered server-side: it says something for a 2-game run (one refit), for an agent
// that starts late (one point), and for agents whose ratings coincide (each line its own dash, the legend says so).
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TournamentChartsResponse } from '../../engine/contract/tournament.js';

// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const RATING_CHART = '../../renderer/src/features/tournaments/rating-chart.js';
const { RatingChart } = (await import(RATING_CHART)) as { RatingChart: FunctionComponent<{ charts: TournamentChartsResponse }> };

const render = (agents: string[], rating_history: TournamentChartsResponse['rating_history']) =>
  renderToStaticMarkup(createElement(RatingChart, { charts: { agents, rating_history, pairwise: [] } }));

const pathsOf = (html: string) => [...html.matchAll(/<g data-agent="([^"]+)"><path d="([^"]*)"/g)].map((m) => [m[1], m[2]]);
const dotsOf = (html: string, agent: string) =>
  (new RegExp(`<g data-agent="${agent}">(.*?)</g>`).exec(html)?.[1]?.match(/<circle /g) ?? []).length;

describe('rating chart', () => {
  it('draws a 2-game run (one refit) as one dot per agent instead of saying nothing', () => {
    const html = render(['a', 'b'], [{ games: 2, ratings: [1050, 950] }]);
    expect(html).not.toContain('The chart appears after');
    expect(dotsOf(html, 'a')).toBe(1);
    expect(dotsOf(html, 'b')).toBe(1);
  });

  it('shows an agent that starts late (a knockout entrant) from its first point', () => {
    const html = render(
      ['a', 'b', 'late'],
      [
        { games: 1, ratings: [1020, 980, null] },
        { games: 2, ratings: [1030, 970, null] },
        { games: 3, ratings: [1040, 960, 1000] },
      ],
    );
    expect(dotsOf(html, 'late')).toBe(1);
    expect(dotsOf(html, 'a')).toBe(3);
  });

  it('tells coinciding lines apart: a different dash each, and the legend names the line it hides under', () => {
    const history = [
      { games: 2, ratings: [1000, 1000, 1100] },
      { games: 4, ratings: [1000, 1000, 1120] },
    ];
    const html = render(['a', 'b', 'c'], history);
    const paths = pathsOf(html);
    expect(paths[0]?.[1]).toBe(paths[1]?.[1]);
    const dashes = [...html.matchAll(/stroke-dasharray:([^;"]+)/g)].map((m) => m[1]);
    expect(new Set(dashes).size).toBe(3);
    expect(html).toContain('(same line as a)');
    expect(html.match(/data-testid="overlap-note"/g)).toHaveLength(1);
  });

  it('says the chart comes later when nothing has settled', () => {
    expect(render(['a', 'b'], [])).toContain('The chart appears after the first games settle.');
  });
});
