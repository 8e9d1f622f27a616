// ClawArena agent API: agents and hashed connection tokens, the lobby queue, matches with their seats, the
// append-only per-match event log, idempotency records, per-context cursors and retained v2 decision states.
export const name = '0030-clawarena';
export const sql = `
CREATE TABLE clawarena_agents (
  agent_id            INTEGER PRIMARY KEY AUTOINCREMENT,
  name                TEXT NOT NULL UNIQUE,
  created_at          INTEGER NOT NULL,
  -- Lobby game type; NULL keeps the agent out of the lobby (tournament seats are assigned directly).
  preferred_game_type TEXT,
  runtime_kind        TEXT,
  -- Owner guidance and controls: strategy hint, risk profile, language, restart request.
  preferences         TEXT NOT NULL DEFAULT '{}',
  last_seen_at        INTEGER,
  last_heartbeat_at   INTEGER,
  last_report_at      INTEGER,
  heartbeat           TEXT NOT NULL DEFAULT '{}'
) STRICT;

-- Only a SHA-256 of each token's secret is stored. match_id scopes a token to one match (tournament seats).
CREATE TABLE clawarena_tokens (
  secret_hash TEXT PRIMARY KEY,
  agent_id    INTEGER NOT NULL REFERENCES clawarena_agents (agent_id) ON DELETE CASCADE,
  match_id    INTEGER,
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
) STRICT;
CREATE INDEX clawarena_tokens_agent_idx ON clawarena_tokens (agent_id);

CREATE TABLE clawarena_queue (
  agent_id  INTEGER PRIMARY KEY REFERENCES clawarena_agents (agent_id) ON DELETE CASCADE,
  game_type TEXT NOT NULL,
  queued_at INTEGER NOT NULL
) STRICT;

CREATE TABLE clawarena_matches (
  match_id          INTEGER PRIMARY KEY AUTOINCREMENT,
  game_type         TEXT NOT NULL,
  origin            TEXT NOT NULL CHECK (origin IN ('lobby', 'scheduled')),
  status            TEXT NOT NULL CHECK (status IN ('matched', 'playing', 'finished')),
  seed              TEXT NOT NULL,
  options           TEXT NOT NULL DEFAULT '{}',
  state             TEXT NOT NULL,
  window_seq        INTEGER NOT NULL DEFAULT 0,
  window_key        TEXT,
  window_opened_at  INTEGER,
  deadline_at       INTEGER,
  -- A scheduled match waits for every seat to connect, but not past this time.
  start_deadline_at INTEGER,
  created_at        INTEGER NOT NULL,
  started_at        INTEGER,
  finished_at       INTEGER,
  result            TEXT,
  summary           TEXT
) STRICT;
CREATE INDEX clawarena_matches_status_idx ON clawarena_matches (status, deadline_at);

CREATE TABLE clawarena_seats (
  match_id       INTEGER NOT NULL REFERENCES clawarena_matches (match_id) ON DELETE CASCADE,
  seat           INTEGER NOT NULL,
  agent_id       INTEGER NOT NULL REFERENCES clawarena_agents (agent_id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  connected_at   INTEGER,
  -- Latest window in which this seat could act, and latest window in which it did act itself.
  offered_window INTEGER,
  acted_window   INTEGER,
  finished_seen  INTEGER NOT NULL DEFAULT 0,
  guidance_hash  TEXT,
  placement      INTEGER,
  PRIMARY KEY (match_id, seat),
  UNIQUE (match_id, agent_id)
) STRICT;
CREATE INDEX clawarena_seats_agent_idx ON clawarena_seats (agent_id, match_id DESC);

CREATE TABLE clawarena_events (
  match_id   INTEGER NOT NULL REFERENCES clawarena_matches (match_id) ON DELETE CASCADE,
  event_seq  INTEGER NOT NULL,
  type       TEXT NOT NULL,
  is_auto    INTEGER NOT NULL DEFAULT 0,
  -- 'public', or a JSON array of the seats that may see the event.
  visibility TEXT NOT NULL,
  data       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (match_id, event_seq)
) STRICT;

CREATE TABLE clawarena_idempotency (
  agent_id   INTEGER NOT NULL REFERENCES clawarena_agents (agent_id) ON DELETE CASCADE,
  key        TEXT NOT NULL,
  payload    TEXT NOT NULL,
  response   TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, key)
) STRICT;

CREATE TABLE clawarena_contexts (
  agent_id       INTEGER NOT NULL REFERENCES clawarena_agents (agent_id) ON DELETE CASCADE,
  match_id       INTEGER NOT NULL REFERENCES clawarena_matches (match_id) ON DELETE CASCADE,
  context_id     TEXT NOT NULL,
  history_cursor INTEGER NOT NULL DEFAULT 0,
  stable_id      TEXT,
  resynced       INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  PRIMARY KEY (agent_id, match_id, context_id)
) STRICT;

CREATE TABLE clawarena_states (
  agent_id  INTEGER NOT NULL REFERENCES clawarena_agents (agent_id) ON DELETE CASCADE,
  match_id  INTEGER NOT NULL REFERENCES clawarena_matches (match_id) ON DELETE CASCADE,
  state_seq INTEGER NOT NULL,
  checksum  TEXT NOT NULL,
  state     TEXT NOT NULL,
  PRIMARY KEY (agent_id, match_id, state_seq)
) STRICT;
`;
