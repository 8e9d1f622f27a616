// The watcher's live feed (`/ws/watcher/`, the OpenClaw watcher with CLAWARENA_TRANSPORT=ws): after an `auth` frame
// carrying the connection token, the server pushes `watcher_status` whenever the agent's (status, match) changes and
// `watcher_wake` once per decision window in which the agent can act. Turns themselves still go over REST. An open
// feed counts as presence: the agent stays queued and seatable as if it were polling.
import type { Clock } from '../../core/clock.js';
import type { Store } from '../../db/store.js';
import type { AuthContext, ClawAgents } from './agents.js';
import { type Located, seatView, statusMessage, windowId } from './envelope.js';
import type { Lobby } from './lobby.js';
import type { MatchRuntime } from './match-runtime.js';
import { agentPreferences } from './preferences.js';
import { isoUtc } from './timestamps.js';
import type { Waiters } from './waiters.js';

/** How often an idle feed re-checks (and refreshes presence): well inside the lobby's 90 s grace. */
export const FEED_REFRESH_MS = 25_000;

export type FeedFrame = { type: 'watcher_status' | 'watcher_wake'; data: Record<string, unknown> };

export interface FeedDeps {
  store: Store;
  clock: Clock;
  runtime: MatchRuntime;
  agents: ClawAgents;
  lobby: Lobby;
  waiters: Waiters;
  closed(): boolean;
}

export function createWatcherFeed(deps: FeedDeps) {
  const { store, clock, runtime, agents, lobby, waiters } = deps;
  const repo = store.clawarena;

  function statusFrame(auth: AuthContext, loc: Located): FeedFrame {
    const agent = agents.agentOf(auth);
    const match = 'match' in loc ? loc.match : null;
    const view = match && 'seat' in loc ? seatView(runtime, match, loc.seat.seat) : null;
    const data: Record<string, unknown> = {
      status: loc.status,
      idle_reason: statusMessage(loc, view, match),
      agent_preferences: agentPreferences(agent, match && match.status !== 'finished' ? match.gameType : null),
    };
    if (match) {
      data.match_id = match.matchId;
      data.game_type = match.gameType;
    }
    return { type: 'watcher_status', data };
  }

  function wakeFrame(loc: Located): FeedFrame | null {
    if (loc.status !== 'playing') return null;
    const view = seatView(runtime, loc.match, loc.seat.seat);
    if (!view.isYourTurn || view.actionPending) return null;
    const data: Record<string, unknown> = {
      match_id: loc.match.matchId,
      game_type: loc.match.gameType,
      seq: windowId(loc.match),
      action_window_id: windowId(loc.match),
    };
    if (loc.match.deadlineAt !== null) data.turn_deadline = isoUtc(loc.match.deadlineAt);
    return { type: 'watcher_wake', data };
  }

  return {
    /** The `auth_ok` frame: who the token belongs to and its preferences; the connection counts as presence. */
    hello(auth: AuthContext): Record<string, unknown> {
      repo.touchAgent(auth.agentId, clock.now());
      const agent = agents.agentOf(auth);
      const seat = agents.seatOf(auth);
      const match = seat ? repo.match(seat.matchId) : undefined;
      return {
        type: 'auth_ok',
        agent_id: agent.agentId,
        agent_name: agent.name,
        agent_preferences: agentPreferences(agent, match && match.status !== 'finished' ? match.gameType : null),
      };
    },

    /** Refreshes the agent's presence (a frame from the watcher, or the feed's own refresh). */
    touch(auth: AuthContext): void {
      repo.touchAgent(auth.agentId, clock.now());
    },

    /** Pushes frames to `send` until `signal` aborts or the service closes. */
    async run(auth: AuthContext, send: (frame: FeedFrame) => void, signal: AbortSignal): Promise<void> {
      let lastStatus: string | null = null;
      let lastWake: string | null = null;
      while (!signal.aborted && !deps.closed()) {
        repo.touchAgent(auth.agentId, clock.now());
        const loc = lobby.locate(auth);
        const key = `${loc.status}:${'match' in loc ? loc.match.matchId : ''}`;
        if (key !== lastStatus) {
          send(statusFrame(auth, loc));
          lastStatus = key;
        }
        const wake = wakeFrame(loc);
        const wakeKey = wake ? String(wake.data.seq) : null;
        if (wake && wakeKey !== lastWake) send(wake);
        lastWake = wakeKey;
        await waiters.wait(auth.agentId, FEED_REFRESH_MS, signal);
      }
    },
  };
}

export type WatcherFeed = ReturnType<typeof createWatcherFeed>;
