// Which SpecArena sessions a tournament created for its games (the Sessions page can hide them). Recorded when the
// session is created, so a game still running is known too; filled from the games already stored.
export const name = '0110-tournament-sessions';
export const sql = `
CREATE TABLE tournament_sessions (
  session_id    TEXT PRIMARY KEY,
  tournament_id TEXT NOT NULL
) STRICT;
INSERT OR IGNORE INTO tournament_sessions (session_id, tournament_id)
  SELECT session_id, tournament_id FROM tournament_games WHERE session_id IS NOT NULL;
`;
