// Every model call of a game attempt as the engine forwarded it (request and response bodies, latency, time queued):
// one JSON array per seat of an attempt, kept apart from the game row so lists and exports never read it.
export const name = '0230-model-calls';
export const sql = `
CREATE TABLE tournament_model_calls (
  tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
  game_index    INTEGER NOT NULL,
  attempt       INTEGER NOT NULL,
  seat          INTEGER NOT NULL,
  calls         TEXT NOT NULL,
  PRIMARY KEY (tournament_id, game_index, attempt, seat)
) STRICT;
`;
