// A run's games in commit order (exports, tally rebuilds, a resumed run's load) read from an index instead of sorting
// the whole run first: that sort read every row, transcripts included, before the first came back (about 110 ms at
// 30,000 games, during which the engine answered nothing). seq is the rowid, so the index adds no column to the row.
export const name = '0170-tournament-games-commit-order';
export const sql = `
CREATE INDEX tournament_games_commit_order_idx ON tournament_games (tournament_id, seq);
`;
