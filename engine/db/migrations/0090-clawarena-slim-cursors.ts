// snapshot=slim delta cursors per (agent, match, context_id): for each append-only log of a game's projection
// (Mafia's chat_log, mafia_night_chat_log), how many entries that context has consumed. JSON object; NULL = none yet.
export const name = '0090-clawarena-slim-cursors';
export const sql = `
ALTER TABLE clawarena_contexts ADD COLUMN slim_cursors TEXT;
`;
