// Launches one agent from its manifest and always comes back with a LaunchResult: the agent runs in the OS sandbox
// (os-sandbox.ts; unless its folder is trusted) in a fresh workspace with an allow-listed environment, stdin closed,
// output capped and rlimits, reaching only its arena endpoints, as the leader of its own process group — which is
// killed as a whole on timeout, cancellation or exit, so nothing outlives the run.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Isolation } from '../contract/isolation.js';
import type { AgentManifest } from '../contract/manifest.js';
import { withAgentBins } from './agent-bins.js';
import { commandArgv } from './agent-command.js';
import { buildAgentEnv, grantedSecrets, hostAllowList } from './agent-env.js';
import { buildDockerArgv, CONTAINER_WORKSPACE, containerName } from './docker-argv.js';
import { type Forward, type Forwarders, startForwarders } from './endpoint-forward.js';
import { findExecutable } from './executable.js';
import { type AppliedIsolation, SandboxCommandError, sandboxCommand } from './os-sandbox.js';
import { OutputCapture } from './output-capture.js';
import { groupRunning, signalGroup, TreeWatcher } from './process-tree.js';
import { type AppliedRlimits, sandboxSupport, userProcessCount, withRlimits } from './sandbox.js';
import { pyRepr } from './shlex.js';

export type Termination = 'exited' | 'timeout' | 'cancelled' | 'output_limit' | 'spawn_error';
export type NetworkMode = 'none' | 'loopback';

export interface RunLimits {
  /** Wall-clock limit for the whole run (default: the manifest's `limits.game_seconds`, else 30 s, docker 120 s). */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL of the process group. */
  killGraceMs?: number;
  stdoutBytes?: number;
  stderrBytes?: number;
  /** Size of the stdout/stderr tails kept for logs. */
  tailBytes?: number;
  /** Kill the run once stdout + stderr exceed this many bytes (default: never; output past the caps is discarded). */
  outputLimitBytes?: number;
  /** Address space of a process / memory of a container (default: the manifest's `limits.memory_mb`, else 32 GiB / 2 GiB). */
  memoryMb?: number;
  cpuSeconds?: number;
  openFiles?: number;
  /** Processes the user may have: a number, or 'auto' = the user's current count + 256 (default). */
  processes?: number | 'auto';
}

export const RUNNER_DEFAULTS = {
  processTimeoutMs: 30_000,
  dockerTimeoutMs: 120_000,
  killGraceMs: 2_000,
  stdoutBytes: 4 * 1024 * 1024,
  stderrBytes: 1024 * 1024,
  tailBytes: 64 * 1024,
  // RLIMIT_AS counts reserved virtual memory: Node's fetch (WebAssembly) fails below about 12 GiB, so the default only stops runaways.
  processMemoryMb: 32 * 1024,
  dockerMemoryMb: 2 * 1024,
  cpuSeconds: 120,
  openFiles: 1024,
  processHeadroom: 256,
} as const;

export interface LaunchOptions {
  manifest: AgentManifest;
  /** Folder of the agent.yaml: relative paths in the command resolve against it. */
  manifestDir: string;
  /** Runner variables (ARENA_*); they win over the manifest env. ARENA_WORKSPACE is always set by the runner. */
  env?: Record<string, string>;
  limits?: RunLimits;
  signal?: AbortSignal;
  /** A fresh workspace is created under this folder (named `workspaceName`, else a random name). */
  workspaceRoot: string;
  workspaceName?: string;
  /**
   * 'none' (default): no network but `arenaEndpoints` and the manifest's `network.allow` (forwarded into the sandbox).
   * 'loopback': the host network, when the operator asks for it (the file system and processes stay sandboxed).
   */
  network?: NetworkMode;
  /** `host:port` of the arena the agent plays on (its ARENA_URL), reachable from the sandbox. */
  arenaEndpoints?: readonly string[];
  /** The agent's folder is trusted: run it without the OS sandbox (recorded in its isolation). */
  trusted?: boolean;
  /** Folders that stay hidden even when inside a folder the sandbox shows (the data directory). */
  privatePaths?: readonly string[];
  /** Linux, engine running as root: start the sandbox as this user (the hostile-agent suite runs its attacks so). */
  runAs?: { uid: number; gid: number };
  /** Refuse to run a trusted agent when network denial was asked for but is unavailable. */
  requireNetworkIsolation?: boolean;
  /** Source of the allow-listed variables and granted secrets (default: process.env). */
  hostEnv?: NodeJS.ProcessEnv;
  /** Used in the docker container name. */
  label?: string;
  /** Sees stderr as it arrives (a warm agent's per-game usage lines; the capture is unchanged). */
  onStderr?: (chunk: Buffer) => void;
  dockerBinary?: string;
}

