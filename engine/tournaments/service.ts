// Tournaments inside an engine: create from a definition, start/pause/resume/cancel, statistics, exports and an event
// feed. Used by `arena run` (one tournament, then exit) and by the admin API of `arena serve`.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ChallengeRegistry } from '../challenges/registry.js';
import type {
  RunningGame,
  TournamentCatalogResponse,
  TournamentChartsResponse,
  TournamentEvent,
  TournamentSummary,
} from '../contract/tournament.js';
import { pairwiseMatrix, ratingHistory } from '../core/ratings/index.js';
import { FORMAT_KINDS } from '../core/tournament/index.js';
import type { Store, StoredTournament } from '../db/store.js';
import type { ClawArenaService } from '../protocols/clawarena/service.js';
import type { ArenaEngine } from '../protocols/specarena/arena-engine.js';
import { type EventListener, type ExecutorDeps, type RunOutcome, TournamentExecutor } from './executor.js';
import { writeExports } from './exports.js';
import { plannedGames } from './game-source.js';
import { buildRunManifest, manifestHash } from './run-manifest.js';
import { type ChallengeLookup, type LoadedSpec, resolveSpec, TournamentSpecError } from './spec-file.js';
import { finalGames, gameRecord, isSettled, runStatistics } from './stats.js';
import type { WarmDesk } from './warm-desk.js';

export interface TournamentServiceDeps {
  store: Store;
  engine: ArenaEngine;
  challenges: ChallengeRegistry;
  /** Engine URL the agents connect to. */
  url: string;
  authSecret: Buffer;
  dataDir: string;
  hostEnv?: NodeJS.ProcessEnv;
  /** ClawArena service: its game types can be tournament challenges, played by `protocol: clawarena` agents. */
  clawarena?: ClawArenaService;
  /** Answers warm agents' next-seat polls; persistent agents need it. */
  warmDesk?: WarmDesk;
  /** Bootstrap resamples for the exported ratings (default 1000). */
  bootstrapRounds?: number;
}

/** Test seams set after the engine starts (a scripted game player). */
export interface TournamentServiceOverrides {
  playGame?: ExecutorDeps['playGame'];
}

export class TournamentStateError extends Error {
  override name = 'TournamentStateError';
}

