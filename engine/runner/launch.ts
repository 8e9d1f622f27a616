// Launches one agent from its manifest and always comes back with a LaunchResult: the agent runs in the OS sandbox
// (os-sandbox.ts; unless its folder is trusted) in a fresh workspace with an allow-listed environment, stdin closed,
// output capped and rlimits, reaching only its arena endpoints, as the leader of its own process group — and nothing
// it started outlives the run (process-teardown.ts) on timeout, cancellation or exit.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { ModelCallRecord } from '../contract/model-call.js';
import { BWRAP_INFO_FD } from './bwrap-argv.js';
import { dockerKill, dockerPlan } from './docker-plan.js';
import { type Forwarders, startForwarders } from './endpoint-forward.js';
import { type LaunchOptions, type NetworkMode, type ResolvedLimits, resolveLimits } from './launch-options.js';
import { AgentCommandError, type LaunchPlan, ProgramNotFoundError, processPlan } from './launch-plan.js';
import type { IsolationRecord, LaunchHandle, LaunchResult, Termination } from './launch-result.js';
import type { ModelCallHooks } from './model-proxy.js';
import { SandboxCommandError } from './os-sandbox.js';
import { OutputCapture } from './output-capture.js';
import { namespaceTeardown, settlesWithin, sweepTeardown } from './process-teardown.js';
import { removeSeatCgroup } from './seat-cgroup.js';
import { pyRepr } from './shlex.js';

export { type LaunchOptions, type NetworkMode, RUNNER_DEFAULTS, type RunLimits } from './launch-options.js';
export { type IsolationRecord, isolationOf, type LaunchHandle, type LaunchResult, type Termination } from './launch-result.js';

const OUT_OF_RESOURCES = new Set(['EAGAIN', 'ENOMEM', 'EMFILE', 'ENFILE']);

/** What one launch shares between its steps: its settings, output, and the parts its handle reads later. */
interface LaunchState {
  options: LaunchOptions;
  t0: number;
  startedAt: number;
  docker: boolean;
  hostEnv: NodeJS.ProcessEnv;
  network: NetworkMode;
  workspace: string;
  limits: ResolvedLimits;
  isolation: IsolationRecord;
  out: OutputCapture;
  err: OutputCapture;
  argv: string[];
  pid: number | undefined;
  modelCalls: ModelCallRecord[];
  modelHooks: ModelCallHooks;
  cancel: () => void;
  cancelledEarly: boolean;
}

/** The isolation before a plan is made: a container, or a plain host process until the sandbox plan says more. */
function initialIsolation(docker: boolean, network: NetworkMode, trusted: boolean): IsolationRecord {
  return docker
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
        trusted,
        rlimits: null,
      };
}

function createLaunchState(options: LaunchOptions): LaunchState {
  const docker = options.manifest.entrypoint.type === 'docker';
  const network = options.network ?? 'none';
  const limits = resolveLimits(options, docker);
  const modelCalls: ModelCallRecord[] = [];
  const state: LaunchState = {
    options,
    t0: performance.now(),
    startedAt: Date.now(),
    docker,
    hostEnv: options.hostEnv ?? process.env,
    network,
    workspace: path.resolve(options.workspaceRoot, options.workspaceName ?? `run-${randomBytes(6).toString('hex')}`),
    limits,
    isolation: initialIsolation(docker, network, options.trusted === true),
    out: new OutputCapture(limits.stdoutBytes, limits.tailBytes),
    err: new OutputCapture(limits.stderrBytes, limits.tailBytes),
    argv: [],
    pid: undefined,
    modelCalls,
    modelHooks: {
      started: (call) => options.onModelCall?.(call, 'started'),
      record: (call) => {
        modelCalls.push(call);
        options.onModelCall?.(call, 'ended');
      },
      ...(options.modelReplay ? { replay: options.modelReplay } : {}),
      ...(options.modelCache ? { cache: options.modelCache } : {}),
    },
    cancel: () => {
      state.cancelledEarly = true;
    },
    cancelledEarly: false,
  };
  return state;
}