export interface IsolationRecord extends AppliedIsolation {
  sandbox: 'process' | 'docker';
  /**
   * What the agent actually got: 'none' no network, 'endpoints' only `endpoints`, 'loopback' the host network;
   * 'unavailable' = a trusted agent's denial was asked for but the OS did not allow it.
   */
  network: NetworkMode | 'endpoints' | 'unavailable';
  rlimits: AppliedRlimits | null;
}

export interface LaunchResult {
  /** Process id of the agent (its process group id on POSIX); null when it never started. */
  pid: number | null;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  startedAt: number;
  peakRssKb?: number;
  termination: Termination;
  /** Why the launch failed, for spawn_error. */
  detail: string | null;
  /**
   * For spawn_error: true when the harness failed (workspace, required isolation missing, docker CLI missing, runner
   * bug), false when the agent's own command could not be started (a program that does not exist).
   */
  harnessError: boolean;
  /**
   * The sandbox itself died on a signal the runner did not send: someone outside killed the seat. An agent cannot do
   * that from inside (the sandbox's supervisor is outside its PID namespace), so this is never the agent's fault.
   */
  killedExternally: boolean;
  /** Output up to the caps, decoded as UTF-8 (replacement characters for invalid bytes). */
  stdout: string;
  stderr: string;
  stdoutTail: string;
  stderrTail: string;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  truncated: boolean;
  limits: { timeoutMs: number; stdoutBytes: number; stderrBytes: number };
  workspace: string;
  argv: string[];
  isolation: IsolationRecord;
}

/** The recorded part of a launch's isolation (contract/isolation.ts), without the rlimits. */
export function isolationOf(record: IsolationRecord): Isolation {
  const { method, filesystem, pid, network, endpoints, trusted } = record;
  return { method, filesystem, pid, network, endpoints: [...endpoints], trusted };
}

export interface LaunchHandle {
  readonly workspace: string;
  /** Process id (= process group id) once started. */
  readonly pid: number | undefined;
  readonly result: Promise<LaunchResult>;
  /** The isolation it runs under, complete once started (a warm agent's games record it before it exits). */
  readonly isolation: IsolationRecord;
  /** Cancels the run: the process group is terminated and the result's termination is 'cancelled'. */
  stop(): void;
}

/** The agent's own command cannot be started: the agent's fault, not the harness's. */
class AgentCommandError extends Error {}

