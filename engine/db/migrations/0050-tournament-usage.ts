// Model-agent accounting per tournament game attempt: per seat, the totals of its ARENA_MODEL_USAGE lines (calls,
// tokens, latency, cost, fallbacks by cause) as JSON, NULL when no seat reported any (agents without a model).
export const name = '0050-tournament-usage';
export const sql = `
ALTER TABLE tournament_games ADD COLUMN usage TEXT;
`;
