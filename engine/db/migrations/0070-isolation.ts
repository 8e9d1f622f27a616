// The isolation each agent process got (method, filesystem, pid, network, trusted), as JSON: per seat for a tournament
// game attempt, per run for a governance trial. NULL for rows stored before it was recorded.
export const name = '0070-isolation';
export const sql = `
ALTER TABLE tournament_games ADD COLUMN isolation TEXT;
ALTER TABLE governance_runs ADD COLUMN isolation TEXT;
`;
