// Engine bootstrap shared by the CLI (`arena serve`), the Electron utility process and tests.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createAgentCatalog } from './agents/catalog.js';
import { loadManifest } from './agents/manifest-loader.js';
import { loadChallenges, specArenaPlayables } from './challenges/registry.js';
import { type Clock, systemClock } from './core/clock.js';
import { createLiveBus } from './core/live-bus.js';
import { PlayableRegistry } from './core/playables.js';
import { openStore, type Store } from './db/store.js';
import { createAdminSessions } from './http/admin-sessions.js';
import { createLaunchCodes } from './http/launch-codes.js';
import { createHttpServer } from './http/server.js';
import { sessionCapFromEnv } from './http/session-cap.js';
import { loadCertificateFiles, loadOrCreateLoopbackCertificate, startTlsAgentListener } from './http/tls.js';
import { modelServerProblems } from './model-agent/server-check.js';
import { clawArenaPlayables } from './protocols/clawarena/playables.js';
import { type ClawArenaService, createClawArenaService } from './protocols/clawarena/service.js';
import { createGovernanceRunner, type GovernanceRunner } from './protocols/governance/background-runs.js';
import { type ArenaEngine, createArenaEngine } from './protocols/specarena/arena-engine.js';
import { createScoringReader, recomputeScores } from './protocols/specarena/scoring-service.js';
import { cannotStartHere } from './runner/launch-check.js';
import { prepareNodeRuntimeRecord } from './runner/node-runtime.js';
import { reapOrphanedHostAgents } from './runner/orphan-host-agents.js';
import { reapOrphanedSandboxes } from './runner/orphan-sandboxes.js';
import { type SandboxPolicy, sandboxPolicy } from './runner/sandbox-policy.js';
import { registerSecret } from './runtime/known-secrets.js';
import { modelBuild } from './runtime/model-build.js';
import { builtinAgentFolders } from './runtime/package-root.js';
import { ensurePrivateDir } from './runtime/private-files.js';
import { createSeeder, loadOrCreateSecret } from './runtime/secrets.js';
import { APP_VERSION } from './runtime/version.js';
import { clawArenaWarmSlot } from './tournaments/run/clawarena-game.js';
import { clawArenaRunner, type GameRunners, specArenaRunner } from './tournaments/run/game-runner.js';
import { createTournamentService, type TournamentService } from './tournaments/service.js';
import { WarmDesk } from './tournaments/warm/warm-desk.js';
import type { WarmHooks } from './tournaments/warm/warm-pool.js';

export const DEFAULT_STALE_AFTER_MS = 30 * 60 * 1000;
const CLOSE_GRACE_MS = 2000;

export interface EngineOptions {
  dataDir: string;
  /**
   * Keeps the database in memory (lost on close) instead of `arena.sqlite` in `dataDir`. For `bench:engine` only, to
   * split what durability costs from the rest of an action; never for a real run.
   */
  volatileDatabase?: boolean;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * With `port` 0: listen on the port this data folder's engine last had on `host` when it is free (else a free one)
   * and remember the port it got, so an open page finds the restarted engine (`arena serve`).
   */
  reuseLastPort?: boolean;
  authMode?: boolean;
  staleAfterMs?: number;
  clock?: Clock;
  testHooks?: boolean;
  pingIntervalMs?: number;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** Built renderer to serve at /; defaults to dist/renderer when it exists. */
  rendererDir?: string | null;
  challengesDir?: string;
  /** Also serve the ClawArena agent API over HTTPS on loopback: true = the data dir's self-signed certificate. */
  tls?: boolean | { certFile: string; keyFile: string };
  /** Port of the HTTPS listener; 0 (default) picks a free one. */
  tlsPort?: number;
  /** Continue tournaments left 'running' by a previous process (default true). */
  resumeTournaments?: boolean;
  /** Sessions a client may open per minute on the public API (default: ARENA_SESSIONS_PER_MINUTE, else 600; 0 = no cap). */
  sessionsPerMinute?: number;
  /** Agent folders the user marked trusted: their agents run without the OS sandbox (`--trust-agent-dir`). */
  trustedAgentDirs?: readonly string[];
  /** Lobby game of agents created by the legacy `POST /agents/provision/` (`--clawarena-default-game`). */
  clawarenaDefaultGame?: string;
  /** Play every tournament game through these runners (game workers on a queue, `--queue`) instead of here. */
  remoteRunners?: GameRunners;
  /**
   * Hash the agents' Node in the background at start, so the first tournament created does not stop the event loop
   * for it (~1 s of CPU, seconds on a loaded machine). For the engines a UI talks to (the app's, `arena serve`); a
   * command that creates its tournament at once gains nothing, and tests of other routes save the CPU.
   */
  prepareAgentRuntime?: boolean;
}

