// Games dispatched to game workers (`arena worker`) record which worker played them; NULL = this engine did.
export const name = '0100-game-workers';
export const sql = `
ALTER TABLE tournament_games ADD COLUMN worker_id TEXT;
`;
