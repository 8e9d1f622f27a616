// The engine process playing a tournament (engine-identity.ts's mark), set while it plays and cleared when the run
// stops: a second engine on the same data directory must neither play the run too nor take it for one that a crash
// left 'running'. A mark whose process is gone is such a crash.
export const name = '0160-tournament-runner';
export const sql = `
ALTER TABLE tournaments ADD COLUMN runner TEXT;
`;
