// Tournaments inside an engine: create from a definition, start/pause/resume/cancel, statistics, exports and an event
// feed. Used by `arena run` (one tournament, then exit) and by the admin API of `arena serve`.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DomainError } from '../contract/errors.js';
import { knockoutBracket } from '../contract/knockout-bracket.js';
import type { TournamentModelServersResponse } from '../contract/model-server-use.js';
import type { PreflightProblem } from '../contract/preflight.js';
import {
  EXPORT_FILES,
  type RunningGame,
  type TournamentCatalogResponse,
  type TournamentChartsResponse,
  type TournamentEvent,
  type TournamentSummary,
} from '../contract/tournament.js';
import { type Clock, systemClock } from '../core/clock.js';
import { createKeyedListeners } from '../core/listeners.js';
import type { PlayableRegistry } from '../core/playables.js';
import { chartHistory, chartPairwise } from '../core/ratings/index.js';
import { FORMAT_KINDS, scheduleProblems } from '../core/tournament/index.js';
import type { Store, StoredTournament } from '../db/store.js';
import { agentHostRecord } from '../runner/node-runtime.js';
import { type SandboxPolicy, sandboxPreflight, trustedAgents } from '../runner/sandbox-policy.js';
import { buildBundle, bundleMemberName } from './bundle/bundle.js';
import { type ComparableReport, type Comparison, compareRuns } from './compare/compare.js';
import { comparableReport } from './compare/compare-input.js';
import { exportInput } from './exports/export-input.js';
import { writeExports } from './exports/exports.js';
import { localRoots, pathRedactor, portableSearchPath } from './exports/path-redaction.js';
import { type ModelServerCheck, tournamentPreflight } from './launch/preflight.js';
import type { ModelReplaySource } from './launch/seat-launch.js';
import type { ModelBuildProbe } from './model-builds.js';
import { buildChangeProblems, modelBuildsOf } from './model-builds.js';
import { runTally } from './results/game-commit.js';
import { runModelServerUse } from './results/model-server-use.js';
import { type RunStatistics, statisticsOfTally } from './results/stats.js';
import { type EventListener, type ExecutorDeps, type RunOutcome, TournamentExecutor } from './run/executor.js';
import type { GameRunners } from './run/game-runner.js';
import { plannedGames } from './run/game-source.js';
import { claimRun, playedElsewhere, releaseRun } from './run/run-claim.js';
import { buildRunManifest, type ModelBuilds, manifestChange, manifestHash, recordedBuilds, resumableUnder } from './run/run-manifest.js';
import {
  type ChallengeLookup,
  insideFolder,
  type LoadedSpec,
  resolveSpec,
  type TournamentAgent,
  TournamentSpecError,
} from './spec-file.js';
import type { WarmHooks } from './warm/warm-pool.js';

export interface TournamentServiceDeps {
  store: Store;
  /** Every challenge and game a definition may name, with its protocol. */
  playables: PlayableRegistry;
  /** The runner of each protocol the engine serves. */
  runners: GameRunners;
  dataDir: string;
  clock?: Clock;
  hostEnv?: NodeJS.ProcessEnv;
  /** Where warm agents' processes get their seats; persistent agents need it. */
  warm?: WarmHooks;
  /** How seats are sandboxed: trusted agent folders, the hidden data directory (default: all sandboxed). */
  sandbox?: SandboxPolicy;
  /** The runners hand games to game workers: agents run on the workers' machines, never here. */
  remoteGames?: boolean;
  /** Checks a model agent's server before a run (engine/model-agent/server-check.ts, injected by the engine). */
  modelServers?: ModelServerCheck;
  /** Asks a model server which build of a model it serves (engine/runtime/model-build.ts, injected by the engine). */
  modelBuild?: ModelBuildProbe;
}

/** Test seams set after the engine starts: a runner here replaces the engine's runner of its protocol. */
export interface TournamentServiceOverrides {
  runners?: GameRunners;
}

/** A tournament that does not exist (`not_found`) or is not in a state for the request (`conflict`). */
export class TournamentStateError extends DomainError {
  override name = 'TournamentStateError';
  constructor(kind: 'not_found' | 'conflict', message: string) {
    super(kind, message);
  }
}

