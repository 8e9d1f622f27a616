// Turns: the long-poll (what the caller sees now, or after something changes), action submission with idempotency
// and the decision-window rules, and the watcher heartbeat. Inputs arrive parsed; failures are ClawErrors.
import type { ActionRequest, HeartbeatRequest, PollQuery } from '../../contract/clawarena.js';
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawMatch, StoredClawSeat } from '../../db/store.js';
import { canonicalJson } from '../../runtime/canonical-json.js';
import { secretScrubber } from '../../runtime/known-secrets.js';
import type { AuthContext, ClawAgents } from './agents.js';
import type { Deadlines } from './deadlines.js';
import { buildEnvelope, type Located, seatView, windowId } from './envelope.js';
import { ClawError } from './errors.js';
import type { Lobby } from './lobby.js';
import type { MatchRuntime } from './match-runtime.js';
import type { MatchSignals } from './match-signals.js';
import { agentPreferences } from './preferences.js';
import { MAX_WAIT_SECONDS } from './schema-document.js';
import { isoUtc, isoUtcOrNull } from './timestamps.js';
import type { createWaiters } from './waiters.js';

export interface TurnDeps {
  store: Store;
  clock: Clock;
  runtime: MatchRuntime;
  agents: ClawAgents;
  lobby: Lobby;
  deadlines: Deadlines;
  signals: MatchSignals;
  waiters: ReturnType<typeof createWaiters>;
}

/** Heartbeat fields kept as the watcher's last report. */
const HEARTBEAT_FIELDS = [
  'status',
  'feed_status',
  'error',
  'client',
  'brain',
  'client_version',
  'skill_slug',
  'skill_version',
  'watcher_protocol_version',
] as const;

function parseWindowId(value: unknown, matchId: number): number | 'other' | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const m = /^(\d+):(\d+)$/.exec(text);
  if (!m || Number(m[1]) !== matchId) return 'other';
  return Number(m[2]);
}

