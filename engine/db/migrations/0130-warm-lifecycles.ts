// Each agent's lifecycle figures of a tournament with warm agents (processes started, restarts after faults, the
// retirement reason), as the JSON array the live view shows; kept so a resumed run counts restarts against its cap
// from where the killed one stopped.
export const name = '0130-warm-lifecycles';
export const sql = `
CREATE TABLE tournament_lifecycles (
  tournament_id TEXT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
  stats         TEXT NOT NULL
) STRICT;
`;
