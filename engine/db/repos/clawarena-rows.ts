// ClawArena's stored shapes and the SQLite rows they are read from: JSON columns are parsed here so callers get
// plain objects.

export interface StoredClawAgent {
  agentId: number;
  name: string;
  createdAt: number;
  preferredGameType: string | null;
  runtimeKind: string | null;
  preferences: Record<string, unknown>;
  lastSeenAt: number | null;
  lastHeartbeatAt: number | null;
  lastReportAt: number | null;
  heartbeat: Record<string, unknown>;
}

export interface StoredClawToken {
  agentId: number;
  matchId: number | null;
  createdAt: number;
  revokedAt: number | null;
}

export type ClawMatchStatus = 'matched' | 'playing' | 'finished';

export interface StoredClawMatch {
  matchId: number;
  gameType: string;
  origin: 'lobby' | 'scheduled';
  status: ClawMatchStatus;
  seed: string;
  options: Record<string, unknown>;
  state: unknown;
  windowSeq: number;
  windowKey: string | null;
  windowOpenedAt: number | null;
  deadlineAt: number | null;
  startDeadlineAt: number | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  result: Record<string, unknown> | null;
  summary: Record<string, unknown> | null;
}

export interface StoredClawSeat {
  matchId: number;
  seat: number;
  agentId: number;
  name: string;
  connectedAt: number | null;
  offeredWindow: number | null;
  actedWindow: number | null;
  finishedSeen: boolean;
  guidanceHash: string | null;
  placement: number | null;
}

export interface StoredClawEvent {
  eventSeq: number;
  type: string;
  isAuto: boolean;
  visibility: 'public' | number[];
  data: Record<string, unknown>;
  createdAt: number;
}

export interface StoredClawContext {
  historyCursor: number;
  stableId: string | null;
  resynced: boolean;
  /** snapshot=slim: entries consumed per append-only log of the projection. */
  slimCursors?: Record<string, number>;
}

export interface AgentRow {
  agent_id: number;
  name: string;
  created_at: number;
  preferred_game_type: string | null;
  runtime_kind: string | null;
  preferences: string;
  last_seen_at: number | null;
  last_heartbeat_at: number | null;
  last_report_at: number | null;
  heartbeat: string;
}

export interface MatchRow {
  match_id: number;
  game_type: string;
  origin: 'lobby' | 'scheduled';
  status: ClawMatchStatus;
  seed: string;
  options: string;
  state: string;
  window_seq: number;
  window_key: string | null;
  window_opened_at: number | null;
  deadline_at: number | null;
  start_deadline_at: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  result: string | null;
  summary: string | null;
}

export interface SeatRow {
  match_id: number;
  seat: number;
  agent_id: number;
  name: string;
  connected_at: number | null;
  offered_window: number | null;
  acted_window: number | null;
  finished_seen: number;
  guidance_hash: string | null;
  placement: number | null;
}

export interface EventRow {
  event_seq: number;
  type: string;
  is_auto: number;
  visibility: string;
  data: string;
  created_at: number;
}

export const agentFromRow = (r: AgentRow): StoredClawAgent => ({
  agentId: r.agent_id,
  name: r.name,
  createdAt: r.created_at,
  preferredGameType: r.preferred_game_type,
  runtimeKind: r.runtime_kind,
  preferences: JSON.parse(r.preferences),
  lastSeenAt: r.last_seen_at,
  lastHeartbeatAt: r.last_heartbeat_at,
  lastReportAt: r.last_report_at,
  heartbeat: JSON.parse(r.heartbeat),
});

export const matchFromRow = (r: MatchRow): StoredClawMatch => ({
  matchId: r.match_id,
  gameType: r.game_type,
  origin: r.origin,
  status: r.status,
  seed: r.seed,
  options: JSON.parse(r.options),
  state: JSON.parse(r.state),
  windowSeq: r.window_seq,
  windowKey: r.window_key,
  windowOpenedAt: r.window_opened_at,
  deadlineAt: r.deadline_at,
  startDeadlineAt: r.start_deadline_at,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  result: r.result === null ? null : JSON.parse(r.result),
  summary: r.summary === null ? null : JSON.parse(r.summary),
});

export const seatFromRow = (r: SeatRow): StoredClawSeat => ({
  matchId: r.match_id,
  seat: r.seat,
  agentId: r.agent_id,
  name: r.name,
  connectedAt: r.connected_at,
  offeredWindow: r.offered_window,
  actedWindow: r.acted_window,
  finishedSeen: r.finished_seen === 1,
  guidanceHash: r.guidance_hash,
  placement: r.placement,
});

export const eventFromRow = (r: EventRow): StoredClawEvent => ({
  eventSeq: r.event_seq,
  type: r.type,
  isAuto: r.is_auto === 1,
  visibility: r.visibility === 'public' ? 'public' : (JSON.parse(r.visibility) as number[]),
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});
