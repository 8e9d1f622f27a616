// Previous / next game of the same tournament, so a long study can be read game after game.
import type { TournamentSummary } from '../../../../engine/contract/tournament.js';
import { gameNumber } from '../../../../engine/core/seat-label.js';
import { routeHref } from '../../routes.js';

/** Routes index games from 0 (shown numbered from 1, as everywhere a person reads); a run whose count is not fixed (Swiss, SPRT) may have more than it has played. */
export function gameCount(tournament: Pick<TournamentSummary, 'planned_games' | 'planned_exact' | 'games_done'>): number | null {
  return tournament.planned_exact ? tournament.planned_games : null;
}

export function GameNav({
  tournamentId,
  index,
  tournament,
}: {
  tournamentId: string;
  index: number;
  tournament: TournamentSummary | null;
}) {
  const count = tournament ? gameCount(tournament) : null;
  const known = tournament ? Math.max(tournament.games_done, tournament.planned_games) : null;
  const hasNext = count !== null ? index + 1 < count : known === null || index + 1 < known;
  const href = (i: number) => routeHref({ name: 'tournament-game', id: tournamentId, index: i });
  return (
    <nav className="mv-game-nav" aria-label="Games of this tournament" data-testid="game-nav">
      {index > 0 ? (
        <a href={href(index - 1)} rel="prev" data-testid="previous-game">
          ← Game {gameNumber(index - 1)}
        </a>
      ) : (
        <span className="muted" aria-disabled="true">
          ← first game
        </span>
      )}
      <span className="muted">
        Game {gameNumber(index)}
        {count !== null ? ` · ${count} ${count === 1 ? 'game' : 'games'} in all` : ''}
      </span>
      {hasNext ? (
        <a href={href(index + 1)} rel="next" data-testid="next-game">
          Game {gameNumber(index + 1)} →
        </a>
      ) : (
        <span className="muted" aria-disabled="true">
          last game →
        </span>
      )}
    </nav>
  );
}
