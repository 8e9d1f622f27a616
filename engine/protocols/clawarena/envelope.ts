// Builds the GET /agents/game/ response (spec §6.3–§6.6, §7): the seat's projection, legal actions iff it is the
// seat's turn, cursors per (agent, match, context_id), one-shot guidance and the optional v2 decision context.
import type { Briefs, JsonObject, LegalActionSpec } from '../../../games/kit/game.js';
import type { PollQuery } from '../../contract/clawarena.js';
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawAgent, StoredClawContext, StoredClawMatch, StoredClawSeat } from '../../db/store.js';
import { canonicalJson, sha256Hex } from '../../runtime/canonical-json.js';
import { deltaTurn, fullTurn, type StableContent, stableId, type TurnPart } from './decision-context.js';
import type { MatchRuntime } from './match-runtime.js';
import { agentPreferences, guidanceHash, guidanceOf } from './preferences.js';
import { isoUtc } from './timestamps.js';

/** Retained decision states per (agent, match) for session deltas (spec: at least 16). */
export const RETAINED_STATES = 16;
const EVENTS_PER_POLL = 100;

export type Located =
  | { status: 'idle' }
  | { status: 'waiting'; gameType: string; queued: number; needed: number }
  | { status: 'matched' | 'playing' | 'finished'; match: StoredClawMatch; seat: StoredClawSeat; requeued: boolean };

export interface SeatView {
  isYourTurn: boolean;
  actionPending: boolean;
  legal: LegalActionSpec[];
}

export function windowId(match: StoredClawMatch): string {
  return `${match.matchId}:${match.windowSeq}`;
}

/** What the seat may do right now; the single source for "actionable" and for the envelope. */
export function seatView(runtime: MatchRuntime, match: StoredClawMatch, seat: number): SeatView {
  if (match.status !== 'playing') return { isYourTurn: false, actionPending: false, legal: [] };
  const game = runtime.gameOf(match);
  const window = game.window(match.state);
  if (!window) return { isYourTurn: false, actionPending: false, legal: [] };
  const waiting = window.waiting.includes(seat);
  const legal = waiting ? game.legalActions(match.state, seat) : [];
  // Rule 1 of §6.4: legal actions are non-empty exactly when it is the caller's turn.
  const isYourTurn = waiting && legal.length > 0;
  return {
    isYourTurn,
    actionPending: window.kind === 'barrier' && window.actors.includes(seat) && !waiting,
    legal: isYourTurn ? legal : [],
  };
}

function wireAction(spec: LegalActionSpec): Record<string, unknown> {
  return {
    action: spec.action,
    description: spec.description,
    params: spec.params,
    params_schema: spec.params_schema,
    hint: spec.hint,
    // The JSON Schema documents a `hints` array; clients read `hint`. Both carry the same object.
    hints: [spec.hint],
  };
}

export function statusMessage(loc: Located, view: SeatView | null, match: StoredClawMatch | null): string {
  switch (loc.status) {
    case 'idle':
      return 'Not queued: this agent has no lobby game type (arena clawarena agents add <name> --game <game_type>) and no scheduled match.';
    case 'waiting':
      return `Queued for ${loc.gameType}: ${loc.queued} of ${loc.needed} seats filled.`;
    case 'matched':
      return `Seated in match ${match?.matchId}; it starts when every player has connected.`;
    case 'playing':
      if (view?.isYourTurn) return 'Your turn: choose one of legal_actions.';
      if (view?.actionPending) return 'Submission received; waiting for the other players.';
      return 'Waiting for the other players.';
    case 'finished':
      return loc.requeued ? `Match ${match?.matchId} finished; queued for the next one.` : `Match ${match?.matchId} finished.`;
  }
}

export interface EnvelopeDeps {
  store: Store;
  clock: Clock;
  runtime: MatchRuntime;
}