/** The launch's result: what it captured so far, with the fields this ending sets. */
function finish(state: LaunchState, termination: Termination, fields: Partial<LaunchResult> = {}): LaunchResult {
  const { out, err, limits } = state;
  return {
    pid: state.pid ?? null,
    exitCode: null,
    signal: null,
    durationMs: performance.now() - state.t0,
    startedAt: state.startedAt,
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
    workspace: state.workspace,
    argv: state.argv,
    isolation: state.isolation,
    // The array itself: a call the agent left in flight ends when the forward closes, after this result is made
    // but before the launch settles, and still counts (it loaded the server).
    modelCalls: state.modelCalls,
    ...fields,
  };
}

/** A fresh empty workspace and the plan to run in it, or the spawn_error result saying whose fault it was not to. */
function planLaunch(state: LaunchState): { plan: LaunchPlan } | { failed: LaunchResult } {
  const { options, workspace, hostEnv, network, limits } = state;
  try {
    fs.mkdirSync(workspace, { recursive: true });
    if (fs.readdirSync(workspace).length > 0) throw new Error(`workspace ${workspace} is not empty`);
    const plan = state.docker
      ? dockerPlan(options, workspace, hostEnv, network, limits)
      : processPlan(options, workspace, hostEnv, network, limits, state.isolation);
    return { plan };
  } catch (error) {
    // A program this machine (or the sandbox's view of it) lacks is a set-up fault; a malformed command the agent's.
    if (error instanceof ProgramNotFoundError || error instanceof SandboxCommandError)
      return { failed: finish(state, 'spawn_error', { detail: error.message, harnessError: true, missingProgram: error.program }) };
    const harnessError = !(error instanceof AgentCommandError);
    return { failed: finish(state, 'spawn_error', { detail: (error as Error).message, harnessError }) };
  }
}

async function runLaunch(state: LaunchState): Promise<LaunchResult> {
  const planned = planLaunch(state);
  if ('failed' in planned) return planned.failed;
  const { plan } = planned;
  state.argv = plan.argv;
  let forwarders: Forwarders | null = null;
  try {
    if (plan.forwards && plan.forwards.length > 0) {
      const { options } = state;
      forwarders = await startForwarders(plan.launchDir as string, plan.forwards, options.runAs, options.localEndpoints, state.modelHooks);
    }
    return await spawnPlanned(state, plan);
  } finally {
    await forwarders?.close();
    // Under bubblewrap the launch folder holds three small files and the forwarders' sockets, on /dev/shm where it can:
    // removed at once (on a busy machine each thread-pool hop of the asynchronous removal cost milliseconds). Elsewhere
    // it holds the agent's /tmp, which may be large: off the event loop.
    if (plan.launchDir && state.isolation.method === 'bubblewrap') fs.rmSync(plan.launchDir, { recursive: true, force: true });
    else if (plan.launchDir) await fs.promises.rm(plan.launchDir, { recursive: true, force: true });
    if (plan.seatCgroup) await removeSeatCgroup(plan.seatCgroup);
  }
}

/** Spawns the planned command as the leader of its own process group, or the spawn_error result if it cannot fork. */
async function spawnLeader(
  state: LaunchState,
  plan: LaunchPlan,
  namespaced: boolean,
): Promise<{ child: ChildProcessByStdio<null, Readable, Readable> } | { failed: LaunchResult }> {
  const child = spawn(plan.argv[0] as string, plan.argv.slice(1), {
    cwd: state.workspace,
    env: plan.env,
    stdio: namespaced ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    // A new session and process group on POSIX: the group id is the agent's pid.
    detached: process.platform !== 'win32',
    windowsHide: true,
  }) as ChildProcessByStdio<null, Readable, Readable>;
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  if (child.pid !== undefined) return { child };
  const error = (await spawnError) as NodeJS.ErrnoException;
  // The engine itself could not fork (out of processes, memory or file descriptors): the harness's failure.
  const harnessError = OUT_OF_RESOURCES.has(error.code ?? '');
  const detail = `failed to launch command ${pyRepr(plan.argv)}: ${error.message}`;
  return { failed: finish(state, 'spawn_error', { detail, harnessError }) };
}

