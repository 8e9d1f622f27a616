// A game played on a game worker keeps the worker's public key and its signature of the record it returned.
export const name = '0260-signed-worker-records';
export const sql = `
ALTER TABLE tournament_games ADD COLUMN worker_key TEXT;
ALTER TABLE tournament_games ADD COLUMN worker_signature TEXT;
`;
