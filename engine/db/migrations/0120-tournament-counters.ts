// Costs that do not grow with a run (issue 14): counts kept on the tournament row, a `superseded` flag on replayed
// attempts (so "the attempt that counts" is an index lookup, not a subquery per row), an index that serves the games
// page in order, and the run tally (standings, SPRT and chart totals as JSON) committed with every game. Existing runs
// get their counts and flags here; their tally is rebuilt from their games the first time it is needed.
// The settled rule below is stats.ts's isSettled as of this migration: a rated result (fault none or agent), or
// the third attempt.
export const name = '0120-tournament-counters';
export const sql = `
ALTER TABLE tournaments ADD COLUMN game_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN games_started INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN games_settled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN superseded INTEGER NOT NULL DEFAULT 0;

UPDATE tournament_games SET superseded = 1
  WHERE attempt < (SELECT MAX(h.attempt) FROM tournament_games h
                   WHERE h.tournament_id = tournament_games.tournament_id AND h.game_key = tournament_games.game_key);
UPDATE tournaments SET
  game_attempts = (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = tournaments.id),
  games_started = (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = tournaments.id AND g.superseded = 0),
  games_settled = (SELECT COUNT(*) FROM tournament_games g
                   WHERE g.tournament_id = tournaments.id AND (g.fault IN ('none', 'agent') OR g.attempt >= 3));

DROP INDEX tournament_games_index_idx;
CREATE INDEX tournament_games_order_idx ON tournament_games (tournament_id, game_index, attempt);
CREATE INDEX tournament_games_final_idx ON tournament_games (tournament_id, superseded, game_index, attempt);

CREATE TABLE tournament_tallies (
  tournament_id TEXT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
  -- Attempts folded in: equal to tournaments.game_attempts unless the tally is stale (then it is rebuilt).
  attempts      INTEGER NOT NULL,
  state         TEXT NOT NULL
) STRICT;
-- The chart's sampled rating trace, in a row of its own: it changes only when a sample is taken, and SQLite rewrites
-- a whole row on every update.
CREATE TABLE tournament_tally_traces (
  tournament_id TEXT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
  trace         TEXT NOT NULL
) STRICT;
`;
