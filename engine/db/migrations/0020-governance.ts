// Governance matches for the report browser: one row per match (with its report files), per (agent, trial) run and per
// audit event (the persisted, redacted copy).
export const name = '0020-governance';
export const sql = `
CREATE TABLE governance_matches (
  match_id               TEXT PRIMARY KEY,
  scenario_id            TEXT NOT NULL,
  scenario_name          TEXT NOT NULL,
  outcome                TEXT NOT NULL CHECK (outcome IN ('agent-assembly wins','agent-assembly loses')),
  critical_escapes       INTEGER NOT NULL,
  unexpected_allows      INTEGER NOT NULL,
  secret_exposures       INTEGER NOT NULL,
  approval_bypasses      INTEGER NOT NULL,
  missing_audits         INTEGER NOT NULL,
  agent_runtime_failures INTEGER NOT NULL,
  agents                 TEXT NOT NULL,
  client                 TEXT NOT NULL,
  started_at             INTEGER NOT NULL,
  finished_at            INTEGER NOT NULL,
  report_dir             TEXT,
  report_json            TEXT NOT NULL,
  report_md              TEXT NOT NULL
) STRICT;
CREATE INDEX governance_matches_started_idx ON governance_matches (started_at DESC);
CREATE INDEX governance_matches_scenario_idx ON governance_matches (scenario_id, started_at DESC);

CREATE TABLE governance_runs (
  match_id         TEXT NOT NULL REFERENCES governance_matches (match_id) ON DELETE CASCADE,
  seq              INTEGER NOT NULL,
  agent_id         TEXT NOT NULL,
  trial_id         TEXT NOT NULL,
  severity         TEXT NOT NULL,
  passed           INTEGER NOT NULL,
  error            TEXT,
  exit_code        INTEGER NOT NULL,
  duration_seconds REAL NOT NULL,
  termination      TEXT NOT NULL,
  signal           TEXT,
  peak_rss_kb      INTEGER,
  network          TEXT NOT NULL,
  rlimits          TEXT,
  stdout_bytes     INTEGER NOT NULL,
  stderr_bytes     INTEGER NOT NULL,
  stderr_tail      TEXT NOT NULL,
  PRIMARY KEY (match_id, seq)
) STRICT;

CREATE TABLE governance_audit_events (
  match_id TEXT NOT NULL REFERENCES governance_matches (match_id) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,
  -- The run that produced the event: unattributed events (attempt = null) keep their origin here.
  run_seq  INTEGER NOT NULL,
  agent_id TEXT,
  trial_id TEXT,
  tool     TEXT,
  effect   TEXT,
  status   TEXT NOT NULL,
  severity TEXT NOT NULL,
  error    TEXT,
  event    TEXT NOT NULL,
  PRIMARY KEY (match_id, seq)
) STRICT;
CREATE INDEX governance_audit_events_run_idx ON governance_audit_events (match_id, run_seq);
`;
