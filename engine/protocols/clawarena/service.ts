// The ClawArena service: agent provisioning and tokens, the local lobby, long-polls, action submission with
// idempotency, deadlines on the injected clock, and createMatch() for the tournament scheduler.
import { type AnyGameRules, GAMES } from '../../../games/index.js';
import type { JsonObject, Seat } from '../../../games/kit/game.js';
import {
  ActionRequestSchema,
  HeartbeatRequestSchema,
  type PollQuery,
  PollQuerySchema,
  ProvisionRequestSchema,
} from '../../contract/clawarena.js';
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawAgent, StoredClawMatch, StoredClawSeat } from '../../db/store.js';
import { canonicalJson } from './canonical-json.js';
import { buildEnvelope, type Located, seatView, windowId } from './envelope.js';
import { ClawError } from './errors.js';
import { createMatchRuntime } from './match-runtime.js';
import { agentPreferences } from './preferences.js';
import { GRACE_SECONDS, MAX_WAIT_SECONDS, schemaDocument } from './schema-document.js';
import { isoUtc, isoUtcOrNull } from './timestamps.js';
import { hashSecret, mintToken, parseToken } from './tokens.js';
import { createWaiters } from './waiters.js';

export interface ClawArenaServiceOptions {
  store: Store;
  clock: Clock;
  /** HMAC-derived seed for a named purpose (engine secret); lobby matches draw their seed from it. */
  seed(purpose: string): string;
  version: string;
  games?: ReadonlyMap<string, AnyGameRules>;
  /** Real timers for deadlines; tests with a manual clock call tick() instead. Default true. */
  timers?: boolean;
  /** How long a scheduled match waits for all seats to connect before it starts anyway. Default 120 s. */
  startTimeoutMs?: number;
}

export interface AuthContext {
  agentId: number;
  /** A token minted for one scheduled match sees only that match and never enters the lobby. */
  scopeMatchId: number | null;
  secretHash: string;
}

export interface ScheduledSeat {
  /** An existing ClawArena agent; omit it to provision one named `name` (or reuse the agent of that name). */
  agentId?: number;
  name?: string;
}

export interface CreateMatchRequest {
  gameType: string;
  seats: ScheduledSeat[];
  seed?: string;
  options?: JsonObject;
  /** Start only once every seat has connected (default true); false starts at once. */
  waitForConnect?: boolean;
  startTimeoutMs?: number;
}

export interface CreatedMatch {
  matchId: number;
  gameType: string;
  seats: { seat: number; agentId: number; name: string; token: string }[];
}

export interface FinishedMatch {
  matchId: number;
  gameType: string;
  origin: 'lobby' | 'scheduled';
  result: Record<string, unknown> | null;
  summary: Record<string, unknown> | null;
}

type Reply = { status: number; body: Record<string, unknown> };

const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;

function parseWindowId(value: unknown, matchId: number): number | 'other' | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const m = /^(\d+):(\d+)$/.exec(text);
  if (!m || Number(m[1]) !== matchId) return 'other';
  return Number(m[2]);
}

