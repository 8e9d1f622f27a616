// Fewer B-tree pages per committed action (bench:api): every page an action dirties is a WAL frame written at commit.
// - sessions.invites: a session's invites never change, so hot reads take them from the row instead of a sorted
//   subquery over session_invites (which keeps the per-invite lookups and seat rows).
// - The activity index keyed (status, last_activity_at) was rewritten by every action; expiry only needs the unfinished
//   sessions, which a partial index on status finds without being touched when only the activity time moves.
// - Invites are looked up by user only once seated with one, so a new session's unseated invites stay out of that index.
// - chat_messages is keyed by what it is read by, (channel, idx), WITHOUT ROWID: one B-tree instead of a table plus a
//   unique index. Nothing reads its old rowid.
export const name = '0150-lean-writes';
export const sql = `
ALTER TABLE sessions ADD COLUMN invites TEXT NOT NULL DEFAULT '[]';
UPDATE sessions SET invites = (
  SELECT json_group_array(invite) FROM (SELECT invite FROM session_invites WHERE session_id = sessions.id ORDER BY slot));
DROP INDEX sessions_status_activity_idx;
CREATE INDEX sessions_unfinished_idx ON sessions (status) WHERE status != 'ended';
DROP INDEX session_invites_user_idx;
CREATE INDEX session_invites_user_idx ON session_invites (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE chat_messages_keyed (
  channel   TEXT NOT NULL,
  idx       INTEGER NOT NULL,
  sender    TEXT NOT NULL,
  recipient TEXT,
  content   TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  PRIMARY KEY (channel, idx)
) STRICT, WITHOUT ROWID;
INSERT INTO chat_messages_keyed (channel, idx, sender, recipient, content, timestamp)
  SELECT channel, idx, sender, recipient, content, timestamp FROM chat_messages;
DROP TABLE chat_messages;
ALTER TABLE chat_messages_keyed RENAME TO chat_messages;

`;
