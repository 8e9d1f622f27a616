// The tournaments list as a library (issue 16): a run can be archived (hidden from the default list, kept whole),
// and the duration estimate reads recent game times per challenge, which the index keeps cheap on a large database.
export const name = '0140-tournament-library';
export const sql = `
ALTER TABLE tournaments ADD COLUMN archived_at INTEGER;
CREATE INDEX tournament_games_challenge_seq_idx ON tournament_games (challenge, seq);
`;