/** Captures the agent's output, stopping it once both streams together pass the output limit. */
function captureOutput(
  state: LaunchState,
  child: ChildProcessByStdio<null, Readable, Readable>,
  terminate: (reason: Termination) => void,
): void {
  const { out, err, limits, options } = state;
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
}

/**
 * The sandbox never came to be (bubblewrap, or a wrapper before it, failed before the agent's program could start:
 * out of processes or memory on this machine, its cgroup unjoinable): the harness's failure, never the seat's.
 */
function sandboxFailedToStart(state: LaunchState, exitCode: number | null, durationMs: number): LaunchResult {
  const why = state.err.tailText().trim().split('\n').at(-1) ?? '';
  return finish(state, 'spawn_error', {
    exitCode,
    durationMs,
    harnessError: true,
    detail: `the sandbox could not start (exit ${exitCode}${why ? `: ${why.slice(0, 300)}` : ''})`,
  });
}

async function spawnPlanned(state: LaunchState, plan: LaunchPlan): Promise<LaunchResult> {
  const { options, limits } = state;
  if (state.cancelledEarly || options.signal?.aborted) return finish(state, 'cancelled', { detail: 'cancelled before start' });
  // bubblewrap gives the sandbox a PID namespace and names its init on BWRAP_INFO_FD (3, the fourth stdio pipe).
  const namespaced = plan.launchDir !== undefined && state.isolation.method === 'bubblewrap';
  const spawned = await spawnLeader(state, plan, namespaced);
  if ('failed' in spawned) return spawned.failed;
  const { child } = spawned;
  const leader = child.pid as number;
  state.pid = leader;
  const teardown = namespaced
    ? namespaceTeardown(leader, child.stdio[BWRAP_INFO_FD] as Readable, options.memorySampleMs)
    : sweepTeardown(leader);

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
    if (plan.containerName) dockerKill(plan.argv[0] as string, plan.containerName, plan.env);
    terminating = teardown.terminate(limits.killGraceMs, exited);
  };
  state.cancel = () => terminate('cancelled');
  const onAbort = () => terminate('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted || state.cancelledEarly) terminate('cancelled');
  const timer = setTimeout(() => terminate('timeout'), limits.timeoutMs);
  captureOutput(state, child, terminate);

  const [exitCode, signal] = await exited;
  const durationMs = performance.now() - state.t0;
  leaderDone = true;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  if (terminating) await terminating;
  // The agent is done: whatever it left behind dies now.
  await teardown.finish();
  // A process outside our reach could hold the pipes open forever; stop reading after a short wait.
  if (!(await settlesWithin(streamsClosed, 500))) {
    child.stdout.destroy();
    child.stderr.destroy();
  }
  const killedExternally = namespaced && termination === 'exited' && signal !== null;
  if (namespaced && termination === 'exited' && exitCode !== 0 && !teardown.sandboxStarted)
    return sandboxFailedToStart(state, exitCode, durationMs);
  return finish(state, termination, { exitCode, signal, durationMs, peakRssKb: teardown.peakRssKb, killedExternally });
}

export function launchAgent(options: LaunchOptions): LaunchHandle {
  const state = createLaunchState(options);
  const result = runLaunch(state).catch((error: unknown) =>
    finish(state, 'spawn_error', { detail: `runner error: ${(error as Error).message}`, harnessError: true }),
  );
  return {
    workspace: state.workspace,
    isolation: state.isolation,
    get pid() {
      return state.pid;
    },
    result,
    stop: () => state.cancel(),
  };
}
