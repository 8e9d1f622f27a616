// Runs ClawArena matches on top of the game rules: opens decision windows with deadlines, applies submissions and
// timeout defaults (flagged is_auto), appends the event log and finishes matches. Call inside a store transaction.
import type { AnyGameRules } from '../../../games/index.js';
import type { GameEvent, JsonObject, Seat } from '../../../games/kit/game.js';
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawMatch, StoredClawSeat } from '../../db/store.js';
import { ClawError } from './errors.js';

export interface RuntimeDeps {
  store: Store;
  clock: Clock;
  games: ReadonlyMap<string, AnyGameRules>;
}

export interface NewMatch {
  gameType: string;
  origin: 'lobby' | 'scheduled';
  seats: Seat[];
  seed: string;
  options: JsonObject;
  /** Lobby matches start at once; scheduled ones wait for every seat to connect (or for this time). */
  startDeadlineAt: number | null;
}

export type SubmitResult = { ok: true; match: StoredClawMatch } | { ok: false; error: ClawError };

// Kept whole: short named methods sharing the runtime state, read like a class.
export function createMatchRuntime(deps: RuntimeDeps) {
  const repo = deps.store.clawarena;

  function gameOf(match: StoredClawMatch): AnyGameRules {
    const game = deps.games.get(match.gameType);
    if (!game) throw new Error(`match ${match.matchId} has unknown game type ${match.gameType}`);
    return game;
  }

  function timeoutMs(match: StoredClawMatch, game: AnyGameRules, timeoutClass: string): number {
    const overrides = match.options.timeouts_ms;
    if (overrides && typeof overrides === 'object') {
      const value = (overrides as Record<string, unknown>)[timeoutClass];
      if (typeof value === 'number' && value > 0) return value;
    }
    return game.timeouts[timeoutClass] ?? 60_000;
  }

  function record(match: StoredClawMatch, events: readonly GameEvent[], isAuto: boolean): void {
    const now = deps.clock.now();
    for (const event of events) {
      repo.appendEvent(match.matchId, { type: event.type, isAuto, visibility: event.visibility, data: event.data, createdAt: now });
    }
  }

  /** Re-reads the game's window; a new key opens a new window (new id, new deadline, offered to its actors). */
  function syncWindow(match: StoredClawMatch): void {
    const game = gameOf(match);
    const window = game.window(match.state);
    if (!window) {
      finish(match);
      return;
    }
    if (window.key === match.windowKey) return;
    const now = deps.clock.now();
    match.windowSeq++;
    match.windowKey = window.key;
    match.windowOpenedAt = now;
    match.deadlineAt = now + timeoutMs(match, game, window.timeout);
    for (const seat of repo.seats(match.matchId)) {
      if (window.actors.includes(seat.seat)) repo.updateSeat({ ...seat, offeredWindow: match.windowSeq });
    }
  }

  function finish(match: StoredClawMatch): void {
    const game = gameOf(match);
    const outcome = game.outcome(match.state);
    const now = deps.clock.now();
    const seats = repo.seats(match.matchId);
    match.status = 'finished';
    match.finishedAt = now;
    match.deadlineAt = null;
    match.windowKey = null;
    const placements = seats.map((s) => ({
      agent_id: s.agentId,
      name: s.name,
      slot: s.seat,
      placement: outcome?.placements[s.seat] ?? null,
    }));
    match.result = {
      winner_ids: (outcome?.winners ?? []).map((w) => seats[w]?.agentId ?? null),
      placements,
      finish_reason: outcome?.reason ?? 'finished',
    };
    match.summary = {
      match_id: match.matchId,
      game_type: match.gameType,
      participants: seats.map((s) => ({ agent_id: s.agentId, name: s.name, slot: s.seat })),
      result: match.result,
      started_at: match.startedAt,
      finished_at: now,
      ...game.summary(match.state),
    };
    for (const seat of seats) repo.updateSeat({ ...seat, placement: outcome?.placements[seat.seat] ?? null });
    repo.appendEvent(match.matchId, { type: 'match_finished', isAuto: false, visibility: 'public', data: match.result, createdAt: now });
  }

  function start(match: StoredClawMatch): void {
    if (match.status !== 'matched') return;
    match.status = 'playing';
    match.startedAt = deps.clock.now();
    match.startDeadlineAt = null;
    repo.appendEvent(match.matchId, { type: 'match_started', isAuto: false, visibility: 'public', data: {}, createdAt: match.startedAt });
    syncWindow(match);
    repo.updateMatch(match);
  }

  return {
    gameOf,
    start,

    create(spec: NewMatch): StoredClawMatch {
      const game = deps.games.get(spec.gameType);
      if (!game) throw ClawError.of('invalid_payload', `unknown game type ${spec.gameType}`);
      const { state, events } = game.setup(spec.seats, spec.seed, spec.options);
      const now = deps.clock.now();
      const matchId = repo.insertMatch({
        gameType: spec.gameType,
        origin: spec.origin,
        status: 'matched',
        seed: spec.seed,
        options: spec.options,
        state,
        createdAt: now,
        startDeadlineAt: spec.startDeadlineAt,
      });
      spec.seats.forEach((seat, i) => {
        repo.insertSeat(matchId, i, seat.agentId, seat.name);
      });
      const match = repo.match(matchId) as StoredClawMatch;
      record(match, events, false);
      return match;
    },

    /** Applies one agent submission; on success the seat is marked as having acted in the current window. */
    submit(match: StoredClawMatch, seat: StoredClawSeat, action: string, params: Record<string, unknown>): SubmitResult {
      const game = gameOf(match);
      const result = game.apply(match.state, seat.seat, action, params, false);
      if (!result.ok) {
        const { code, message, ...extra } = result.error;
        return { ok: false, error: ClawError.of(code, message, extra) };
      }
      const actedIn = match.windowSeq;
      match.state = result.state;
      record(match, result.events, false);
      repo.updateSeat({ ...(repo.seatOfAgent(match.matchId, seat.agentId) as StoredClawSeat), actedWindow: actedIn });
      syncWindow(match);
      repo.updateMatch(match);
      return { ok: true, match };
    },

    /** Applies the default move of every seat the window still waits on, when its deadline has passed. */
    expire(match: StoredClawMatch): boolean {
      const now = deps.clock.now();
      let changed = false;
      if (match.status === 'matched' && match.startDeadlineAt !== null && match.startDeadlineAt <= now) {
        start(match);
        changed = true;
      }
      // Each pass handles one window; a new window gets a fresh deadline, so the loop ends.
      while (match.status === 'playing' && match.deadlineAt !== null && match.deadlineAt <= now) {
        const game = gameOf(match);
        const window = game.window(match.state);
        if (!window) {
          finish(match);
          break;
        }
        for (const seat of window.waiting) {
          const move = game.defaultMove(match.state, seat);
          const result = game.apply(match.state, seat, move.action, move.params, true);
          if (!result.ok) throw new Error(`default move ${move.action} rejected in ${match.gameType}: ${result.error.message}`);
          match.state = result.state;
          record(match, result.events, true);
          if (game.window(match.state)?.key !== window.key) break;
        }
        // A game whose defaults leave the window open would spin here; give it a fresh deadline instead.
        if (game.window(match.state)?.key === window.key) match.deadlineAt = now + timeoutMs(match, game, window.timeout);
        syncWindow(match);
        changed = true;
      }
      if (changed) repo.updateMatch(match);
      return changed;
    },
  };
}

export type MatchRuntime = ReturnType<typeof createMatchRuntime>;