export interface RunningEngine {
  url: string;
  port: number;
  /** With `reuseLastPort`: the last port, when another program had taken it (a free port was used instead). */
  lastPortTaken?: number;
  host: string;
  token: string;
  /** A one-time code for a UI link: the page trades it once for the token (the token itself never goes in a URL). */
  issueLaunchCode(ttlMs?: number): string;
  dataDir: string;
  engine: ArenaEngine;
  store: Store;
  http: FastifyInstance;
  /** ClawArena agent API service (createMatch() for the tournament scheduler). */
  clawarena: ClawArenaService;
  /** Tournaments played against this engine (arena run, admin API). */
  tournaments: TournamentService;
  /** The runners that play games in this engine, per protocol (a game worker plays its jobs with them). */
  localRunners: GameRunners;
  /** Every challenge and game this engine can play, with its protocol and folder. */
  playables: PlayableRegistry;
  /** Where warm agents' processes get their seats (a game worker keeps the jobs' warm agents with them). */
  warmHooks: WarmHooks;
  /** Governance matches started from the admin API. */
  governance: GovernanceRunner;
  /** Present when started with `tls`: the HTTPS agent listener and the certificate clients should trust. */
  tls?: { url: string; port: number; certPath: string; generated: boolean };
  close(): Promise<void>;
}

function defaultRendererDir(): string | undefined {
  // engine/app.ts → <root>/dist/renderer; dist/engine/app.js → <root>/dist/renderer.
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.resolve(here, '../dist/renderer'), path.resolve(here, '../renderer')]) {
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return undefined;
}