export function createTournamentService(deps: TournamentServiceDeps) {
  const { store, challenges } = deps;
  const running = new Map<string, { executor: TournamentExecutor; done: Promise<RunOutcome> }>();
  const feeds = new Map<string, Set<EventListener>>();

  const clawGame = (id: string) => (challenges.get(id) ? undefined : deps.clawarena?.games.get(id));
  const lookup: ChallengeLookup = {
    seatsOf: (id) => challenges.get(id)?.metadata.players ?? clawGame(id)?.players.default,
    protocolOf: (id) => (clawGame(id) ? 'clawarena' : 'specarena'),
    validateOptions(id, options) {
      const claw = clawGame(id);
      if (claw) {
        const players = options.players;
        if (players !== undefined && (typeof players !== 'number' || players < claw.players.min || players > claw.players.max))
          throw new Error(`invalid for ${id}: players must be ${claw.players.min}-${claw.players.max}`);
        return;
      }
      const challenge = challenges.get(id);
      if (!challenge) return;
      const parsed = challenge.module.optionsSchema.safeParse({ ...challenges.defaultOptions(id), ...options });
      if (!parsed.success)
        throw new Error(`invalid for ${id}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    },
  };
  /** Seats per game: a `players` option (challenges with a variable table) wins over the metadata's count. */
  const seatsFor =
    (spec: LoadedSpec['spec']) =>
    (id: string): number =>
      typeof spec.options.players === 'number' ? spec.options.players : (lookup.seatsOf(id) ?? 2);
  const overrides: TournamentServiceOverrides = {};

  function emit(id: string, event: TournamentEvent): void {
    for (const listener of [...(feeds.get(id) ?? [])]) {
      try {
        listener(event);
      } catch {
        // a closed subscriber
      }
    }
  }

  function loadStored(t: StoredTournament): LoadedSpec {
    return resolveSpec(t.spec, t.specDir, lookup, `tournament ${t.id}`);
  }

  function manifestOf(loaded: LoadedSpec, raw: Record<string, unknown>) {
    return buildRunManifest(
      loaded,
      (id) => challenges.get(id)?.dir ?? (clawGame(id) ? clawGameDir(id) : id),
      raw,
      (id) => !!clawGame(id),
    );
  }

  function get(id: string): StoredTournament {
    const t = store.tournaments.get(id);
    if (!t) throw new TournamentStateError(`no tournament ${id}`);
    return t;
  }

  function summary(t: StoredTournament): TournamentSummary {
    const rows = store.tournaments.games(t.id);
    return {
      id: t.id,
      name: t.name,
      status: t.status,
      stop_reason: t.stopReason,
      planned_games: t.plannedGames,
      planned_exact: t.plannedExact,
      games_done: finalGames(rows).filter(isSettled).length,
      manifest_hash: t.manifestHash,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
      finished_at: t.finishedAt,
      active: running.has(t.id),
    };
  }

  function statistics(t: StoredTournament, loaded: LoadedSpec) {
    return runStatistics(
      loaded.spec,
      loaded.agents.map((a) => a.id),
      store.tournaments.games(t.id),
      String(loaded.spec.seed),
      deps.bootstrapRounds,
    );
  }

  /** Replays the committed results through a fresh source to get the format's table (swiss, knockout). */
  function formatSummary(loaded: LoadedSpec, t: StoredTournament): Record<string, unknown> | null {
    if (loaded.spec.format.kind !== 'swiss' && loaded.spec.format.kind !== 'knockout') return null;
    const executor = new TournamentExecutor({ ...deps }, t, loaded.spec, loaded.agents, seatsFor(loaded.spec));
    return executor.replaySummary();
  }

  const service = {
    lookup,
    overrides,
    store,
    dataDir: deps.dataDir,

    validate(raw: unknown, specDir: string, source = 'tournament'): LoadedSpec & { planned: { count: number; exact: boolean } } {
      const loaded = resolveSpec(raw, specDir, lookup, source);
      // The same numbers create() stores.
      return { ...loaded, planned: plannedGames(loaded.spec, seatsFor(loaded.spec)) };
    },

    /** What a tournament can be built from: SpecArena challenges, ClawArena games and the formats. */
    catalog(baseDir: string): TournamentCatalogResponse {
      const list: TournamentCatalogResponse['challenges'] = [...challenges.values()].map((c) => ({
        id: c.id,
        protocol: 'specarena',
        name: c.metadata.name,
        description: c.metadata.description,
        players: { min: c.metadata.players, max: c.metadata.players },
        default_options: challenges.defaultOptions(c.id),
      }));
      for (const [id, game] of deps.clawarena?.games ?? []) {
        if (challenges.has(id)) continue;
        const { min, max } = game.players;
        list.push({
          id,
          protocol: 'clawarena',
          name: game.title,
          description: `ClawArena game for ${min === max ? min : `${min}–${max}`} players (default ${game.players.default}).`,
          players: { min, max },
          default_options: { players: game.players.default },
        });
      }
      return { challenges: list, formats: [...FORMAT_KINDS], base_dir: baseDir };
    },

    /** Games in flight now; empty when the tournament is not running in this process. */
    running(id: string): RunningGame[] {
      get(id);
      return running.get(id)?.executor.runningGames() ?? [];
    },

    /** Rating trace and pairwise matrix from the counting attempt of every settled game, in commit order. */
    charts(id: string): TournamentChartsResponse {
      const t = get(id);
      const loaded = loadStored(t);
      const records = finalGames(store.tournaments.games(t.id)).filter(isSettled).map(gameRecord);
      const count = loaded.agents.length;
      return {
        agents: loaded.agents.map((a) => a.id),
        rating_history: ratingHistory(records, count),
        pairwise: pairwiseMatrix(records, count),
      };
    },

    create(raw: unknown, specDir: string, source = 'tournament'): StoredTournament {
      const loaded = resolveSpec(raw, specDir, lookup, source);
      const manifest = manifestOf(loaded, raw as Record<string, unknown>);
      const planned = plannedGames(loaded.spec, seatsFor(loaded.spec));
      const id = `t-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(4).toString('hex')}`;
      store.tournaments.insert(
        {
          id,
          name: loaded.spec.name,
          spec: raw as Record<string, unknown>,
          specDir,
          manifest: manifest as unknown as Record<string, unknown>,
          manifestHash: manifestHash(manifest),
          plannedGames: planned.count,
          plannedExact: planned.exact,
        },
        Date.now(),
      );
      // Created paused until start() runs it.
      store.tournaments.setStatus(id, 'paused', Date.now());
      return get(id);
    },

    get,
    summary: (id: string) => summary(get(id)),
    list(limit = 50, offset = 0) {
      const page = store.tournaments.list(limit, offset);
      return { tournaments: page.items.map(summary), total: page.total };
    },

    /** Starts or resumes a tournament; the promise settles when the run finishes, pauses, is cancelled or fails. */
    start(id: string): Promise<RunOutcome> {
      const existing = running.get(id);
      if (existing) return existing.done;
      const t = get(id);
      if (t.status === 'finished' || t.status === 'cancelled') throw new TournamentStateError(`tournament ${id} is ${t.status}`);
      const loaded = loadStored(t);
      const hash = manifestHash(manifestOf(loaded, t.spec));
      if (hash !== t.manifestHash)
        throw new TournamentStateError(
          `tournament ${id}: an agent, a challenge or the app changed since it started (run manifest ${hash} ≠ ${t.manifestHash}); start a new tournament`,
        );
      const executor = new TournamentExecutor({ ...deps, ...overrides }, t, loaded.spec, loaded.agents, seatsFor(loaded.spec));
      executor.on((event) => emit(id, event));
      const done = executor.run().then((outcome) => {
        running.delete(id);
        if (outcome.status === 'finished') {
          let dir: string | null = null;
          try {
            dir = service.exportReports(id);
          } catch (error) {
            emit(id, { event: 'failed', tournament_id: id, error: `exports: ${(error as Error).message}`, at: Date.now() });
          }
          emit(id, {
            event: 'finished',
            tournament_id: id,
            stop_reason: outcome.stopReason,
            games_done: executor.gamesDone,
            report_dir: dir,
            at: Date.now(),
          });
        }
        return outcome;
      });
      running.set(id, { executor, done });
      return done;
    },

    pause(id: string): void {
      const run = running.get(id);
      if (!run) throw new TournamentStateError(`tournament ${id} is not running`);
      run.executor.pause();
    },

    cancel(id: string): void {
      const run = running.get(id);
      if (run) run.executor.cancel();
      else {
        const t = get(id);
        if (t.status === 'finished') throw new TournamentStateError(`tournament ${id} is finished`);
        store.tournaments.setStatus(id, 'cancelled', Date.now(), 'cancelled');
      }
    },

    /** Resolves when the tournament is not running any more. */
    async settled(id: string): Promise<void> {
      await running.get(id)?.done;
    },

    subscribe(id: string, listener: EventListener): () => void {
      let set = feeds.get(id);
      if (!set) {
        set = new Set();
        feeds.set(id, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) feeds.delete(id);
      };
    },

    statistics(id: string) {
      const t = get(id);
      const loaded = loadStored(t);
      return { tournament: t, loaded, stats: statistics(t, loaded) };
    },

    exportReports(id: string): string {
      const t = get(id);
      const loaded = loadStored(t);
      return writeExports(deps.dataDir, {
        store,
        tournament: t,
        agentIds: loaded.agents.map((a) => a.id),
        stats: statistics(t, loaded),
        summary: formatSummary(loaded, t),
      });
    },

    /** Tournaments that were running when the app stopped (crash, kill -9, quit) continue. */
    resumeInterrupted(): string[] {
      const ids: string[] = [];
      for (const t of store.tournaments.withStatus('running')) {
        try {
          void service.start(t.id).catch(() => {});
          ids.push(t.id);
        } catch (error) {
          store.tournaments.setStatus(t.id, 'failed', Date.now(), (error as Error).message);
        }
      }
      return ids;
    },

    async close(): Promise<void> {
      for (const run of running.values()) run.executor.halt();
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
  return service;
}

/** The folder of a ClawArena game's rules (`liars_dice` → games/liars-dice), hashed into the run manifest. */
function clawGameDir(gameType: string): string {
  return fileURLToPath(new URL(`../../games/${gameType.replaceAll('_', '-')}/`, import.meta.url));
}

export type TournamentService = ReturnType<typeof createTournamentService>;
export { TournamentSpecError };
