// model.yaml `cache: true`: answers of a model server kept by the exact request that got them (a SHA-256 key over
// the server, the request body, the game and the turn: engine/tournaments/model-cache.ts), so an identical request
// in a later run is answered from here instead of asking the model again.
export const name = '0300-model-cache';
export const sql = `
CREATE TABLE model_response_cache (
  key           TEXT PRIMARY KEY,
  server        TEXT NOT NULL,
  status        INTEGER NOT NULL,
  response      TEXT NOT NULL,
  tournament_id TEXT NOT NULL,
  created_at    INTEGER NOT NULL
) STRICT;
`;
