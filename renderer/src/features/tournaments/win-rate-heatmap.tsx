// Pairwise win rates: row agent's score against the column agent, coloured from loss to win. It is a real table,
// so screen readers get the values with their row and column headers; the colour only helps the eye.
import type { TournamentChartsResponse } from '../../../../engine/contract/tournament.js';
import { heatMix } from './chart-scale.js';

export function WinRateHeatmap({ charts }: { charts: TournamentChartsResponse }) {
  const { agents, pairwise } = charts;
  if (agents.length < 2) return <p className="empty">Needs at least two agents.</p>;
  return (
    <div className="table-wrap">
      <table className="t-heatmap" data-testid="win-rate-heatmap">
        <caption className="small muted">
          Score of the row agent against the column agent (wins + half the draws), with games played.
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Agent</span>
            </th>
            {agents.map((a) => (
              <th key={a} scope="col" className="t-heat-col">
                {a}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {agents.map((rowAgent, i) => (
            <tr key={rowAgent}>
              <th scope="row">{rowAgent}</th>
              {agents.map((colAgent, j) => {
                const cell = pairwise[i]?.[j] ?? null;
                if (i === j) return <td key={colAgent} className="t-heat-self" aria-label="same agent" />;
                if (!cell || cell.games === 0)
                  return (
                    <td key={colAgent} className="t-heat-none">
                      <span className="muted">–</span>
                    </td>
                  );
                const mix = heatMix(cell.score_pct);
                return (
                  <td
                    key={colAgent}
                    className="t-heat-cell"
                    style={{ background: `color-mix(in oklab, var(--t-heat-high) ${mix}%, var(--t-heat-low))` }}
                    title={`${rowAgent} vs ${colAgent}: ${cell.score_pct.toFixed(1)}% over ${cell.games} games`}
                  >
                    <span className="strong">{Math.round(cell.score_pct)}%</span>
                    <span className="t-heat-games">{cell.games} g</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
