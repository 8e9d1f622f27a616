// What a worker's signature covers (its attestation: job, game, result, record digest), kept beside the signature so
// an audit bundle carries it and `arena verify` re-checks each worker-played game offline.
export const name = '0270-worker-attestations';
export const sql = `
ALTER TABLE tournament_games ADD COLUMN worker_attestation TEXT;
`;
