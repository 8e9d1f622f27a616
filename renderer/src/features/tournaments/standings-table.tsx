// Standings with each agent's rating interval drawn on one shared axis, so overlapping bars read as "not yet
// separable" at a glance, and ranks printed as report.md prints them ("1 (1–2)") with the same legend under the
// table. Rows animate their bar positions when a refetch moves them.
import { RANK_LEGEND, rankText } from '../../../../engine/core/ratings/rank-ranges.js';
import { formatCost, formatNumber } from '../../ui/format.js';
import { intervalAxis, linearScale } from './chart-scale.js';
import type { RatedGames, StandingRow } from './tournaments-api.js';

const fmt = (v: number | null, digits = 0) => (v === null ? '–' : formatNumber(Number(v.toFixed(digits))));

/** "12 of 13 finished games rated (1 incomplete set)", with the rule when some finished game is left out. */
function RatedNote({ rated }: { rated: RatedGames }) {
  const left = rated.finished - rated.rated;
  return (
    <p
      className={left > 0 ? 'notice notice-compact small' : 'muted small'}
      data-testid="rated-games-note"
      data-finished={rated.finished}
      data-rated={rated.rated}
      data-incomplete-sets={rated.incomplete_sets}
    >
      {rated.text}.{left > 0 ? ` ${rated.rule}` : ''}
    </p>
  );
}

export function StandingsTable({ rows, rated }: { rows: readonly StandingRow[]; rated?: RatedGames }) {
  const axis = intervalAxis(rows);
  const x = axis ? linearScale(axis.domain, [0, 100]) : null;
  if (rows.length === 0 || (rated && rated.finished === 0)) return <p className="empty">No games settled yet.</p>;
  // Model spend columns only when some agent made model calls: scripted-agent tournaments stay uncluttered. They come
  // before the interval, which is last and frozen at the right edge when the table must scroll sideways (1024 px).
  const spend = rows.some((r) => r.tokens !== null && r.tokens !== undefined);
  return (
    <>
      {rated ? <RatedNote rated={rated} /> : null}
      <div className="table-wrap">
        <table className={spend ? 'table t-standings t-with-spend' : 'table t-standings'} data-testid="standings-table">
          <caption className="sr-only">Standings: rank, games, results, points and rating with its 95% interval</caption>
          <thead>
            <tr>
              <th className="num" title="place by rating (range: every place the games allow at 95%)">
                Rank
              </th>
              <th>Agent</th>
              <th className="num">Games</th>
              <th className="num" title="wins / draws / losses">
                W / D / L
              </th>
              <th className="num">Points</th>
              <th className="num">Score</th>
              <th className="num">Rating</th>
              {spend ? (
                <>
                  <th className="num t-spend-head">Tokens</th>
                  <th className="num t-spend-head">Cost</th>
                  <th className="num t-spend-head" title="model spend per game divided by the rating points above the weakest agent">
                    Cost / rating point
                  </th>
                </>
              ) : null}
              <th className="t-interval-head">
                Interval
                {axis ? (
                  <span className="t-axis" aria-hidden="true">
                    {axis.ticks.map((t) => (
                      <span key={t} className="t-axis-tick" style={{ left: `${x?.(t) ?? 0}%` }}>
                        {formatNumber(t)}
                      </span>
                    ))}
                  </span>
                ) : null}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.agent} data-agent={row.agent} data-games={row.games}>
                <td
                  className="num nowrap"
                  data-testid="standing-rank"
                  title={
                    row.rank === 0
                      ? 'no rated game yet'
                      : row.rank_range[0] === row.rank_range[1]
                        ? undefined
                        : `could be ${row.rank_range[0]}–${row.rank_range[1]}`
                  }
                >
                  {rankText(row.rank, row.rank_range)}
                </td>
                <td>
                  <span className="strong">{row.agent}</span>
                  {row.agent_name && row.agent_name !== row.agent ? (
                    <span className="muted small t-agent-name">{row.agent_name}</span>
                  ) : null}
                </td>
                <td className="num" data-testid="standing-games">
                  {row.games}
                </td>
                <td className="num nowrap">
                  {row.wins} / {row.draws} / {row.losses}
                </td>
                <td className="num">{formatNumber(row.points)}</td>
                <td className="num">{row.score_pct === null ? '–' : `${row.score_pct.toFixed(1)}%`}</td>
                <td className="num" data-testid="standing-rating">
                  {fmt(row.rating)}
                  {row.rating_interval !== null && row.rating !== null ? (
                    <span className="muted small t-rating-ci"> {row.rating_interval.slice(row.rating_interval.indexOf('['))}</span>
                  ) : null}
                </td>
                {spend ? (
                  <>
                    <td className="num">{row.tokens === null || row.tokens === undefined ? '–' : formatNumber(row.tokens)}</td>
                    <td className="num">{formatCost(row.cost_usd)}</td>
                    <td className="num" data-testid="cost-per-rating-point">
                      {formatCost(row.cost_per_rating_point)}
                    </td>
                  </>
                ) : null}
                <td className="t-interval-cell">
                  <IntervalBar row={row} x={x} domain={axis?.domain ?? null} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small t-legend-note" data-testid="rank-legend">
        {RANK_LEGEND} Rating: Bradley–Terry, mean 1000, with its 95% interval; the chart below plots the same ratings.
      </p>
    </>
  );
}

function IntervalBar({ row, x, domain }: { row: StandingRow; x: ((v: number) => number) | null; domain: [number, number] | null }) {
  if (!x || !domain || row.rating === null) return <span className="muted small">–</span>;
  // An open side (no bound from the games) runs to the edge of the axis and is drawn faded there.
  const lower = row.rating_lower ?? domain[0];
  const upper = row.rating_upper ?? domain[1];
  const left = x(lower);
  const width = Math.max(0.8, x(upper) - left);
  const open = [row.rating_lower === null ? 'open-low' : '', row.rating_upper === null ? 'open-high' : ''].join(' ');
  return (
    <span className="t-interval" role="img" aria-label={`${row.agent}: rating ${row.rating_interval ?? fmt(row.rating)}`}>
      <span className={`t-interval-bar ${open}`.trim().replace(/\s+/g, ' ')} style={{ left: `${left}%`, width: `${width}%` }} />
      <span className="t-interval-mark" style={{ left: `${x(row.rating)}%` }} />
    </span>
  );
}
