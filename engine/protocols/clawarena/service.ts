// The ClawArena service, composed of its parts: agents and tokens (agents.ts), lobby and seating (lobby.ts), turns
// (turns.ts), deadlines on the injected clock (deadlines.ts) and the narrow match API the tournaments use
// (scheduled-matches.ts). The routes parse requests with the contract's schemas and hand over parsed input; every
// failure is a ClawError the HTTP layer's one error handler renders.
import { type AnyGameRules, GAMES } from '../../../games/index.js';
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawAgent } from '../../db/store.js';
import { createAgents } from './agents.js';
import { createDeadlines } from './deadlines.js';
import { createLobby } from './lobby.js';
import { createMatchRuntime } from './match-runtime.js';
import { createMatchSignals } from './match-signals.js';
import { type ClawArenaMatchApi, createScheduledMatches, type MatchView } from './scheduled-matches.js';
import { schemaDocument } from './schema-document.js';
import { createTurns } from './turns.js';
import { createWaiters } from './waiters.js';
import { createWatcherFeed } from './watcher-feed.js';

export type { AuthContext } from './agents.js';
export type { FinishedMatch } from './match-signals.js';
export type { ClawArenaMatchApi, CreatedMatch, CreateMatchRequest, ScheduledSeat } from './scheduled-matches.js';

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
  /** The lobby game of agents created by `POST /agents/provision/`; default: the first game the schema lists. */
  defaultGameType?: string;
}

/** A provision request as the route parsed it. */
export interface ProvisionInput {
  name?: string | undefined;
  color?: string | undefined;
  runtime_kind?: string | undefined;
}

export function createClawArenaService(options: ClawArenaServiceOptions) {
  const { store, clock } = options;
  const repo = store.clawarena;
  const games = options.games ?? GAMES;
  const defaultGameType = options.defaultGameType ?? [...games.keys()][0];
  if (defaultGameType === undefined || !games.has(defaultGameType)) {
    throw new Error(`unknown default game type ${defaultGameType}; known: ${[...games.keys()].join(', ')}`);
  }
  const runtime = createMatchRuntime({ store, clock, games });
  const waiters = createWaiters();
  const signals = createMatchSignals({ store, waiters });
  const deadlines = createDeadlines({ store, clock, runtime, signals, timers: options.timers !== false });
  const agents = createAgents({ store, clock, games });
  const lobby = createLobby({ store, clock, runtime, games, agents, deadlines, signals, seed: options.seed });
  const turns = createTurns({ store, clock, runtime, agents, lobby, deadlines, signals, waiters });
  const feed = createWatcherFeed({ store, clock, runtime, agents, lobby, waiters, closed: () => deadlines.closed });
  let baseUrls: { http: string | null; https: string | null } = { http: null, https: null };
  const matches = createScheduledMatches({
    store,
    clock,
    runtime,
    games,
    agents,
    deadlines,
    signals,
    seed: options.seed,
    startTimeoutMs: options.startTimeoutMs ?? 120_000,
    baseUrls: () => baseUrls,
  });

  deadlines.schedule();

  return {
    games,
    defaultGameType,
    schemaDocument: () => schemaDocument(games, options.version),

    // agents and tokens
    authenticate: agents.authenticate,
    createAgent: agents.createAgent,
    issueToken: agents.issueToken,
    updateAgent: agents.updateAgent,
    agent: (agentId: number): StoredClawAgent | undefined => repo.agent(agentId),
    agentByName: (name: string): StoredClawAgent | undefined => repo.agentByName(name),
    agents: (): StoredClawAgent[] => repo.agents(),
    /**
     * POST /agents/provision/: a new local agent and its connection token, queued for the default lobby game so an
     * unmodified starter kit that provisions itself gets a match once a second one polls.
     */
    provision(input: ProvisionInput): Record<string, unknown> {
      const name = input.name ?? `agent-${repo.agents().length + 1}-${Math.floor(clock.now() % 100000)}`;
      const preferences: Record<string, unknown> = input.color ? { color: input.color } : {};
      const { agent, token } = agents.createAgent({
        name,
        runtimeKind: input.runtime_kind ?? null,
        preferences,
        preferredGameType: defaultGameType,
      });
      const origin = baseUrls.http ?? 'http://127.0.0.1';
      const body: Record<string, unknown> = {
        agent_id: agent.agentId,
        agent_name: agent.name,
        connection_token: token,
        claim_url: `${origin}/#/clawarena/agents/${agent.agentId}`,
        message: `Local agent created. It joins the ${defaultGameType} lobby when it polls; change the game with arena clawarena agents set <name> --game <game_type>.`,
      };
      if (agent.runtimeKind) body.runtime_kind = agent.runtimeKind;
      return body;
    },

    // turns
    poll: turns.poll,
    submitAction: turns.submit,
    heartbeat: turns.heartbeat,
    /** The `/ws/watcher/` feed: status and wake frames, presence while connected. */
    watcherFeed: feed,
    dailyBonus: (): Record<string, unknown> => ({ amount: '0', balance: 0 }),

    // the match API of the tournaments, and views for the CLI and tests
    ...matches,
    recentMatches: (limit = 50): Array<MatchView | undefined> => repo.recentMatches(limit).map((m) => matches.match(m.matchId)),
    matchesOfAgent: (agentId: number, limit = 50): Array<MatchView | undefined> =>
      repo.matchesOfAgent(agentId, limit).map((m) => matches.match(m.matchId)),

    setBaseUrls(urls: { http: string | null; https?: string | null }): void {
      baseUrls = { http: urls.http, https: urls.https ?? null };
    },
    baseUrls: () => ({ ...baseUrls }),
    /** Applies every due deadline now (timers call this; tests with a manual clock call it directly). */
    tick: deadlines.tick,
    /** Parked long-polls, for tests. */
    waitingPolls: () => waiters.waiting(),
    close(): void {
      deadlines.close();
      waiters.close();
    },
  };
}

export type ClawArenaService = ReturnType<typeof createClawArenaService> & ClawArenaMatchApi;