export function buildEnvelope(deps: EnvelopeDeps, agent: StoredClawAgent, loc: Located, query: PollQuery): Record<string, unknown> {
  const repo = deps.store.clawarena;
  const snapshotMode = query.snapshot ?? 'slim';
  const resync = query.resync === '1';
  if (loc.status === 'idle' || loc.status === 'waiting') return queuedEnvelope(agent, loc, snapshotMode, resync);

  const { match, seat } = loc;
  const game = deps.runtime.gameOf(match);
  const view = seatView(deps.runtime, match, seat.seat);
  const playing = match.status === 'playing';
  const deadline = playing && match.deadlineAt !== null ? isoUtc(match.deadlineAt) : null;
  const state: JsonObject = { ...game.project(match.state, seat.seat), is_your_turn: view.isYourTurn, turn_deadline: deadline };
  // A game with a slim projection serves it for snapshot=slim; cursors, seq and decision context v2 use the full one.
  let shownState: JsonObject =
    snapshotMode === 'slim' && game.projectSlim
      ? { ...game.projectSlim(match.state, seat.seat), is_your_turn: view.isYourTurn, turn_deadline: deadline }
      : state;
  const legal = view.legal.map(wireAction);
  const briefs = game.briefs(match.state, seat.seat);

  const cursors = openCursors(repo, agent, match, query, resync);
  const { context } = cursors;
  if (snapshotMode === 'slim' && game.slimLogs) {
    const slim = slimDeltas(shownState, game.slimLogs(match.state, seat.seat), resync ? {} : (context.slimCursors ?? {}));
    shownState = slim.state;
    if (query.consume_history === '1') context.slimCursors = slim.cursors;
  }
  const events = eventsSince(repo, match, query, context);
  const { guidance, prefs } = deliverGuidance(repo, agent, match, seat, query, resync);
  const stateSeq = nextStateSeq(repo, agent, match, state);

  const envelope: Record<string, unknown> = {
    status: match.status,
    is_your_turn: view.isYourTurn,
    match_id: match.matchId,
    game_type: match.gameType,
    seq: `${match.matchId}-${sha256Hex(canonicalJson({ state, legal, pending: view.actionPending, status: match.status })).slice(0, 16)}`,
    action_window_id: windowId(match),
    event_seq: repo.lastVisibleEventSeq(match.matchId, seat.seat),
    action_pending: view.actionPending,
    snapshot_mode: snapshotMode,
    resynced: resync,
    report_important: match.status === 'finished',
    legal_actions: legal,
    state: shownState,
    game_rules_brief: briefs.rules,
    agent_preferences: prefs,
    events,
    message: statusMessage(loc, view, match),
  };
  if (deadline) envelope.turn_deadline = deadline;
  if (briefs.strategy) envelope.strategy_brief = briefs.strategy;
  if (match.status === 'finished') {
    envelope.result = match.result;
    envelope.summary = match.summary;
  }
  if (query.decision_context_version === '2') {
    envelope.decision_context = decisionContext(repo, agent, match, query, { resync, context, stateSeq, state, briefs, guidance });
  }
  saveCursors(deps, agent, match, cursors);
  return envelope;
}

/** Idle or queued: no match yet, so nothing to project and no cursors to keep. */
function queuedEnvelope(
  agent: StoredClawAgent,
  loc: Extract<Located, { status: 'idle' | 'waiting' }>,
  snapshotMode: string,
  resync: boolean,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    status: loc.status,
    is_your_turn: false,
    action_pending: false,
    seq: loc.status === 'idle' ? 'idle' : `waiting:${loc.gameType}`,
    snapshot_mode: snapshotMode,
    resynced: resync,
    report_important: false,
    legal_actions: [],
    events: [],
    agent_preferences: agentPreferences(agent, loc.status === 'waiting' ? loc.gameType : null),
    message: statusMessage(loc, null, null),
  };
  if (loc.status === 'waiting') base.game_type = loc.gameType;
  return base;
}

type ClawRepo = Store['clawarena'];

/** The poll's cursors as stored, and the copy this poll moves forward. */
interface Cursors {
  key: string;
  stored: StoredClawContext | undefined;
  context: StoredClawContext;
  freshReset: boolean;
  slimBefore: string;
}

/** Cursors per (agent, match, context_id). A repeated resync with the same id replays without resetting. */
function openCursors(repo: ClawRepo, agent: StoredClawAgent, match: StoredClawMatch, query: PollQuery, resync: boolean): Cursors {
  const key = query.context_id ?? '';
  const stored = repo.context(agent.agentId, match.matchId, key);
  let context: StoredClawContext = stored ? { ...stored } : { historyCursor: 0, stableId: null, resynced: false };
  const freshReset = resync && !stored?.resynced;
  if (freshReset) context = { historyCursor: 0, stableId: null, resynced: true };
  return { key, stored, context, freshReset, slimBefore: JSON.stringify(context.slimCursors ?? {}) };
}

/** Public events after the cursor (or since_seq); a consuming read moves the cursor past them. */
function eventsSince(repo: ClawRepo, match: StoredClawMatch, query: PollQuery, context: StoredClawContext): Record<string, unknown>[] {
  const since = query.since_seq !== undefined ? Number(query.since_seq) : context.historyCursor;
  const events = repo.publicEvents(match.matchId, since, EVENTS_PER_POLL).map((e) => ({
    ...e.data,
    event_seq: e.eventSeq,
    type: e.type,
    is_auto: e.isAuto,
    created_at: isoUtc(e.createdAt),
  }));
  if (query.consume_history === '1' && events.length > 0) {
    context.historyCursor = Math.max(context.historyCursor, (events.at(-1) as { event_seq: number }).event_seq);
  }
  return events;
}

/**
 * One-shot owner guidance: delivered when opted in, once per match or change, and again on resync. Also marks a
 * finished match as seen by the seat.
 */