const DOCKER_CLIENT_ENV = ['DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CONTEXT', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY'];

interface Plan {
  argv: string[];
  env: Record<string, string>;
  containerName: string | null;
  /** The OS sandbox's per-launch folder and forwarded endpoints, when sandboxed. */
  launchDir?: string;
  forwards?: Forward[];
}

export function launchAgent(options: LaunchOptions): LaunchHandle {
  const t0 = performance.now();
  const startedAt = Date.now();
  const { manifest } = options;
  const docker = manifest.entrypoint.type === 'docker';
  const hostEnv = options.hostEnv ?? process.env;
  const network = options.network ?? 'none';
  const workspace = path.resolve(options.workspaceRoot, options.workspaceName ?? `run-${randomBytes(6).toString('hex')}`);
  const limits = resolveLimits(options, docker);
  const isolation: IsolationRecord = docker
    ? {
        sandbox: 'docker',
        method: 'docker',
        filesystem: 'container',
        pid: 'container',
        network,
        endpoints: [],
        trusted: false,
        rlimits: null,
      }
    : {
        sandbox: 'process',
        method: 'none',
        filesystem: 'host',
        pid: 'host',
        network,
        endpoints: [],
        trusted: options.trusted === true,
        rlimits: null,
      };
  const out = new OutputCapture(limits.stdoutBytes, limits.tailBytes);
  const err = new OutputCapture(limits.stderrBytes, limits.tailBytes);
  let argv: string[] = [];
  let pid: number | undefined;
  let cancel: () => void = () => {
    cancelledEarly = true;
  };
  let cancelledEarly = false;

  const finish = (termination: Termination, fields: Partial<LaunchResult> = {}): LaunchResult => ({
    pid: pid ?? null,
    exitCode: null,
    signal: null,
    durationMs: performance.now() - t0,
    startedAt,
    termination,
    detail: null,
    harnessError: false,
    killedExternally: false,
    stdout: out.text(),
    stderr: err.text(),
    stdoutTail: out.tailText(),
    stderrTail: err.tailText(),
    stdoutBytes: out.total,
    stderrBytes: err.total,
    stdoutTruncated: out.truncated,
    stderrTruncated: err.truncated,
    truncated: out.truncated || err.truncated,
    limits: { timeoutMs: limits.timeoutMs, stdoutBytes: limits.stdoutBytes, stderrBytes: limits.stderrBytes },
    workspace,
    argv,
    isolation,
    ...fields,
  });

  const run = async (): Promise<LaunchResult> => {
    let plan: Plan;
    try {
      fs.mkdirSync(workspace, { recursive: true });
      if (fs.readdirSync(workspace).length > 0) throw new Error(`workspace ${workspace} is not empty`);
      plan = docker
        ? dockerPlan(options, workspace, hostEnv, network, limits)
        : processPlan(options, workspace, hostEnv, network, limits, isolation);
    } catch (error) {
      const agentsFault = error instanceof AgentCommandError || error instanceof SandboxCommandError;
      return finish('spawn_error', { detail: (error as Error).message, harnessError: !agentsFault });
    }
    argv = plan.argv;
    let forwarders: Forwarders | null = null;
    const cleanUp = async (): Promise<void> => {
      await forwarders?.close();
      if (plan.launchDir) fs.rmSync(plan.launchDir, { recursive: true, force: true });
    };
    try {
      if (plan.forwards && plan.forwards.length > 0)
        forwarders = await startForwarders(plan.launchDir as string, plan.forwards, options.runAs);
      return await spawnPlanned(plan);
    } finally {
      await cleanUp();
    }
  };

  const spawnPlanned = async (plan: Plan): Promise<LaunchResult> => {
    if (cancelledEarly || options.signal?.aborted) return finish('cancelled', { detail: 'cancelled before start' });
    const sandboxed = plan.launchDir !== undefined && isolation.method === 'bubblewrap';

    const child = spawn(plan.argv[0] as string, plan.argv.slice(1), {
      cwd: workspace,
      env: plan.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A new session and process group on POSIX: the group id is the agent's pid.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    if (child.pid === undefined)
      return finish('spawn_error', { detail: `failed to launch command ${pyRepr(plan.argv)}: ${(await spawnError).message}` });
    const leader = child.pid;
    pid = leader;
    const watcher = new TreeWatcher(leader);
    watcher.start();

    const streamsClosed = Promise.all([
      new Promise<void>((resolve) => child.stdout.once('close', () => resolve())),
      new Promise<void>((resolve) => child.stderr.once('close', () => resolve())),
    ]);
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    );

    let termination: Termination = 'exited';
    let terminating: Promise<void> | null = null;
    let leaderDone = false;
    const terminate = (reason: Termination) => {
      if (terminating || leaderDone) return;
      termination = reason;
      terminating = (async () => {
        if (plan.containerName) dockerKill(plan.argv[0] as string, plan.containerName, plan.env);
        // The sandbox's supervisor would die on SIGTERM and take everything with it at once: the agent's own
        // processes (below the sandbox's init) get the SIGTERM, the supervisor the SIGKILL after the grace.
        if (sandboxed) watcher.signalTree('SIGTERM', 2);
        else signalGroup(leader, 'SIGTERM');
        if (!(await waitUntil(() => !groupRunning(leader), limits.killGraceMs))) signalGroup(leader, 'SIGKILL');
      })();
    };
    cancel = () => terminate('cancelled');
    const onAbort = () => terminate('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted || cancelledEarly) terminate('cancelled');
    const timer = setTimeout(() => terminate('timeout'), limits.timeoutMs);

    const overLimit = () => limits.outputLimitBytes !== undefined && out.total + err.total > limits.outputLimitBytes;
    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      if (overLimit()) terminate('output_limit');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err.push(chunk);
      options.onStderr?.(chunk);
      if (overLimit()) terminate('output_limit');
    });

    const [exitCode, signal] = await exited;
    const durationMs = performance.now() - t0;
    leaderDone = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (terminating) await terminating;
    // The agent is done: whatever it left behind in its group, or that escaped the group, dies now.
    watcher.stop();
    if (groupRunning(leader)) signalGroup(leader, 'SIGKILL');
    watcher.killSurvivors();
    await waitUntil(() => !groupRunning(leader) && !watcher.anySurvivor(), 2_000);
    // A process outside our reach could hold the pipes open forever; stop reading after a short wait.
    if (!(await settlesWithin(streamsClosed, 500))) {
      child.stdout.destroy();
      child.stderr.destroy();
    }
    const killedExternally = sandboxed && termination === 'exited' && signal !== null;
    return finish(termination, { exitCode, signal, durationMs, peakRssKb: watcher.peakRssKb, killedExternally });
  };

  const result = run().catch((error: unknown) =>
    finish('spawn_error', { detail: `runner error: ${(error as Error).message}`, harnessError: true }),
  );
  return {
    workspace,
    isolation,
    get pid() {
      return pid;
    },
    result,
    stop: () => cancel(),
  };
}

interface ResolvedLimits {
  timeoutMs: number;
  killGraceMs: number;
  stdoutBytes: number;
  stderrBytes: number;
  tailBytes: number;
  outputLimitBytes: number | undefined;
  memoryMb: number;
  cpuSeconds: number;
  openFiles: number;
  processes: number | 'auto';
}

function resolveLimits(options: LaunchOptions, docker: boolean): ResolvedLimits {
  const given = options.limits ?? {};
  const manifestLimits = options.manifest.limits;
  const gameMs = manifestLimits?.game_seconds === undefined ? undefined : manifestLimits.game_seconds * 1000;
  return {
    timeoutMs: given.timeoutMs ?? gameMs ?? (docker ? RUNNER_DEFAULTS.dockerTimeoutMs : RUNNER_DEFAULTS.processTimeoutMs),
    killGraceMs: given.killGraceMs ?? RUNNER_DEFAULTS.killGraceMs,
    stdoutBytes: given.stdoutBytes ?? RUNNER_DEFAULTS.stdoutBytes,
    stderrBytes: given.stderrBytes ?? RUNNER_DEFAULTS.stderrBytes,
    tailBytes: given.tailBytes ?? RUNNER_DEFAULTS.tailBytes,
    outputLimitBytes: given.outputLimitBytes,
    memoryMb: given.memoryMb ?? manifestLimits?.memory_mb ?? (docker ? RUNNER_DEFAULTS.dockerMemoryMb : RUNNER_DEFAULTS.processMemoryMb),
    cpuSeconds: given.cpuSeconds ?? RUNNER_DEFAULTS.cpuSeconds,
    openFiles: given.openFiles ?? RUNNER_DEFAULTS.openFiles,
    processes: given.processes ?? 'auto',
  };
}

function processPlan(
  options: LaunchOptions,
  workspace: string,
  hostEnv: NodeJS.ProcessEnv,
  network: NetworkMode,
  limits: ResolvedLimits,
  isolation: IsolationRecord,
): Plan {
  const { manifest } = options;
  const env = buildAgentEnv({ manifest, hostEnv, runnerEnv: { ...options.env, ARENA_WORKSPACE: workspace } });
  // `arena-agent …` resolves to the app's own launcher, whatever the host PATH holds.
  const searchPath = withAgentBins(env.PATH);
  if (searchPath !== undefined) env.PATH = searchPath;
  let argv: string[];
  try {
    argv = commandArgv(manifest.entrypoint, options.manifestDir);
  } catch (error) {
    throw new AgentCommandError(`failed to launch command ${pyRepr(manifest.entrypoint.command ?? '')}: ${(error as Error).message}`);
  }
  const program = findExecutable(argv[0] as string, env.PATH, workspace);
  if (program === null) {
    throw new AgentCommandError(
      `failed to launch command ${pyRepr(manifest.entrypoint.command ?? '')}: [Errno 2] No such file or directory: ${pyRepr(argv[0] as string)}`,
    );
  }
  const named = [...argv];
  argv[0] = program;
  const support = sandboxSupport();
  const endpoints = [...(options.arenaEndpoints ?? []), ...(manifest.network?.allow ?? [])];
  let sandbox: Pick<Plan, 'launchDir' | 'forwards'> = {};
  if (!options.trusted) {
    // The sandbox resolves the program again on the PATH it shows (a pyenv shim in $HOME is not there; /usr/bin is).
    const sandboxed = sandboxCommand({
      argv: named,
      env,
      agentDir: options.manifestDir,
      workspace,
      endpoints,
      shareNet: network === 'loopback',
      privatePaths: options.privatePaths ?? [],
      ...(options.runAs ? { runAs: options.runAs } : {}),
      support,
    });
    argv = sandboxed.argv;
    Object.assign(env, sandboxed.env);
    Object.assign(isolation, sandboxed.isolation);
    if (network !== 'loopback') isolation.network = endpoints.length > 0 ? 'endpoints' : 'none';
    sandbox = { launchDir: sandboxed.launchDir, forwards: sandboxed.forwards };
  } else if (network === 'none' && endpoints.length > 0) {
    // A trusted agent that must reach its arena gets the host network.
    isolation.network = 'loopback';
  } else if (network === 'none') {
    if (support.networkDenyPrefix) argv = [...support.networkDenyPrefix, ...argv];
    else {
      isolation.network = 'unavailable';
      if (options.requireNetworkIsolation) throw new Error('network isolation unavailable');
    }
  }
  const processes = limits.processes === 'auto' ? autoProcessLimit() : limits.processes;
  const wrapped = withRlimits(
    argv,
    { cpuSeconds: limits.cpuSeconds, addressSpaceBytes: limits.memoryMb * 1024 * 1024, openFiles: limits.openFiles, processes },
    support,
  );
  if (wrapped) {
    argv = wrapped.argv;
    isolation.rlimits = wrapped.applied;
  }
  return { argv, env, containerName: null, ...sandbox };
}

function autoProcessLimit(): number | null {
  const count = userProcessCount();
  return count === null ? null : count + RUNNER_DEFAULTS.processHeadroom;
}

function dockerPlan(
  options: LaunchOptions,
  workspace: string,
  hostEnv: NodeJS.ProcessEnv,
  network: NetworkMode,
  limits: ResolvedLimits,
): Plan {
  const { manifest } = options;
  const image = manifest.entrypoint.image;
  if (!image) throw new Error(`DockerRunner requires manifest.entrypoint.image (agent '${manifest.id}' has none set)`);
  // The container sees only the manifest env, granted secrets and runner variables — never the host environment.
  const containerEnv: Record<string, string> = {
    ...manifest.entrypoint.env,
    ...grantedSecrets(manifest, hostEnv),
    ...options.env,
    ARENA_WORKSPACE: CONTAINER_WORKSPACE,
  };
  const clientEnv: Record<string, string> = {};
  for (const name of [...hostAllowList(), ...DOCKER_CLIENT_ENV]) {
    const value = hostEnv[name];
    if (value !== undefined) clientEnv[name] = value;
  }
  // Values travel through the client's environment (`--env NAME`), except names the client itself needs.
  const inline: Record<string, string> = {};
  const byName: string[] = [];
  for (const [name, value] of Object.entries(containerEnv)) {
    if (name in clientEnv || DOCKER_CLIENT_ENV.includes(name)) inline[name] = value;
    else byName.push(name);
  }
  const dockerBinary = options.dockerBinary ?? 'docker';
  const program = findExecutable(dockerBinary, hostEnv.PATH, workspace);
  if (program === null) throw new Error(`[docker-runner] failed to launch container: ${dockerBinary} not found`);
  const name = containerName([options.label ?? manifest.id]);
  const argv = buildDockerArgv({
    docker: program,
    image,
    command: manifest.entrypoint.command,
    name,
    workspace,
    envNames: byName,
    inlineEnv: inline,
    network,
    memoryMb: limits.memoryMb,
    user: typeof process.getuid === 'function' && typeof process.getgid === 'function' ? `${process.getuid()}:${process.getgid()}` : null,
  });
  for (const nameOnly of byName) clientEnv[nameOnly] = containerEnv[nameOnly] as string;
  return { argv, env: clientEnv, containerName: name };
}

function dockerKill(docker: string, name: string, env: Record<string, string>): void {
  execFile(docker, ['kill', name], { env, timeout: 10_000, windowsHide: true }, () => {});
}

async function waitUntil(predicate: () => boolean, timeoutMs: number, everyMs = 25): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (predicate()) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return settled;
}