// Kept whole: short named steps sharing the turn timers, read one at a time like a class.
export function createTurns(deps: TurnDeps) {
  const { store, clock, runtime, agents, lobby } = deps;
  const repo = store.clawarena;
  /** Last (status, match) returned per token, for the long-poll's "changed since the last poll" rule. */
  const lastPolled = new Map<string, { status: string; matchId: number | null }>();

  const actionable = (loc: Located): boolean => {
    if (loc.status !== 'playing') return false;
    const view = seatView(runtime, loc.match, loc.seat.seat);
    return view.isYourTurn && !view.actionPending;
  };
  const locatedKey = (loc: Located) => ({ status: loc.status, matchId: 'match' in loc ? loc.match.matchId : null });

  /**
   * Window rules (spec §8.3): a seat that already acted in the window it refers to gets action_already_queued;
   * a window that closed without its action is stale; a seat with nothing to decide gets not_your_turn.
   */
  function windowCheck(match: StoredClawMatch, seat: StoredClawSeat, clientWindowRaw: unknown): ClawError | null {
    const current = match.windowSeq;
    const client = parseWindowId(clientWindowRaw, match.matchId);
    if (client === 'other')
      return ClawError.of('stale_action_window', 'action_window_id does not belong to the current match', { field: 'action_window_id' });
    const view = seatView(runtime, match, seat.seat);
    const refersTo = client ?? (view.isYourTurn ? current : seat.offeredWindow);
    if (refersTo !== null && refersTo === seat.actedWindow) {
      return ClawError.of('action_already_queued', 'you already acted in this decision window');
    }
    if (view.isYourTurn && refersTo === current) return null;
    if (refersTo === null) return ClawError.of('not_your_turn', 'you have no decision to make right now');
    if (refersTo !== current) {
      return ClawError.of('stale_action_window', `decision window ${match.matchId}:${refersTo} has closed; poll for the current one`, {
        field: 'action_window_id',
        invalid_value: `${match.matchId}:${refersTo}`,
      });
    }
    return ClawError.of('not_your_turn', 'you have no decision to make right now');
  }

  /**
   * Games with sealed submissions (Diplomacy, spec §8.3): in a window the seat already acted in, an exact replay of its
   * batch is acknowledged again and anything else is 409 phase_submission_sealed. Null for the other games.
   */
  function sealedReplay(match: StoredClawMatch, seat: StoredClawSeat, payload: string): Record<string, unknown> | null {
    const sealed = runtime.gameOf(match).sealedSubmission?.(match.state, seat.seat);
    if (sealed === undefined) return null;
    if (sealed === null || canonicalJson(sealed) !== payload) {
      throw ClawError.of('phase_submission_sealed', 'your batch for this phase is already sealed; only an exact replay is accepted');
    }
    return {
      status: 'ok',
      ack_type: `${match.gameType}_action_ack`,
      action: sealed.action,
      params: sealed.params,
      match_id: match.matchId,
      action_window_id: windowId(match),
      action_pending: seatView(runtime, match, seat.seat).actionPending,
      match_status: match.status,
      replayed: true,
      event_seq: repo.lastVisibleEventSeq(match.matchId, seat.seat),
      accepted_at: isoUtc(clock.now()),
    };
  }

  return {
    /**
     * The caller's envelope; waits up to `wait` seconds (real time a connection is held, not game time) while the
     * caller has nothing to do and nothing changed since its last poll.
     */
    async poll(auth: AuthContext, query: PollQuery, signal?: AbortSignal): Promise<Record<string, unknown>> {
      repo.touchAgent(auth.agentId, clock.now());
      const waitMs = Number(query.wait ?? MAX_WAIT_SECONDS) * 1000;
      let loc = lobby.locate(auth);
      const last = lastPolled.get(auth.secretHash);
      const changedSince = (l: Located) => !last || last.status !== l.status || last.matchId !== locatedKey(l).matchId;
      if (waitMs > 0 && !actionable(loc) && !changedSince(loc)) {
        const until = performance.now() + waitMs;
        while (!deps.deadlines.closed && !signal?.aborted) {
          const remaining = until - performance.now();
          if (remaining <= 0) break;
          await deps.waiters.wait(auth.agentId, remaining, signal);
          if (deps.deadlines.closed || signal?.aborted) break;
          loc = lobby.locate(auth);
          if (actionable(loc) || changedSince(loc)) break;
        }
        loc = lobby.locate(auth);
      }
      const agent = agents.agentOf(auth);
      const body = store.transaction(() => buildEnvelope({ store, clock, runtime }, agent, loc, query));
      lastPolled.set(auth.secretHash, locatedKey(loc));
      return body;
    },

    /** Applies one submission; a repeated idempotency key with the same action answers the first acknowledgement. */
    submit(auth: AuthContext, submitted: ActionRequest): Record<string, unknown> {
      // What an agent submits (a speech, a bid's message) reaches the table and the record without any known secret.
      const request = { ...submitted, params: secretScrubber().deep(submitted.params) };
      // Only {action, params} identify a submission; unknown top-level keys are ignored and never hashed.
      const payload = canonicalJson({ action: request.action, params: request.params });
      repo.touchAgent(auth.agentId, clock.now());
      const initial = agents.seatOf(auth);
      if (initial) deps.deadlines.expireMatch(initial.matchId);

      let touched: StoredClawMatch | null = null;
      const ack = store.transaction((): Record<string, unknown> => {
        const key = request.idempotency_key;
        if (key !== undefined) {
          const previous = repo.idempotency(auth.agentId, key);
          if (previous) {
            if (previous.payload === payload) return JSON.parse(previous.response);
            throw ClawError.of('idempotency_key_reused', 'this idempotency_key was already used for a different action', {
              field: 'idempotency_key',
            });
          }
        }
        const seat = agents.seatOf(auth);
        const match = seat ? repo.match(seat.matchId) : undefined;
        if (!seat || !match || match.status !== 'playing') {
          const why = match?.status === 'matched' ? 'the match has not started yet' : 'there is no match in progress for this agent';
          throw ClawError.of('no_active_match', why);
        }
        const check = windowCheck(match, seat, request.action_window_id);
        if (check?.code === 'action_already_queued') {
          const sealed = sealedReplay(match, seat, payload);
          if (sealed) return sealed;
        }
        if (check) throw check;
        const game = runtime.gameOf(match);
        if (!game.actions.includes(request.action)) {
          const allowed = seatView(runtime, match, seat.seat).legal.map((a) => a.action);
          throw ClawError.of('unknown_action', `unknown action ${request.action}`, {
            field: 'action',
            invalid_value: request.action,
            allowed_values: allowed,
          });
        }
        const actedIn = windowId(match);
        const result = runtime.submit(match, seat, request.action, request.params);
        if (!result.ok) throw result.error;
        touched = result.match;
        const after = seatView(runtime, result.match, seat.seat);
        const body: Record<string, unknown> = {
          status: 'ok',
          ack_type: `${match.gameType}_action_ack`,
          action: request.action,
          params: request.params,
          match_id: match.matchId,
          action_window_id: actedIn,
          action_pending: after.actionPending,
          match_status: result.match.status,
          event_seq: repo.lastVisibleEventSeq(match.matchId, seat.seat),
          accepted_at: isoUtc(clock.now()),
        };
        if (key !== undefined) repo.putIdempotency(auth.agentId, key, payload, JSON.stringify(body), clock.now());
        return body;
      });
      const changed = touched as StoredClawMatch | null;
      if (changed) {
        deps.signals.changed(changed.matchId);
        if (changed.status === 'finished') deps.signals.finished(changed);
        deps.deadlines.schedule();
      }
      return ack;
    },

    /** Records the watcher's report and answers the agent's current preferences. */
    heartbeat(auth: AuthContext, request: HeartbeatRequest): Record<string, unknown> {
      const now = clock.now();
      const agent = store.transaction(() => {
        const current = agents.agentOf(auth);
        const keep: Record<string, unknown> = {};
        for (const k of HEARTBEAT_FIELDS) if (request[k] !== undefined) keep[k] = request[k];
        repo.recordHeartbeat(current.agentId, now, keep, request.report_sent === true);
        if (request.restart_ack === true) {
          repo.updateAgent({ ...current, preferences: { ...current.preferences, watcher_restart_ack_at: isoUtc(now) } });
        }
        return agents.agentOf(auth);
      });
      const seat = agents.seatOf(auth);
      const match = seat ? repo.match(seat.matchId) : undefined;
      return {
        status: 'ok',
        agent_id: agent.agentId,
        agent_name: agent.name,
        watcher: { status: 'connected', last_seen_at: isoUtcOrNull(agent.lastSeenAt), last_report_at: isoUtcOrNull(agent.lastReportAt) },
        agent_preferences: agentPreferences(agent, match && match.status !== 'finished' ? match.gameType : null),
      };
    },
  };
}

export type Turns = ReturnType<typeof createTurns>;
