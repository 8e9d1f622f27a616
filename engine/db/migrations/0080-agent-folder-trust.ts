// A user-added agent folder can be marked trusted on the Agents page: its agents then run without the OS sandbox.
export const name = '0080-agent-folder-trust';
export const sql = `
ALTER TABLE agent_folders ADD COLUMN trusted INTEGER NOT NULL DEFAULT 0;
`;