function deliverGuidance(
  repo: ClawRepo,
  agent: StoredClawAgent,
  match: StoredClawMatch,
  seat: StoredClawSeat,
  query: PollQuery,
  resync: boolean,
): { guidance: ReturnType<typeof guidanceOf>; prefs: ReturnType<typeof agentPreferences> } {
  const guidance = guidanceOf(agent);
  const prefs = agentPreferences(agent, match.gameType);
  let seatUpdate: StoredClawSeat | null = null;
  if (query.consume_preferences === '1') {
    const hash = guidanceHash(guidance);
    const hasGuidance = guidance.strategyHint !== null || guidance.riskProfile !== null;
    if (hash !== seat.guidanceHash || resync) {
      if (hasGuidance) {
        if (guidance.strategyHint) prefs.current_strategy_hint = guidance.strategyHint;
        if (guidance.riskProfile) prefs.current_risk_profile = guidance.riskProfile;
      } else if (seat.guidanceHash !== null && hash !== seat.guidanceHash) {
        prefs.current_strategy_hint_cleared = true;
      }
      seatUpdate = { ...seat, guidanceHash: hash };
    }
  }
  if (match.status === 'finished' && !seat.finishedSeen) seatUpdate = { ...(seatUpdate ?? seat), finishedSeen: true };
  if (seatUpdate) repo.updateSeat(seatUpdate);
  return { guidance, prefs };
}

/** state_seq: 1 for the first projection of the match, +1 whenever the projected state's canonical bytes change. */
function nextStateSeq(repo: ClawRepo, agent: StoredClawAgent, match: StoredClawMatch, state: JsonObject): number {
  const canonicalState = canonicalJson(state);
  const checksumHex = sha256Hex(canonicalState);
  const latest = repo.latestState(agent.agentId, match.matchId);
  let stateSeq = latest?.stateSeq ?? 0;
  if (!latest || latest.checksum !== checksumHex) {
    stateSeq++;
    repo.pushState(agent.agentId, match.matchId, stateSeq, checksumHex, canonicalState, RETAINED_STATES);
  }
  return stateSeq;
}

/** Decision context v2: the stable part when it changed (always when stateless), and the turn, as a delta when acked. */
function decisionContext(
  repo: ClawRepo,
  agent: StoredClawAgent,
  match: StoredClawMatch,
  query: PollQuery,
  now: {
    resync: boolean;
    context: StoredClawContext;
    stateSeq: number;
    state: JsonObject;
    briefs: Briefs;
    guidance: ReturnType<typeof guidanceOf>;
  },
): Record<string, unknown> {
  const { resync, context, stateSeq, state, briefs, guidance } = now;
  const profile = query.decision_context_profile ?? 'stateless';
  const content: StableContent = {
    game_type: match.gameType,
    rules: briefs.rules,
    strategy: briefs.strategy,
    user_preferences: { strategy_hint: guidance.strategyHint, risk_profile: guidance.riskProfile },
    message_language: guidance.messageLanguage,
  };
  const id = stableId(content);
  const sendStable = profile === 'stateless' || resync || context.stableId !== id;
  let turn: TurnPart = fullTurn(stateSeq, state);
  if (profile === 'session' && !resync && query.state_ack !== undefined) {
    const ack = Number(query.state_ack);
    const base = ack <= stateSeq ? repo.stateAt(agent.agentId, match.matchId, ack) : undefined;
    if (base) turn = deltaTurn(stateSeq, ack, JSON.parse(base.state) as JsonObject, state);
  }
  if (profile !== 'stateless') context.stableId = id;
  return {
    version: 2,
    profile,
    context_id: query.context_id ?? null,
    stable: sendStable ? { id, ...content } : { id, unchanged: true },
    turn,
  };
}

/** Stores the cursors only when this poll moved them (or created or reset them). */
function saveCursors(deps: EnvelopeDeps, agent: StoredClawAgent, match: StoredClawMatch, cursors: Cursors): void {
  const { stored, context, freshReset, slimBefore, key } = cursors;
  const slimChanged = JSON.stringify(context.slimCursors ?? {}) !== slimBefore;
  if (!stored || freshReset || slimChanged || stored.historyCursor !== context.historyCursor || stored.stableId !== context.stableId) {
    deps.store.clawarena.putContext(agent.agentId, match.matchId, key, context, deps.clock.now());
  }
}

/**
 * Slim conventions for append-only logs (spec §6.6): a context that has consumed none of log K gets the full K with
 * `K_mode: "full"`; later, only new entries as `K_delta` with `K_mode: "delta"`; nothing new, neither key. `cursors`
 * are what a consuming read has then seen.
 */
function slimDeltas(
  state: JsonObject,
  totals: Record<string, number>,
  seen: Record<string, number>,
): { state: JsonObject; cursors: Record<string, number> } {
  const out: JsonObject = { ...state };
  const cursors: Record<string, number> = { ...seen };
  for (const [key, total] of Object.entries(totals)) {
    const shown = out[key];
    if (!Array.isArray(shown)) continue;
    const before = seen[key];
    cursors[key] = total;
    if (before === undefined) {
      out[`${key}_mode`] = 'full';
      continue;
    }
    delete out[key];
    const fresh = Math.min(Math.max(0, total - before), shown.length);
    if (fresh > 0) {
      out[`${key}_delta`] = shown.slice(shown.length - fresh);
      out[`${key}_mode`] = 'delta';
    }
  }
  return { state: out, cursors };
}