export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const authMode = options.authMode ?? false;
  const { orphansEnded, hostOrphansEnded } = prepareHost(options);
  const store = openStore({ file: options.volatileDatabase ? ':memory:' : path.join(options.dataDir, 'arena.sqlite') });
  try {
    const challenges = await loadChallenges(options.challengesDir);
    const rngSecret = loadOrCreateSecret(options.dataDir, 'rng');
    const authSecret = loadOrCreateSecret(options.dataDir, 'auth');
    const live = createLiveBus();
    const token = randomBytes(32).toString('base64url');
    registerEngineSecrets(token, rngSecret, authSecret);
    const launchCodes = createLaunchCodes(token, () => clock.now());
    let http: FastifyInstance | undefined;
    let tournaments: TournamentService | undefined;
    // Known once the tournaments exist (below); "New model agent" checks its challenges against it.
    let playableRegistry: PlayableRegistry | undefined;
    const clawarena = createClawArena(options, store, clock, rngSecret);
    const engine = createArenaEngine({
      store,
      challenges,
      live,
      clock,
      seed: createSeeder(rngSecret),
      staleAfterMs,
      onScoringError: (error, result) => http?.log.error({ err: error, gameId: result.gameId }, 'scoring failed'),
    });
    const warmDesk = new WarmDesk();
    const sandbox = engineSandbox(options, store);
    const governance = createGovernanceRunner({
      store,
      dataDir: options.dataDir,
      sandbox,
      log: (message) => http?.log.warn(message),
    });
    http = await createHttpServer({
      engine,
      scoring: createScoringReader(store),
      identity: { authMode, secret: authSecret, now: () => clock.now() },
      clawarena,
      warmDesk,
      version: APP_VERSION,
      pingIntervalMs: options.pingIntervalMs,
      logLevel: options.logLevel,
      sessionsPerMinute: options.sessionsPerMinute ?? sessionCapFromEnv(),
      rendererDir: options.rendererDir === null ? undefined : (options.rendererDir ?? defaultRendererDir()),
      admin: {
        token,
        launchCodes,
        adminSessions: createAdminSessions(() => clock.now(), store.adminSessions),
        engine,
        version: APP_VERSION,
        dataDir: path.resolve(options.dataDir),
        authMode,
        staleAfterMs,
        secret: authSecret,
        now: () => clock.now(),
        recompute: () => recomputeScores(store),
        tournaments: () => tournaments,
        governance: { store, runner: governance },
        agents: agentCatalog(store, sandbox, () => playableRegistry),
        clawarena,
        reset: options.testHooks ? () => resetForTests(live, store) : undefined,
      },
    });
    warnOrphansEnded(http, orphansEnded, hostOrphansEnded);
    // Live streams never end by themselves; close them first so a graceful close does not wait for them.
    http.addHook('preClose', async () => live.closeAll());
    const listening = await listenForEngine(http, host, options, store, clock.now());
    serveOwnPortInProcess(sandbox, http, host, listening.port);
    const sweeper = startStaleSweeper(engine, staleAfterMs);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    const { tls, tlsApp } = await startTls(options, host, urlHost, clawarena, http);
    clawarena.setBaseUrls({ http: `http://${urlHost}:${listening.port}`, https: tls?.url ?? null });
    const { localRunners, playables, warmHooks, tournamentService } = createTournaments(options, {
      url: `http://${urlHost}:${listening.port}`,
      store,
      clock,
      engine,
      challenges,
      clawarena,
      authSecret,
      warmDesk,
      sandbox,
    });
    tournaments = tournamentService;
    playableRegistry = playables;
    if (options.resumeTournaments !== false) tournamentService.resumeInterrupted();
    let closed: Promise<void> | undefined;
    const server = http;
    return {
      url: `http://${urlHost}:${listening.port}`,
      ...listening,
      host,
      token,
      issueLaunchCode: (ttlMs?: number) => launchCodes.issue(ttlMs),
      dataDir: options.dataDir,
      engine,
      store,
      http: server,
      clawarena,
      tournaments: tournamentService,
      localRunners,
      warmHooks,
      playables,
      governance,
      tls,
      close() {
        closed ??= closeEngine({ sweeper, tournaments: tournamentService, governance, clawarena, tlsApp, http: server, store });
        return closed;
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Before anything else: the data folder, what a killed engine left running, and (for a UI's engine) the runtime digest. */
function prepareHost(options: EngineOptions): { orphansEnded: number; hostOrphansEnded: number } {
  ensurePrivateDir(options.dataDir);
  // Agents an engine that was killed left running end before this one launches any: sandboxes it was still setting up
  // (orphan-sandboxes.ts) and trusted agents, which no PID namespace ends (orphan-host-agents.ts).
  const orphansEnded = reapOrphanedSandboxes();
  const hostOrphansEnded = reapOrphanedHostAgents();
  // The first tournament records the agents' Node by its digest: computed now, off the event loop's critical path.
  if (options.prepareAgentRuntime === true) void prepareNodeRuntimeRecord();
  return { orphansEnded, hostOrphansEnded };
}

/** The agents page's catalogue; "New model agent" checks its challenges against the playables once they exist. */
function agentCatalog(store: Store, sandbox: SandboxPolicy, playables: () => PlayableRegistry | undefined) {
  return createAgentCatalog({
    store,
    cannotStart: (file, dir) => cannotStartHere(loadManifest(file), dir, sandbox),
    newModelAgent: { protocolOf: (id) => playables()?.get(id)?.protocol, serverProblems: (agent) => modelServerProblems(agent) },
  });
}

// Scrubbed from whatever the engine stores or shows, should an agent ever get hold of one.
function registerEngineSecrets(token: string, rngSecret: Buffer, authSecret: Buffer): void {
  registerSecret('admin-token', token);
  registerSecret('rng-key', rngSecret.toString('hex'));
  registerSecret('auth-key', authSecret.toString('hex'));
}

function warnOrphansEnded(http: FastifyInstance, orphansEnded: number, hostOrphansEnded: number): void {
  if (orphansEnded > 0)
    http.log.warn(`ended ${orphansEnded} agent sandbox(es) left running by an engine that was killed while launching them`);
  if (hostOrphansEnded > 0)
    http.log.warn(`ended ${hostOrphansEnded} process(es) of trusted agents left running by an engine that was killed`);
}

/** A sandboxed agent's stream to this port is handed to the HTTP server in-process (no TCP round trip to ourselves). */
function serveOwnPortInProcess(sandbox: SandboxPolicy, http: FastifyInstance, host: string, port: number): void {
  const ownEndpoint = `${host === 'localhost' ? '127.0.0.1' : host}:${port}`;
  const httpServer = http.server;
  const serveForwarded = (socket: Socket): void => {
    if (httpServer.listening) httpServer.emit('connection', socket);
    else socket.destroy();
  };
  sandbox.localEndpoints = (endpoint) => (endpoint === ownEndpoint ? serveForwarded : null);
}

/** Expires stale sessions every half of their allowance (between 1 s and a minute); none when expiry is off. */
function startStaleSweeper(engine: ArenaEngine, staleAfterMs: number): NodeJS.Timeout | undefined {
  const sweepEvery = staleAfterMs > 0 ? Math.min(60_000, Math.max(1000, Math.floor(staleAfterMs / 2))) : 0;
  const sweeper = sweepEvery > 0 ? setInterval(() => engine.sweepStale(), sweepEvery) : undefined;
  sweeper?.unref();
  return sweeper;
}

/** The HTTPS agent listener when asked for; if it cannot start, what already started is closed before the error. */
async function startTls(
  options: EngineOptions,
  host: string,
  urlHost: string,
  clawarena: ClawArenaService,
  http: FastifyInstance,
): Promise<{ tls: RunningEngine['tls']; tlsApp: FastifyInstance | undefined }> {
  if (!options.tls) return { tls: undefined, tlsApp: undefined };
  const certificate =
    options.tls === true
      ? loadOrCreateLoopbackCertificate(options.dataDir)
      : loadCertificateFiles(options.tls.certFile, options.tls.keyFile);
  const listener = await startTlsAgentListener({
    host,
    port: options.tlsPort ?? 0,
    certificate,
    clawarena,
    logLevel: options.logLevel,
  }).catch(async (error: unknown) => {
    clawarena.close();
    await http.close();
    throw error;
  });
  const { certPath, generated } = certificate;
  return { tls: { url: `https://${urlHost}:${listener.port}`, port: listener.port, certPath, generated }, tlsApp: listener.app };
}

/** Stops the runs, wakes parked long-polls, closes the listeners (in-flight requests get a grace period), then the DB. */
async function closeEngine(parts: {
  sweeper: NodeJS.Timeout | undefined;
  tournaments: TournamentService;
  governance: GovernanceRunner;
  clawarena: ClawArenaService;
  tlsApp: FastifyInstance | undefined;
  http: FastifyInstance;
  store: Store;
}): Promise<void> {
  const { sweeper, tournaments, governance, clawarena, tlsApp, http, store } = parts;
  if (sweeper) clearInterval(sweeper);
  await Promise.all([tournaments.close(), governance.close()]);
  // Wakes parked ClawArena long-polls so a graceful close does not wait for them.
  clawarena.close();
  await tlsApp?.close();
  // In-flight requests get a grace period; a socket that never sent a request (a client's preconnect) would otherwise
  // hold the close up indefinitely.
  const grace = setTimeout(() => http.server.closeAllConnections(), CLOSE_GRACE_MS);
  await http.close();
  clearTimeout(grace);
  store.close();
}

/** Trusted: the folders given at start, those marked trusted in the app, and where no OS sandbox exists (Windows) the
 * app's own shipped agents, like the app itself. */
function engineSandbox(options: EngineOptions, store: Store): SandboxPolicy {
  const shipped = process.platform === 'win32' ? builtinAgentFolders().map((f) => f.path) : [];
  return sandboxPolicy(options.dataDir, [...(options.trustedAgentDirs ?? []), ...shipped], () =>
    store.agentFolders.list().flatMap((f) => (f.trusted ? [f.path] : [])),
  );
}

/** The tournament service, playing on this engine's own runners unless remote ones (game workers) were given. */
function createTournaments(
  options: EngineOptions,
  parts: {
    /** The engine's own base URL. */
    url: string;
    store: Store;
    clock: Clock;
    engine: ArenaEngine;
    challenges: Awaited<ReturnType<typeof loadChallenges>>;
    clawarena: ClawArenaService;
    authSecret: Buffer;
    warmDesk: WarmDesk;
    sandbox: SandboxPolicy;
  },
) {
  const { url, store, clock, engine, challenges, clawarena, authSecret, warmDesk, sandbox } = parts;
  const localRunners: GameRunners = {
    specarena: specArenaRunner({ engine, url, authSecret }),
    clawarena: clawArenaRunner(clawarena),
  };
  const remote = options.remoteRunners;
  const playables = new PlayableRegistry([...specArenaPlayables(challenges), ...clawArenaPlayables(clawarena.games)]);
  const warmHooks: WarmHooks = { desk: warmDesk, url, clawSlot: clawArenaWarmSlot(clawarena) };
  const tournamentService = createTournamentService({
    store,
    playables,
    runners: remote ?? localRunners,
    ...(remote ? { remoteGames: true } : {}),
    dataDir: options.dataDir,
    clock,
    warm: warmHooks,
    sandbox,
    modelServers: modelServerProblems,
    modelBuild,
  });
  return { localRunners, playables, warmHooks, tournamentService };
}

/** Test hooks only: ends the live streams and empties the database. */
function resetForTests(live: ReturnType<typeof createLiveBus>, store: Store): void {
  live.closeAll();
  store.clearAll();
}

/** Listens on the port asked for (with `reuseLastPort`, this folder's last one when free) and remembers the one it got. */
async function listenForEngine(
  http: FastifyInstance,
  host: string,
  options: EngineOptions,
  store: Store,
  now: number,
): Promise<{ port: number; lastPortTaken?: number }> {
  const reuse = options.reuseLastPort === true && (options.port ?? 0) === 0;
  const bound = await listenOn(http, host, options.port ?? 0, reuse ? store.enginePorts.last(host) : undefined);
  if (reuse) store.enginePorts.record(host, bound.port, now);
  return bound.preferredPortTaken === undefined ? { port: bound.port } : { port: bound.port, lastPortTaken: bound.preferredPortTaken };
}

/**
 * Listens and returns the port it got: the one asked for, or for 0 the preferred one when it is free, else a free one
 * (`preferredPortTaken` then names the port that was taken).
 */
async function listenOn(
  http: FastifyInstance,
  host: string,
  port: number,
  preferred: number | undefined,
): Promise<{ port: number; preferredPortTaken?: number }> {
  const bound = () => {
    const address = http.server.address();
    return typeof address === 'object' && address ? address.port : port;
  };
  if (port === 0 && preferred !== undefined && preferred > 0) {
    try {
      await http.listen({ host, port: preferred });
      return { port: bound() };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      await http.listen({ host, port: 0 });
      return { port: bound(), preferredPortTaken: preferred };
    }
  }
  await http.listen({ host, port });
  return { port: bound() };
}

function createClawArena(options: EngineOptions, store: Store, clock: Clock, rngSecret: Buffer): ClawArenaService {
  return createClawArenaService({
    store,
    clock,
    seed: createSeeder(rngSecret),
    version: APP_VERSION,
    ...(options.clawarenaDefaultGame ? { defaultGameType: options.clawarenaDefaultGame } : {}),
  });
}
