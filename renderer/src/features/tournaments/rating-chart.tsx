// Rating over games: the standings' own Bradley–Terry rating of each agent after each plotted game count, one line per
// agent on shared axes, with a legend and an SVG title/description for screen readers. The last point is the
// standings' rating, so the page shows one rating model.
import { useId } from 'react';
import type { TournamentChartsResponse } from '../../../../engine/contract/tournament.js';
import { formatNumber } from '../../ui/format.js';
import { linearScale, linePath, niceDomain, samplePoints } from './chart-scale.js';

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { top: 12, right: 16, bottom: 30, left: 48 };
/** The engine sends at most 60 refits; more would add nothing visible. */
const MAX_POINTS = 300;

/** Past this many points a line is drawn without a dot per point (the last one keeps its dot). */
const MAX_MARKERS = 40;
const DASHES = ['none', '7 4', '2 3', '10 3 2 3'];
const seriesDash = (i: number) => DASHES[i % DASHES.length];

/** For each agent whose ratings equal an earlier agent's at every point: that agent's position (else undefined). */
export function overlapsOf(history: TournamentChartsResponse['rating_history'], agents: number): (number | undefined)[] {
  const key = (i: number) => JSON.stringify(history.map((h) => (h.ratings[i] === null ? null : Math.round((h.ratings[i] ?? 0) * 10))));
  const first = new Map<string, number>();
  return Array.from({ length: agents }, (_, i) => {
    if (!history.some((h) => typeof h.ratings[i] === 'number')) return undefined;
    const k = key(i);
    const earlier = first.get(k);
    if (earlier === undefined) first.set(k, i);
    return earlier;
  });
}

/** Series colours as CSS variables (defined per theme in tournaments.css), cycled past eight agents. */
export const SERIES = 8;
export const seriesColor = (i: number) => `var(--t-series-${i % SERIES})`;

export function RatingChart({ charts }: { charts: TournamentChartsResponse }) {
  const id = useId();
  const history = samplePoints(charts.rating_history, MAX_POINTS);
  // One refit is already worth a chart (a 2-game run has only that): each agent shows as a dot.
  if (history.length === 0) return <p className="empty">The chart appears after the first games settle.</p>;
  const all = history.flatMap((h) => h.ratings).filter((r): r is number => r !== null && Number.isFinite(r));
  if (all.length === 0) return <p className="empty">The chart appears after the first games settle.</p>;
  const y = niceDomain(Math.min(...all), Math.max(...all), 5);
  const lastGames = history[history.length - 1]?.games ?? 1;
  const firstGames = history[0]?.games ?? 0;
  const x = niceDomain(firstGames === lastGames ? 0 : firstGames, lastGames, 6);
  const sx = linearScale(x.domain, [PAD.left, WIDTH - PAD.right]);
  const sy = linearScale(y.domain, [HEIGHT - PAD.bottom, PAD.top]);
  const final = history[history.length - 1]?.ratings ?? [];
  const latest = (i: number) => {
    const r = final[i];
    return r === null || r === undefined ? '–' : formatNumber(Math.round(r));
  };
  const series = charts.agents.map((_, i) =>
    history.flatMap((h) => (typeof h.ratings[i] === 'number' ? [[sx(h.games), sy(h.ratings[i] as number)] as const] : [])),
  );
  const overlaps = overlapsOf(history, charts.agents.length);
  const description = charts.agents.map((a, i) => `${a}: ${latest(i)}`).join(', ');
  return (
    <figure className="t-chart" data-testid="rating-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="t-chart-svg">
        <title id={`${id}-title`}>Rating over games</title>
        <desc id={`${id}-desc`}>
          Bradley–Terry rating of each agent (the standings' model) after each settled game, up to game {lastGames}. Latest ratings:{' '}
          {description}.
        </desc>
        <g className="t-chart-grid">
          {y.ticks.map((t) => (
            <g key={`y${t}`}>
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={sy(t)} y2={sy(t)} />
              <text x={PAD.left - 6} y={sy(t)} textAnchor="end" dominantBaseline="middle">
                {formatNumber(t)}
              </text>
            </g>
          ))}
          {x.ticks
            .filter((t) => t >= x.domain[0] && t <= x.domain[1])
            .map((t) => (
              <text key={`x${t}`} x={sx(t)} y={HEIGHT - PAD.bottom + 16} textAnchor="middle">
                {formatNumber(t)}
              </text>
            ))}
          <text x={WIDTH - PAD.right} y={HEIGHT - 2} textAnchor="end" className="t-chart-axis-label">
            games
          </text>
        </g>
        {charts.agents.map((agent, i) => (
          <g key={agent} data-agent={agent}>
            {/* Each series its own dash, so lines that coincide (equal ratings) still show both colours. */}
            <path
              d={linePath(series[i] ?? [])}
              className="t-chart-line"
              style={{ stroke: seriesColor(i), strokeDasharray: seriesDash(i) }}
            />
            {/* A dot per point (the last one alone on a long run): a late starter or a one-refit run still shows. */}
            {(series[i] ?? []).map(([px, py], k, all) =>
              all.length <= MAX_MARKERS || k === all.length - 1 ? (
                <circle key={`${px},${py}`} cx={px} cy={py} r={3} className="t-chart-point" style={{ fill: seriesColor(i) }} />
              ) : null,
            )}
          </g>
        ))}
      </svg>
      <figcaption>
        <p className="muted small">
          The standings' Bradley–Terry rating (mean 1000), refitted after each plotted number of settled games; the last point is the rating
          in the standings.
        </p>
        <ul className="t-legend" aria-label="Legend">
          {charts.agents.map((agent, i) => (
            <li key={agent}>
              <span className="t-legend-swatch" style={{ background: seriesColor(i) }} aria-hidden="true" />
              {agent} <span className="muted">{latest(i)}</span>
              {overlaps[i] !== undefined ? (
                <span className="muted small" data-testid="overlap-note">
                  {' '}
                  (same line as {charts.agents[overlaps[i] as number]})
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
