// Games in flight (each opens the match viewer) and the latest finished ones with how they ended.

import type { RunningGame } from '../../../../engine/contract/tournament.js';
import { gameNumber } from '../../../../engine/core/seat-label.js';
import { routeHref } from '../../routes.js';
import { formatClock, relativeTime } from '../../ui/format.js';
import { resultText, winnerSeats } from '../../ui/game-result.js';
import type { GameRow } from './tournaments-api.js';

export function RunningGames({ tournamentId, games, now }: { tournamentId: string; games: readonly RunningGame[]; now: number }) {
  if (games.length === 0) return <p className="empty">No games running right now.</p>;
  return (
    <ul className="stack-list t-running" data-testid="running-games">
      {games.map((g) => (
        <li key={`${g.game_index}/${g.attempt}`} data-game-index={g.game_index}>
          <a href={routeHref({ name: 'tournament-game', id: tournamentId, index: g.game_index })} className="strong-link">
            Watch game {gameNumber(g.game_index)}
          </a>
          <span className="small">
            {' '}
            {g.seats.join(' vs ')} <span className="tag">{g.challenge}</span>
            {g.attempt > 1 ? <span className="muted"> · replay {g.attempt - 1}</span> : null}
          </span>
          <span className="muted small" title={formatClock(g.started_at)}>
            started {relativeTime(g.started_at, now)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function RecentGames({ tournamentId, games }: { tournamentId: string; games: readonly GameRow[] }) {
  if (games.length === 0) return <p className="empty">No finished games yet.</p>;
  const multiChallenge = new Set(games.map((g) => g.challenge)).size > 1;
  return (
    <div className="table-wrap">
      <table className="table t-recent" data-testid="recent-games">
        <thead>
          <tr>
            <th className="num">Game</th>
            <th>Players (winner in bold)</th>
            <th>Termination</th>
            <th className="num">Duration</th>
          </tr>
        </thead>
        <tbody>
          {games.map((g) => {
            const winners = winnerSeats(g.placements);
            return (
              <tr key={`${g.gameIndex}/${g.attempt}`} data-termination={g.termination}>
                <td className="num">
                  <a
                    href={routeHref({ name: 'tournament-game', id: tournamentId, index: g.gameIndex })}
                    aria-label={`Open game ${gameNumber(g.gameIndex)}`}
                  >
                    {gameNumber(g.gameIndex)}
                  </a>
                </td>
                <td>
                  {g.seat_agents.map((agent, seat) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: seats are positions; an agent may sit twice in a self-play test.
                    <span key={seat}>
                      {seat > 0 ? ' vs ' : null}
                      <span className={winners.includes(seat) ? 't-winner' : undefined}>{agent}</span>
                    </span>
                  ))}
                  {winners.length === g.seat_agents.length ? <span className="tag">draw</span> : null}
                  {g.forfeit ? <span className="tag t-tag-fault">forfeit</span> : null}
                  <span className="sr-only">: {resultText(g.seat_agents, g.placements, g.forfeit)}</span>
                  {multiChallenge ? <span className="tag">{g.challenge}</span> : null}
                </td>
                <td>
                  <span className={g.fault === 'none' ? 'tag' : 'tag t-tag-fault'}>{g.termination}</span>
                  {g.fault !== 'none' ? <span className="muted small"> ({g.fault} fault)</span> : null}
                </td>
                <td className="num">{((g.endedAt - g.startedAt) / 1000).toFixed(1)} s</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