export function createClawArenaService(options: ClawArenaServiceOptions) {
  const { store, clock } = options;
  const repo = store.clawarena;
  const games = options.games ?? GAMES;
  const runtime = createMatchRuntime({ store, clock, games });
  const waiters = createWaiters();
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const finishedListeners = new Set<(match: FinishedMatch) => void>();
  /** Last (status, match) returned per token, for the long-poll's "changed since the last poll" rule. */
  const lastPolled = new Map<string, { status: string; matchId: number | null }>();
  let baseUrls: { http: string | null; https: string | null } = { http: null, https: null };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  // --- agents and tokens ------------------------------------------------------------------------------------

  function validateName(name: string): string {
    const trimmed = name.trim();
    if (!NAME_PATTERN.test(trimmed)) {
      throw ClawError.of('invalid_payload', 'agent names are 1-64 letters, digits, spaces, dots, dashes or underscores', { field: 'name' });
    }
    return trimmed;
  }

  function createAgent(spec: {
    name: string;
    preferredGameType?: string | null;
    runtimeKind?: string | null;
    preferences?: Record<string, unknown>;
  }): { agent: StoredClawAgent; token: string } {
    const name = validateName(spec.name);
    if (spec.preferredGameType && !games.has(spec.preferredGameType)) {
      throw ClawError.of('invalid_payload', `unknown game type ${spec.preferredGameType}`, { allowed_values: [...games.keys()] });
    }
    return store.transaction(() => {
      if (repo.agentByName(name)) throw ClawError.of('name_taken', `an agent named ${name} already exists`, { field: 'name' });
      const agent = repo.insertAgent({
        name,
        createdAt: clock.now(),
        preferredGameType: spec.preferredGameType ?? null,
        runtimeKind: spec.runtimeKind ?? null,
        preferences: spec.preferences ?? {},
      });
      return { agent, token: issueToken(agent.agentId, null) };
    });
  }

  /** Mints a token; an unscoped one replaces the agent's previous unscoped tokens. */
  function issueToken(agentId: number, matchId: number | null): string {
    const { token, secretHash } = mintToken(agentId);
    store.transaction(() => {
      if (matchId === null) repo.revokeUnscopedTokens(agentId, clock.now());
      repo.insertToken(secretHash, agentId, matchId, clock.now());
    });
    return token;
  }

  function authenticate(authorization: string | string[] | undefined): AuthContext | null {
    if (typeof authorization !== 'string') return null;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const parsed = parseToken(match?.[1]);
    if (!parsed) return null;
    const secretHash = hashSecret(parsed.secret);
    const token = repo.token(secretHash);
    if (!token || token.revokedAt !== null || token.agentId !== parsed.agentId) return null;
    return { agentId: token.agentId, scopeMatchId: token.matchId, secretHash };
  }

  function agentOf(auth: AuthContext): StoredClawAgent {
    const agent = repo.agent(auth.agentId);
    if (!agent) throw ClawError.of('unauthorized', 'unknown agent');
    return agent;
  }

  // --- notifications and deadlines ----------------------------------------------------------------------------

  function notifyMatch(matchId: number): void {
    waiters.notify(repo.seats(matchId).map((s) => s.agentId));
  }

  function announceFinished(match: StoredClawMatch): void {
    const payload: FinishedMatch = {
      matchId: match.matchId,
      gameType: match.gameType,
      origin: match.origin,
      result: match.result,
      summary: match.summary,
    };
    for (const listener of [...finishedListeners]) {
      try {
        listener(payload);
      } catch {
        // A failing observer must not break the agent API.
      }
    }
  }

  /** Applies due deadlines of one match; returns the reloaded match. */
  function expireMatch(matchId: number): StoredClawMatch | undefined {
    const before = repo.match(matchId);
    if (!before || before.status === 'finished') return before;
    const changed = store.transaction(() => {
      const match = repo.match(matchId) as StoredClawMatch;
      return runtime.expire(match);
    });
    const after = repo.match(matchId);
    if (changed && after) {
      notifyMatch(matchId);
      if (after.status === 'finished') announceFinished(after);
    }
    return after;
  }

  function tick(): void {
    if (closed) return;
    for (const matchId of repo.dueMatchIds(clock.now())) expireMatch(matchId);
    schedule();
  }

  function schedule(): void {
    if (options.timers === false || closed) return;
    if (timer) clearTimeout(timer);
    const next = repo.nextDeadline();
    if (next === null) {
      timer = undefined;
      return;
    }
    // Re-check at least every 30 s, so a clock that jumps is noticed.
    const delay = Math.min(Math.max(0, next - clock.now()) + 5, 30_000);
    timer = setTimeout(tick, delay);
    timer.unref?.();
  }

  // --- lobby and seating --------------------------------------------------------------------------------------

  function tryLobbyMatch(gameType: string): StoredClawMatch | null {
    const game = games.get(gameType);
    if (!game) return null;
    const now = clock.now();
    const live: number[] = [];
    for (const entry of repo.queue(gameType)) {
      // An agent that stopped polling (a kit that exited) is not seated with a live one.
      if (entry.lastSeenAt === null || now - entry.lastSeenAt > GRACE_SECONDS * 1000) repo.dequeue(entry.agentId);
      else live.push(entry.agentId);
    }
    if (live.length < game.players.default) return null;
    const chosen = live.slice(0, game.players.default);
    const seats: Seat[] = chosen.map((agentId) => ({ agentId, name: (repo.agent(agentId) as StoredClawAgent).name }));
    for (const agentId of chosen) repo.dequeue(agentId);
    const match = runtime.create({
      gameType,
      origin: 'lobby',
      seats,
      seed: options.seed(`clawarena:lobby:${gameType}:${now}:${chosen.join(',')}`),
      options: {},
      startDeadlineAt: null,
    });
    runtime.start(match);
    return match;
  }

  /** Where the caller stands: processes due deadlines, connects its seat, and queues lobby agents. */
  function locate(auth: AuthContext): { loc: Located; seated: number | null } {
    let seatedMatch: number | null = null;
    const scoped = auth.scopeMatchId;
    const seatNow = () => (scoped !== null ? repo.seatOfAgent(scoped, auth.agentId) : repo.latestSeatOfAgent(auth.agentId));
    const initial = seatNow();
    if (initial) expireMatch(initial.matchId);
    const loc = store.transaction((): Located => {
      const agent = agentOf(auth);
      let seat = seatNow();
      let match = seat ? repo.match(seat.matchId) : undefined;
      if (seat && match && seat.connectedAt === null) {
        seat = { ...seat, connectedAt: clock.now() };
        repo.updateSeat(seat);
        if (match.status === 'matched' && repo.seats(match.matchId).every((s) => s.connectedAt !== null)) {
          runtime.start(match);
          seatedMatch = match.matchId;
        }
      }
      let requeued = false;
      const lobbyType = scoped === null ? agent.preferredGameType : null;
      if (lobbyType && games.has(lobbyType) && (!match || match.status === 'finished')) {
        // A finished match is shown at least once before the agent is queued again, so a client that stops
        // after one match is not seated in a match it will never play.
        if (!match || seat?.finishedSeen) {
          repo.enqueue(agent.agentId, lobbyType, clock.now());
          const created = tryLobbyMatch(lobbyType);
          if (created) {
            seatedMatch = created.matchId;
            seat = seatNow();
            match = seat ? repo.match(seat.matchId) : undefined;
          }
        }
        requeued = repo.queued(agent.agentId) !== undefined;
      }
      if (seat && match) return { status: match.status, match, seat, requeued };
      const queued = repo.queued(agent.agentId);
      if (queued) {
        const needed = games.get(queued.gameType)?.players.default ?? 0;
        return { status: 'waiting', gameType: queued.gameType, queued: repo.queue(queued.gameType).length, needed };
      }
      return { status: 'idle' };
    });
    return { loc, seated: seatedMatch };
  }

  function actionable(loc: Located): boolean {
    if (loc.status !== 'playing') return false;
    const view = seatView(runtime, loc.match, loc.seat.seat);
    return view.isYourTurn && !view.actionPending;
  }

  function locatedKey(loc: Located): { status: string; matchId: number | null } {
    return { status: loc.status, matchId: 'match' in loc ? loc.match.matchId : null };
  }

  function locateAndNotify(auth: AuthContext): Located {
    const { loc, seated } = locate(auth);
    if (seated !== null) {
      notifyMatch(seated);
      schedule();
    }
    return loc;
  }

  // --- routes -------------------------------------------------------------------------------------------------

  function parseQuery(raw: unknown): PollQuery {
    const parsed = PollQuerySchema.safeParse(raw ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? 'query');
      throw ClawError.of('invalid_payload', `invalid query parameter ${field}: ${issue?.message ?? 'invalid'}`, { field });
    }
    return parsed.data;
  }

  async function poll(auth: AuthContext, rawQuery: unknown, signal?: AbortSignal): Promise<Reply> {
    const query = parseQuery(rawQuery);
    repo.touchAgent(auth.agentId, clock.now());
    const waitMs = Number(query.wait ?? MAX_WAIT_SECONDS) * 1000;
    let loc = locateAndNotify(auth);
    const memoKey = auth.secretHash;
    const last = lastPolled.get(memoKey);
    const changedSince = (l: Located) => !last || last.status !== l.status || last.matchId !== locatedKey(l).matchId;
    if (waitMs > 0 && !actionable(loc) && !changedSince(loc)) {
      const until = Date.now() + waitMs;
      while (!closed && !signal?.aborted) {
        const remaining = until - Date.now();
        if (remaining <= 0) break;
        await waiters.wait(auth.agentId, remaining, signal);
        if (closed || signal?.aborted) break;
        loc = locateAndNotify(auth);
        if (actionable(loc) || changedSince(loc)) break;
      }
      loc = locateAndNotify(auth);
    }
    const agent = agentOf(auth);
    const body = store.transaction(() => buildEnvelope({ store, clock, runtime }, agent, loc, query));
    lastPolled.set(memoKey, locatedKey(loc));
    return { status: 200, body };
  }

  function submitAction(auth: AuthContext, rawBody: unknown): Reply {
    if (rawBody === null || typeof rawBody !== 'object' || Array.isArray(rawBody)) {
      throw ClawError.of('invalid_payload', 'the body must be a JSON object {action, params, idempotency_key?}');
    }
    const parsed = ActionRequestSchema.safeParse(rawBody);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? 'body');
      throw ClawError.of('invalid_payload', `invalid ${field}: ${issue?.message ?? 'invalid'}`, { field });
    }
    const body = parsed.data;
    // Only {action, params} identify a submission; unknown top-level keys are ignored and never hashed.
    const payload = canonicalJson({ action: body.action, params: body.params });
    repo.touchAgent(auth.agentId, clock.now());

    const initial = auth.scopeMatchId !== null ? repo.seatOfAgent(auth.scopeMatchId, auth.agentId) : repo.latestSeatOfAgent(auth.agentId);
    if (initial) expireMatch(initial.matchId);

    let touched: StoredClawMatch | null = null;
    const reply = store.transaction((): Reply => {
      const key = body.idempotency_key;
      if (key !== undefined) {
        const previous = repo.idempotency(auth.agentId, key);
        if (previous) {
          if (previous.payload === payload) return { status: 200, body: JSON.parse(previous.response) };
          throw ClawError.of('idempotency_key_reused', 'this idempotency_key was already used for a different action', {
            field: 'idempotency_key',
          });
        }
      }
      const seat = auth.scopeMatchId !== null ? repo.seatOfAgent(auth.scopeMatchId, auth.agentId) : repo.latestSeatOfAgent(auth.agentId);
      const match = seat ? repo.match(seat.matchId) : undefined;
      if (!seat || !match || match.status !== 'playing') {
        const why = match?.status === 'matched' ? 'the match has not started yet' : 'there is no match in progress for this agent';
        throw ClawError.of('no_active_match', why);
      }
      const check = windowCheck(match, seat, body.action_window_id);
      if (check) throw check;
      const game = runtime.gameOf(match);
      if (!game.actions.includes(body.action)) {
        const allowed = seatView(runtime, match, seat.seat).legal.map((a) => a.action);
        throw ClawError.of('unknown_action', `unknown action ${body.action}`, {
          field: 'action',
          invalid_value: body.action,
          allowed_values: allowed,
        });
      }
      const actedIn = windowId(match);
      const result = runtime.submit(match, seat, body.action, body.params);
      if (!result.ok) throw result.error;
      touched = result.match;
      const after = seatView(runtime, result.match, seat.seat);
      const ack: Record<string, unknown> = {
        status: 'ok',
        ack_type: `${match.gameType}_action_ack`,
        action: body.action,
        params: body.params,
        match_id: match.matchId,
        action_window_id: actedIn,
        action_pending: after.actionPending,
        match_status: result.match.status,
        event_seq: repo.lastVisibleEventSeq(match.matchId, seat.seat),
        accepted_at: isoUtc(clock.now()),
      };
      if (key !== undefined) repo.putIdempotency(auth.agentId, key, payload, JSON.stringify(ack), clock.now());
      return { status: 200, body: ack };
    });
    const changed = touched as StoredClawMatch | null;
    if (changed) {
      notifyMatch(changed.matchId);
      if (changed.status === 'finished') announceFinished(changed);
      schedule();
    }
    return reply;
  }

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

  function heartbeat(auth: AuthContext, rawBody: unknown): Reply {
    const input = rawBody === undefined || rawBody === null || typeof rawBody !== 'object' || Array.isArray(rawBody) ? {} : rawBody;
    const parsed = HeartbeatRequestSchema.safeParse(input);
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? 'body');
      throw ClawError.of('invalid_payload', `invalid heartbeat field ${field}`, { field });
    }
    const body = parsed.data;
    const now = clock.now();
    const agent = store.transaction(() => {
      const current = agentOf(auth);
      const keep: Record<string, unknown> = {};
      for (const k of [
        'status',
        'feed_status',
        'error',
        'client',
        'brain',
        'client_version',
        'skill_slug',
        'skill_version',
        'watcher_protocol_version',
      ]) {
        if (body[k] !== undefined) keep[k] = body[k];
      }
      repo.recordHeartbeat(current.agentId, now, keep, body.report_sent === true);
      if (body.restart_ack === true) {
        repo.updateAgent({ ...current, preferences: { ...current.preferences, watcher_restart_ack_at: isoUtc(now) } });
      }
      return agentOf(auth);
    });
    const seat = auth.scopeMatchId !== null ? repo.seatOfAgent(auth.scopeMatchId, auth.agentId) : repo.latestSeatOfAgent(auth.agentId);
    const match = seat ? repo.match(seat.matchId) : undefined;
    return {
      status: 200,
      body: {
        status: 'ok',
        agent_id: agent.agentId,
        agent_name: agent.name,
        watcher: { status: 'connected', last_seen_at: isoUtcOrNull(agent.lastSeenAt), last_report_at: isoUtcOrNull(agent.lastReportAt) },
        agent_preferences: agentPreferences(agent, match && match.status !== 'finished' ? match.gameType : null),
      },
    };
  }

  function provision(rawBody: unknown): Reply {
    // An empty body is allowed (every field is optional); a body that is not JSON fails the schema.
    const parsed = ProvisionRequestSchema.safeParse(rawBody === undefined || rawBody === null ? {} : rawBody);
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? 'body');
      throw ClawError.of('invalid_payload', `invalid provision request (${field})`, { field });
    }
    {
      const name = parsed.data.name ?? `agent-${repo.agents().length + 1}-${Math.floor(clock.now() % 100000)}`;
      const preferences: Record<string, unknown> = parsed.data.color ? { color: parsed.data.color } : {};
      const { agent, token } = createAgent({ name, runtimeKind: parsed.data.runtime_kind ?? null, preferences });
      const origin = baseUrls.http ?? 'http://127.0.0.1';
      const body: Record<string, unknown> = {
        agent_id: agent.agentId,
        agent_name: agent.name,
        connection_token: token,
        claim_url: `${origin}/#/clawarena/agents/${agent.agentId}`,
        message: 'Local agent created. It joins the lobby once a game type is set: arena clawarena agents set <name> --game <game_type>.',
      };
      if (agent.runtimeKind) body.runtime_kind = agent.runtimeKind;
      return { status: 201, body };
    }
  }

  // --- scheduler API ------------------------------------------------------------------------------------------

  function createMatch(request: CreateMatchRequest): CreatedMatch {
    const game = games.get(request.gameType);
    if (!game) throw ClawError.of('invalid_payload', `unknown game type ${request.gameType}`, { allowed_values: [...games.keys()] });
    if (request.seats.length < game.players.min || request.seats.length > game.players.max) {
      throw ClawError.of(
        'invalid_payload',
        `${request.gameType} needs ${game.players.min}-${game.players.max} seats, got ${request.seats.length}`,
      );
    }
    const created = store.transaction(() => {
      const seats: Seat[] = request.seats.map((spec) => {
        if (spec.agentId !== undefined) {
          const agent = repo.agent(spec.agentId);
          if (!agent) throw ClawError.of('invalid_payload', `no ClawArena agent ${spec.agentId}`);
          return { agentId: agent.agentId, name: agent.name };
        }
        if (!spec.name) throw ClawError.of('invalid_payload', 'each seat needs an agentId or a name');
        const existing = repo.agentByName(spec.name.trim());
        const agent = existing ?? createAgent({ name: spec.name }).agent;
        return { agentId: agent.agentId, name: agent.name };
      });
      if (new Set(seats.map((s) => s.agentId)).size !== seats.length)
        throw ClawError.of('invalid_payload', 'an agent can hold only one seat per match');
      for (const s of seats) repo.dequeue(s.agentId);
      const waitForConnect = request.waitForConnect ?? true;
      const match = runtime.create({
        gameType: request.gameType,
        origin: 'scheduled',
        seats,
        seed:
          request.seed ?? options.seed(`clawarena:scheduled:${request.gameType}:${clock.now()}:${seats.map((s) => s.agentId).join(',')}`),
        options: request.options ?? {},
        startDeadlineAt: waitForConnect ? clock.now() + (request.startTimeoutMs ?? startTimeoutMs) : null,
      });
      if (!waitForConnect) runtime.start(match);
      return {
        matchId: match.matchId,
        gameType: match.gameType,
        seats: seats.map((s, seat) => ({ seat, agentId: s.agentId, name: s.name, token: issueToken(s.agentId, match.matchId) })),
      };
    });
    notifyMatch(created.matchId);
    schedule();
    return created;
  }

  function matchView(matchId: number) {
    const match = repo.match(matchId);
    if (!match) return undefined;
    const game = runtime.gameOf(match);
    return {
      matchId: match.matchId,
      gameType: match.gameType,
      origin: match.origin,
      status: match.status,
      seats: repo
        .seats(matchId)
        .map((s) => ({ seat: s.seat, agentId: s.agentId, name: s.name, placement: s.placement, connected: s.connectedAt !== null })),
      actionWindowId: windowId(match),
      deadlineAt: match.deadlineAt,
      publicState: game.spectate(match.state),
      result: match.result,
      summary: match.summary,
    };
  }

  schedule();

  return {
    games,
    schemaDocument: () => schemaDocument(games, options.version),
    authenticate,
    createAgent,
    issueToken,
    agent: (agentId: number) => repo.agent(agentId),
    agentByName: (name: string) => repo.agentByName(name),
    agents: () => repo.agents(),
    /** Changes lobby game type and owner guidance; pass only what changes. */
    updateAgent(agentId: number, patch: { preferredGameType?: string | null; preferences?: Record<string, unknown> }): StoredClawAgent {
      return store.transaction(() => {
        const agent = repo.agent(agentId);
        if (!agent) throw ClawError.of('invalid_payload', `no ClawArena agent ${agentId}`);
        if (patch.preferredGameType && !games.has(patch.preferredGameType))
          throw ClawError.of('invalid_payload', `unknown game type ${patch.preferredGameType}`);
        const next = {
          ...agent,
          preferredGameType: patch.preferredGameType === undefined ? agent.preferredGameType : patch.preferredGameType,
          preferences: patch.preferences ? { ...agent.preferences, ...patch.preferences } : agent.preferences,
        };
        repo.updateAgent(next);
        if (next.preferredGameType !== agent.preferredGameType) repo.dequeue(agentId);
        return repo.agent(agentId) as StoredClawAgent;
      });
    },
    heartbeat,
    poll,
    submitAction,
    provision,
    dailyBonus: (): Reply => ({ status: 200, body: { amount: '0', balance: 0 } }),
    createMatch,
    match: matchView,
    matchEvents: (matchId: number) => repo.events(matchId),
    recentMatches: (limit = 50) => repo.recentMatches(limit).map((m) => matchView(m.matchId)),
    revokeMatchTokens: (matchId: number) => repo.revokeMatchTokens(matchId, clock.now()),
    onMatchFinished(listener: (match: FinishedMatch) => void): () => void {
      finishedListeners.add(listener);
      return () => finishedListeners.delete(listener);
    },
    /** The environment a launched client needs (the runner adds it to the agent's allow-listed environment). */
    agentEnvironment(token: string, preferHttps = false): Record<string, string> {
      const base = preferHttps && baseUrls.https ? baseUrls.https : (baseUrls.http ?? baseUrls.https);
      if (!base) throw new Error('the ClawArena service has no listening address yet');
      const url = `${base}/api/v1`;
      return { CLAWARENA_BASE_URL: url, CLAWARENA_BASE: url, CLAWARENA_CONNECTION_TOKEN: token };
    },
    setBaseUrls(urls: { http: string | null; https?: string | null }): void {
      baseUrls = { http: urls.http, https: urls.https ?? null };
    },
    baseUrls: () => ({ ...baseUrls }),
    /** Applies every due deadline now (timers call this; tests with a manual clock call it directly). */
    tick,
    /** Parked long-polls, for tests. */
    waitingPolls: () => waiters.waiting(),
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      waiters.close();
    },
  };
}

export type ClawArenaService = ReturnType<typeof createClawArenaService>;
