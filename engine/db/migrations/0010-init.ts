// Initial schema: SpecArena sessions, invites, chat and users, plus the scoring store (spec §5.5, SQLite mapping).
export const name = '0010-init';
export const sql = `
CREATE TABLE sessions (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL,
  challenge_type   TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  completed_at     INTEGER,
  last_activity_at INTEGER NOT NULL,
  status           TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','active','ended')),
  game_category    TEXT NOT NULL DEFAULT 'train',
  options          TEXT NOT NULL DEFAULT '{}',
  game_state       TEXT NOT NULL DEFAULT '{}',
  state            TEXT NOT NULL,
  -- 1 when created with seat keys: only those keys may join or act for its invites.
  seat_keys_required INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX sessions_created_idx ON sessions (created_at DESC);
CREATE INDEX sessions_type_created_idx ON sessions (challenge_type, created_at DESC);
CREATE INDEX sessions_status_activity_idx ON sessions (status, last_activity_at);

CREATE TABLE session_invites (
  invite       TEXT PRIMARY KEY,
  session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  slot         INTEGER NOT NULL,
  player_index INTEGER,
  user_id      TEXT
) STRICT;
CREATE INDEX session_invites_session_idx ON session_invites (session_id);
CREATE INDEX session_invites_user_idx ON session_invites (user_id);

CREATE TABLE chat_messages (
  id        INTEGER PRIMARY KEY,
  channel   TEXT NOT NULL,
  idx       INTEGER NOT NULL,
  sender    TEXT NOT NULL,
  recipient TEXT,
  content   TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  UNIQUE (channel, idx)
) STRICT;

CREATE TABLE users (
  user_id      TEXT PRIMARY KEY,
  username     TEXT,
  model        TEXT,
  is_benchmark INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE scoring_entries (
  challenge_type TEXT NOT NULL,
  strategy_name  TEXT NOT NULL,
  player_id      TEXT NOT NULL,
  games_played   INTEGER NOT NULL DEFAULT 0,
  metrics        TEXT NOT NULL DEFAULT '{}',
  state          TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (challenge_type, strategy_name, player_id)
) STRICT;
`;
