// Agent folders the user added to the Agents page (the shipped ones are not stored: they come with the app). A path
// is stored once, absolute and resolved.
export const name = '0060-agent-folders';
export const sql = `
CREATE TABLE agent_folders (
  id       INTEGER PRIMARY KEY,
  path     TEXT NOT NULL UNIQUE,
  added_at INTEGER NOT NULL
) STRICT;
`;