// Kept whole: the service object: short named methods sharing the runs in flight, read one method at a time like a class.
export function createTournamentService(deps: TournamentServiceDeps) {
  const { store, playables } = deps;
  const clock = deps.clock ?? systemClock;
  const running = new Map<string, { executor: TournamentExecutor; done: Promise<RunOutcome> }>();
  const feeds = createKeyedListeners<string, TournamentEvent>();

  const lookup: ChallengeLookup = {
    seatsOf: (id) => playables.get(id)?.seats.default,
    protocolOf: (id) => playables.get(id)?.protocol ?? 'specarena',
    validateOptions(id, options) {
      const problem = playables.get(id)?.optionsProblem(options);
      if (problem) throw new Error(`invalid for ${id}: ${problem}`);
    },
  };
  // Seats per game: a `players` option wins; otherwise the playable's default table, or all the agents when there are
  // fewer (down to its minimum), so a game the catalogue lists for "3–5 players" plays with 3 agents.
  const seatsFor =
    (spec: LoadedSpec['spec']) =>
    (id: string): number => {
      if (typeof spec.options.players === 'number') return spec.options.players;
      const seats = playables.get(id)?.seats;
      return seats ? Math.max(seats.min, Math.min(seats.default, spec.agents.length)) : 2;
    };
  /** A definition that resolves but cannot be played (seats cannot be filled, 0 games) is refused before Start. */
  const playable = (loaded: LoadedSpec, source: string): LoadedSpec => {
    const problems = scheduleProblems(loaded.spec, seatsFor(loaded.spec), (id) => playables.get(id)?.seats);
    if (problems.length > 0)
      throw new TournamentSpecError(
        source,
        problems.map((message) => ({ path: 'agents', message })),
      );
    return loaded;
  };
  const overrides: TournamentServiceOverrides = {};
  const executorDeps = (modelReplay?: ModelReplaySource): ExecutorDeps => ({
    store,
    dataDir: deps.dataDir,
    clock,
    playables,
    runners: { ...deps.runners, ...overrides.runners },
    ...(deps.hostEnv ? { hostEnv: deps.hostEnv } : {}),
    ...(deps.warm ? { warm: deps.warm } : {}),
    ...(deps.remoteGames ? { remoteGames: true } : {}),
    ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
    ...(modelReplay ? { modelReplay } : {}),
  });

  const emit = (id: string, event: TournamentEvent): void => feeds.emit(id, event);

  // For read-only views (standings, games pages, charts): the definition as last loaded, so a page request does not
  // re-read every agent's manifest. start() always loads afresh, which is how it notices a changed agent.
  const loadedSpecs = new Map<string, LoadedSpec>();
  function loadStored(t: StoredTournament): LoadedSpec {
    const loaded = resolveSpec(t.spec, t.specDir, lookup, `tournament ${t.id}`);
    loadedSpecs.set(t.id, loaded);
    return loaded;
  }
  function viewOf(t: StoredTournament): LoadedSpec {
    return loadedSpecs.get(t.id) ?? loadStored(t);
  }

  function manifestOf(loaded: LoadedSpec, raw: Record<string, unknown>, builds?: ModelBuilds) {
    return buildRunManifest(
      loaded,
      (id) => playables.get(id)?.dir ?? id,
      raw,
      (id) => playables.get(id)?.protocol === 'clawarena',
      trustedAgents(deps.sandbox, loaded.agents),
      // Game workers run agents on their own machines, with their own Node and PATH.
      deps.remoteGames ? undefined : agentHost(loaded),
      builds,
    );
  }

  /**
   * This engine's agent runtime and PATH, the PATH's local folders written as exports write them (`~`, `<definition>`,
   * other folders by their last two segments): the manifest is exported and bundled.
   */
  function agentHost(loaded: LoadedSpec) {
    const record = agentHostRecord(deps.hostEnv ?? process.env);
    const redact = pathRedactor(localRoots({ agents: loaded.agents, specDir: loaded.specDir, dataDir: deps.dataDir }));
    return { ...record, path: portableSearchPath(record.path, redact) };
  }

  function get(id: string): StoredTournament {
    const t = store.tournaments.get(id);
    if (!t) throw new TournamentStateError('not_found', `no tournament ${id}`);
    return t;
  }

  function summary(t: StoredTournament): TournamentSummary {
    // A running executor's own figures, else what the last run left (a paused, killed or finished tournament).
    const run = running.get(t.id);
    const lifecycles = run?.executor.lifecycles() ?? store.lifecycles.get(t.id);
    // A run whose outcome is recorded is over for the user, even while its agents are still being torn down.
    const active = run !== undefined && !run.executor.ended;
    const stopping = run?.executor.stopping ?? null;
    return {
      id: t.id,
      name: t.name,
      status: t.status,
      stop_reason: t.stopReason || null,
      planned_games: t.plannedGames,
      planned_exact: t.plannedExact,
      // Kept on the tournament row by every commit: listing tournaments reads no game.
      games_done: t.gamesSettled,
      manifest_hash: t.manifestHash,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
      finished_at: t.finishedAt,
      active,
      ...(stopping ? { stopping } : {}),
      // Left 'running' without an executor here: another engine on the data directory plays it, or a crash left it.
      ...(t.status === 'running' && !active ? { played_by_pid: playedElsewhere(store, t.id)?.pid ?? null } : {}),
      archived_at: store.tournamentLibrary.archivedAt(t.id),
      ...(lifecycles ? { agent_lifecycles: lifecycles } : {}),
    };
  }

  // The Bradley–Terry fits run when standings are asked for, once per committed attempt at most.
  const statsCache = new Map<string, { attempts: number; stats: RunStatistics }>();
  function statistics(t: StoredTournament, loaded: LoadedSpec): RunStatistics {
    const tally = runTally(store, t.id);
    const hit = statsCache.get(t.id);
    if (hit && hit.attempts === tally.attempts) return hit.stats;
    const stats = statisticsOfTally(
      loaded.spec,
      loaded.agents.map((a) => a.id),
      tally,
      loaded.agents.map((a) => a.name),
    );
    statsCache.set(t.id, { attempts: tally.attempts, stats });
    return stats;
  }

  /**
   * Exports in progress, by tournament: the last one asked for (each waits for the one before it), with the run's
   * state when it was asked for. It reads that state or a later one, so a request that finds the run unchanged since
   * joins it instead of writing the same files again (a report browser asking for several files right after a finish).
   */
  const exporting = new Map<string, { job: Promise<string>; state: string }>();
  const exportState = (t: StoredTournament): string => `${t.updatedAt}:${t.gameAttempts}:${t.status}`;
  /** A run's export input, read in one synchronous step: the statistics and the games' snapshot see the same commits. */
  function snapshotInput(id: string): ReturnType<typeof exportInput> {
    const t = get(id);
    const loaded = loadStored(t);
    return exportInput(store, {
      tournament: t,
      agentIds: loaded.agents.map((a) => a.id),
      stats: statistics(t, loaded),
      summary: formatSummary(loaded, t),
      roots: localRoots({ agents: loaded.agents, specDir: t.specDir, dataDir: deps.dataDir }),
    });
  }
  async function writeReportsNow(id: string): Promise<string> {
    const { input, close } = snapshotInput(id);
    try {
      return await writeExports(deps.dataDir, input);
    } finally {
      close();
    }
  }

  /** Replays the committed results through a fresh source to get the format's table (swiss, knockout). */
  function formatSummary(loaded: LoadedSpec, t: StoredTournament): Record<string, unknown> | null {
    const kind = loaded.spec.format.kind;
    if (kind !== 'swiss' && kind !== 'knockout' && kind !== 'adaptive') return null;
    const executor = new TournamentExecutor(executorDeps(), t, loaded.spec, loaded.agents, seatsFor(loaded.spec));
    return executor.replaySummary();
  }

  /** An adaptive run's pairs or a knockout's bracket: the running executor's, else replayed from the stored games. */
  function liveFormatSummary(t: StoredTournament, wanted: 'adaptive' | 'knockout'): Record<string, unknown> | null {
    const format = t.spec.format;
    const kind = typeof format === 'string' ? format : (format as { kind?: unknown } | undefined)?.kind;
    if (kind !== wanted) return null;
    const live = running.get(t.id)?.executor;
    if (live) return live.formatSummary();
    try {
      return formatSummary(viewOf(t), t);
    } catch {
      // An agent folder that is gone since: the summary still lists the run, without the pairs.
      return null;
    }
  }

  const service = {
    lookup,
    overrides,
    store,
    dataDir: deps.dataDir,

    validate(raw: unknown, specDir: string, source = 'tournament'): LoadedSpec & { planned: { count: number; exact: boolean } } {
      const loaded = playable(resolveSpec(raw, specDir, lookup, source), source);
      // The same numbers create() stores.
      return { ...loaded, planned: plannedGames(loaded.spec, seatsFor(loaded.spec)) };
    },

    /**
     * What would stop these agents from playing here (programs, sandbox, model servers), each naming the fix; empty
     * when nothing would. Game workers check their own machines, and a test's runners start no agent processes.
     */
    async preflight(agents: readonly TournamentAgent[]): Promise<PreflightProblem[]> {
      if (overrides.runners || deps.remoteGames) return [];
      return tournamentPreflight(deps, agents);
    },

    /**
     * preflight() of a stored run's agents (before a resume), and whether each model server still serves the build
     * the run started with (a digest both times known and now different refuses the resume).
     */
    async preflightRun(id: string): Promise<PreflightProblem[]> {
      const t = get(id);
      const agents = loadStored(t).agents;
      const problems = await service.preflight(agents);
      if (problems.length > 0 || !deps.modelBuild || overrides.runners || deps.remoteGames) return problems;
      return buildChangeProblems(id, recordedBuilds(t.manifest), await modelBuildsOf(deps.modelBuild, agents));
    },

    /**
     * Which build of its model each model agent's server serves now (empty without the engine's probe, or when the
     * games run on workers, whose servers are theirs). For create(): the run manifest records what played.
     */
    async modelBuilds(agents: readonly TournamentAgent[]): Promise<ModelBuilds> {
      if (!deps.modelBuild || deps.remoteGames) return new Map();
      return modelBuildsOf(deps.modelBuild, agents);
    },

    /** What a tournament can be built from: SpecArena challenges, ClawArena games and the formats. */
    catalog(baseDir: string): TournamentCatalogResponse {
      const list: TournamentCatalogResponse['challenges'] = playables.values().map((p) => ({
        id: p.id,
        protocol: p.protocol,
        name: p.name,
        description: p.description,
        players: { min: p.seats.min, max: p.seats.max },
        default_options: { ...p.defaultOptions },
      }));
      return { challenges: list, formats: [...FORMAT_KINDS], base_dir: baseDir };
    },

    /**
     * How many games' latest attempts a running tournament keeps in memory (void attempts waiting for their replay, or
     * committed games a resumed run has not reached yet); null when it is not running in this process.
     */
    heldAttempts(id: string): number | null {
      get(id);
      return running.get(id)?.executor.heldAttempts ?? null;
    },

    /** Games in flight now; empty when the tournament is not running in this process. */
    running(id: string): RunningGame[] {
      get(id);
      return running.get(id)?.executor.runningGames() ?? [];
    },

    /** Rating trace (bounded, evenly sampled) and pairwise matrix over the rated games in commit order. */
    charts(id: string): TournamentChartsResponse {
      const t = get(id);
      const loaded = viewOf(t);
      const { chart, ratings } = runTally(store, t.id);
      return {
        agents: loaded.agents.map((a) => a.id),
        rating_history: chartHistory(chart, ratings),
        pairwise: chartPairwise(chart),
      };
    },

    /** Each model server's calls, utilisation and queueing so far: the report's figures (model-server-use.ts). */
    modelServers(id: string): TournamentModelServersResponse {
      const t = get(id);
      const agents = (t.manifest as { agents?: Array<{ model?: unknown }> }).agents ?? [];
      return { model_agents: agents.filter((a) => a.model !== undefined).length, servers: runModelServerUse(store, t.id) };
    },

    /** The run's agent ids in agent order (what seat indices name). */
    agentIds(id: string): string[] {
      return viewOf(get(id)).agents.map((a) => a.id);
    },

    /** `builds`: what modelBuilds() found (asked before, since a create is synchronous); none recorded without it. */
    create(raw: unknown, specDir: string, source = 'tournament', builds?: ModelBuilds): StoredTournament {
      const loaded = playable(resolveSpec(raw, specDir, lookup, source), source);
      const manifest = manifestOf(loaded, raw as Record<string, unknown>, builds);
      const planned = plannedGames(loaded.spec, seatsFor(loaded.spec));
      const id = `t-${new Date(clock.now()).toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(4).toString('hex')}`;
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
        clock.now(),
      );
      // Created paused until start() runs it.
      store.tournaments.setStatus(id, 'paused', clock.now());
      return get(id);
    },

    get,
    summary: (id: string): TournamentSummary => {
      const t = get(id);
      const adaptive = liveFormatSummary(t, 'adaptive');
      const bracket = liveFormatSummary(t, 'knockout');
      const knockout = bracket
        ? knockoutBracket(
            bracket,
            viewOf(t).agents.map((a) => a.id),
          )
        : null;
      return { ...summary(t), ...(adaptive ? { adaptive } : {}), ...(knockout ? { knockout } : {}) };
    },
    /** Starts or resumes a tournament; the promise settles when the run finishes, pauses, is cancelled or fails. */
    /** `options.modelReplay`: answer the model agents' calls from a recorded run (`arena replay`). */
    start(id: string, options: { modelReplay?: ModelReplaySource } = {}): Promise<RunOutcome> {
      const existing = running.get(id);
      // Paused (or ended) but still tearing its agents down: the new run starts once the old one has let go.
      if (existing?.executor.ended) return existing.done.then(() => service.start(id, options));
      if (existing) {
        // Resume right after Pause, before the game in flight ended: the run must not stay paused (the resume would be lost).
        existing.executor.unpause();
        return existing.done;
      }
      const t = get(id);
      // A failed run is final too: what failed it (storage, a schedule that cannot be played) would fail it again.
      if (t.status === 'finished' || t.status === 'cancelled' || t.status === 'failed')
        throw new TournamentStateError(
          'conflict',
          `tournament ${id} is ${t.status}${t.status === 'failed' && t.stopReason ? `: ${t.stopReason}` : ''}`,
        );
      const elsewhere = playedElsewhere(store, id);
      if (elsewhere !== null) throw new TournamentStateError('conflict', elsewhere.refusal);
      const loaded = loadStored(t);
      const now = manifestOf(loaded, t.spec);
      if (!resumableUnder(t.manifest, now))
        throw new TournamentStateError(
          'conflict',
          `tournament ${id}: ${manifestChange(t.manifest, now)} changed since it started (run manifest ${manifestHash(now)} ≠ ${t.manifestHash}); start a new tournament`,
        );
      // Fail closed: seats the sandbox cannot serve here (and not trusted) refuse the run, naming the fix. Workers
      // sandbox their own seats.
      const refusal = overrides.runners || deps.remoteGames ? null : sandboxPreflight(deps.sandbox, loaded.agents, true);
      if (refusal !== null) throw new TournamentStateError('conflict', `tournament ${id}: ${refusal}`);
      const claim = claimRun(store, id);
      if ('refusal' in claim) throw new TournamentStateError('conflict', claim.refusal);
      let executor: TournamentExecutor;
      try {
        executor = new TournamentExecutor(executorDeps(options.modelReplay), t, loaded.spec, loaded.agents, seatsFor(loaded.spec));
      } catch (error) {
        releaseRun(store, id, claim.mark);
        throw error;
      }
      executor.on((event) => emit(id, event));
      const played = executor.run().finally(() => releaseRun(store, id, claim.mark));
      const done = played.then(async (outcome) => {
        running.delete(id);
        if (outcome.status === 'finished') {
          let dir: string | null = null;
          try {
            dir = await service.exportReports(id);
          } catch (error) {
            emit(id, { event: 'failed', tournament_id: id, error: `exports: ${(error as Error).message}`, at: clock.now() });
          }
          emit(id, {
            event: 'finished',
            tournament_id: id,
            stop_reason: outcome.stopReason,
            games_done: executor.gamesDone,
            report_dir: dir,
            at: clock.now(),
          });
        }
        return outcome;
      });
      running.set(id, { executor, done });
      return done;
    },

    pause(id: string): void {
      const run = running.get(id);
      if (!run || run.executor.ended)
        throw new TournamentStateError('conflict', playedElsewhere(store, id)?.refusal ?? `tournament ${id} is not running`);
      run.executor.pause();
    },

    cancel(id: string): void {
      const run = running.get(id);
      if (run && !run.executor.ended) run.executor.cancel();
      else {
        const t = get(id);
        if (t.status === 'finished') throw new TournamentStateError('conflict', `tournament ${id} is finished`);
        const elsewhere = playedElsewhere(store, id);
        if (elsewhere !== null) throw new TournamentStateError('conflict', elsewhere.refusal);
        store.tournaments.setStatus(id, 'cancelled', clock.now(), 'cancelled');
      }
    },

    /** Resolves when the tournament is not running any more. */
    async settled(id: string): Promise<void> {
      await running.get(id)?.done;
    },

    subscribe(id: string, listener: EventListener): () => void {
      return feeds.add(id, listener);
    },

    statistics(id: string) {
      const t = get(id);
      const loaded = viewOf(t);
      return { tournament: t, loaded, stats: statistics(t, loaded) };
    },

    /**
     * Writes the run's export files as of now and resolves to their folder. The engine keeps serving while they are
     * written (seconds at 100,000 games); a second export of the same run waits for the one in progress, so the two
     * never write the same files at once, or shares it when the run has not changed since it was asked for.
     */
    exportReports(id: string): Promise<string> {
      const state = exportState(get(id)); // an unknown run is refused now, not queued
      const previous = exporting.get(id);
      if (previous?.state === state) return previous.job;
      const job = (previous?.job ?? Promise.resolve()).catch(() => undefined).then(() => writeReportsNow(id));
      const entry = { job, state };
      exporting.set(id, entry);
      const forget = (): void => {
        if (exporting.get(id) === entry) exporting.delete(id);
      };
      job.then(forget, forget);
      return job;
    },

    /** What a comparison reads of a run (report.json's values under its keys), without writing any file. */
    async comparable(id: string): Promise<ComparableReport> {
      const { input, close } = snapshotInput(id);
      try {
        return await comparableReport(input);
      } finally {
        close();
      }
    },

    /** The comparison of two runs by their reports (see compare.ts). */
    async compare(a: string, b: string): Promise<Comparison> {
      return compareRuns(await service.comparable(a), await service.comparable(b));
    },

    /** The audit bundle of a run: fresh exports, the definition and, with `withFiles`, every agent's files. */
    async bundle(id: string, options: { withFiles?: boolean } = {}): Promise<Buffer> {
      const t = get(id);
      const dir = await service.exportReports(id);
      const reports = EXPORT_FILES.map((name) => ({ name, data: fs.readFileSync(path.join(dir, name)) }));
      const recorded = ((t.manifest as { agents?: Array<{ id: string; entry_file: string | null }> }).agents ?? []) as Array<{
        id: string;
        entry_file: string | null;
      }>;
      const agentFiles = options.withFiles
        ? loadStored(t).agents.flatMap((a) => {
            const entry = recorded.find((r) => r.id === a.id)?.entry_file ?? null;
            const out = [{ agent: a.id, name: 'agent.yaml', data: fs.readFileSync(a.manifestFile) }];
            // A manifest recorded by an older engine may name a file outside the folder: such a file is never copied.
            const file = entry === null ? null : path.join(a.dir, entry);
            if (file && bundleMemberName(entry as string) && insideFolder(a.dir, file))
              out.push({ agent: a.id, name: bundleMemberName(entry as string) as string, data: fs.readFileSync(file) });
            return out;
          })
        : undefined;
      return buildBundle({
        tournamentId: t.id,
        manifestHash: t.manifestHash,
        manifest: t.manifest,
        reports,
        ...(agentFiles ? { agentFiles } : {}),
        signedRecords: store.tournaments.signedRecords(id),
      });
    },

    /** Tournaments that were running when their engine stopped (crash, kill -9, quit) continue; returns their ids. */
    resumeInterrupted(): string[] {
      const ids: string[] = [];
      for (const t of store.tournaments.withStatus('running')) {
        // Not interrupted: another engine process on this data directory is playing it.
        if (playedElsewhere(store, t.id) !== null) continue;
        try {
          void service.start(t.id).catch(() => {});
          ids.push(t.id);
        } catch (error) {
          // Another engine that claimed it a moment ago plays it; anything else would fail it again at every start.
          if (playedElsewhere(store, t.id) === null) store.tournaments.setStatus(t.id, 'failed', clock.now(), (error as Error).message);
        }
      }
      return ids;
    },

    async close(): Promise<void> {
      for (const run of running.values()) run.executor.halt();
      await Promise.all([...running.values()].map((r) => r.done));
      await Promise.allSettled([...exporting.values()].map((e) => e.job));
    },
  };
  return service;
}

export type TournamentService = ReturnType<typeof createTournamentService>;
export { TournamentSpecError };
