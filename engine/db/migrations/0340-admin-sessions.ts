// An open page finds a restarted `arena serve` (issue 48): the browser sessions of the admin UI outlive the process
// (engine/http/admin-sessions.ts; only a SHA-256 of each cookie value is stored, so this file alone lets nobody in;
// rows end at `expires_at`, idle or hard end, or once rotated at `retired_at`), and the port the engine last listened
// on per host name is remembered, so the next start takes it again when free and the page's origin stays valid.
export const name = '0340-admin-sessions';
export const sql = `
CREATE TABLE admin_sessions (
  value_hash  TEXT PRIMARY KEY,
  host        TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  issued_at   INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  retired_at  INTEGER
) STRICT;
CREATE INDEX admin_sessions_by_issue ON admin_sessions (issued_at);
CREATE TABLE engine_ports (
  host        TEXT PRIMARY KEY,
  port        INTEGER NOT NULL,
  listened_at INTEGER NOT NULL
) STRICT;
`;
