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
import { type LaunchOptions, resolveLimits } from './launch-options.js';
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
  const modelCalls: ModelCallRecord[] = [];
  const modelHooks: ModelCallHooks = {
    record: (call) => {
      modelCalls.push(call);
      options.onModelCall?.(call);
    },
    ...(options.modelReplay ? { replay: options.modelReplay } : {}),
    ...(options.modelCache ? { cache: options.modelCache } : {}),
  };
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
    // The array itself: a call the agent left in flight ends when the forward closes, after this result is made
    // but before the launch settles, and still counts (it loaded the server).
    modelCalls,
    ...fields,
  });

  const run = async (): Promise<LaunchResult> => {
    let plan: LaunchPlan;
    try {
      fs.mkdirSync(workspace, { recursive: true });
      if (fs.readdirSync(workspace).length > 0) throw new Error(`workspace ${workspace} is not empty`);
      plan = docker
        ? dockerPlan(options, workspace, hostEnv, network, limits)
        : processPlan(options, workspace, hostEnv, network, limits, isolation);
    } catch (error) {
      // A program this machine (or the sandbox's view of it) lacks is a set-up fault; a malformed command the agent's.
      if (error instanceof ProgramNotFoundError || error instanceof SandboxCommandError)
        return finish('spawn_error', { detail: error.message, harnessError: true, missingProgram: error.program });
      return finish('spawn_error', { detail: (error as Error).message, harnessError: !(error instanceof AgentCommandError) });
    }
    argv = plan.argv;
    let forwarders: Forwarders | null = null;
    try {
      if (plan.forwards && plan.forwards.length > 0)
        forwarders = await startForwarders(plan.launchDir as string, plan.forwards, options.runAs, options.localEndpoints, modelHooks);
      return await spawnPlanned(plan);
    } finally {
      await forwarders?.close();
      // Off the event loop: a directory removal can take milliseconds of journal work on a busy disk.
      if (plan.launchDir) await fs.promises.rm(plan.launchDir, { recursive: true, force: true });
      if (plan.seatCgroup) await removeSeatCgroup(plan.seatCgroup);
    }
  };

  const spawnPlanned = async (plan: LaunchPlan): Promise<LaunchResult> => {
    if (cancelledEarly || options.signal?.aborted) return finish('cancelled', { detail: 'cancelled before start' });
    // bubblewrap gives the sandbox a PID namespace and names its init on BWRAP_INFO_FD (3, the fourth stdio pipe).
    const namespaced = plan.launchDir !== undefined && isolation.method === 'bubblewrap';

    const child = spawn(plan.argv[0] as string, plan.argv.slice(1), {
      cwd: workspace,
      env: plan.env,
      stdio: namespaced ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      // A new session and process group on POSIX: the group id is the agent's pid.
      detached: process.platform !== 'win32',
      windowsHide: true,
    }) as ChildProcessByStdio<null, Readable, Readable>;
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    if (child.pid === undefined) {
      const error = (await spawnError) as NodeJS.ErrnoException;
      // The engine itself could not fork (out of processes, memory or file descriptors): the harness's failure.
      const harnessError = OUT_OF_RESOURCES.has(error.code ?? '');
      return finish('spawn_error', { detail: `failed to launch command ${pyRepr(plan.argv)}: ${error.message}`, harnessError });
    }
    const leader = child.pid;
    pid = leader;
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
    // The agent is done: whatever it left behind dies now.
    await teardown.finish();
    // A process outside our reach could hold the pipes open forever; stop reading after a short wait.
    if (!(await settlesWithin(streamsClosed, 500))) {
      child.stdout.destroy();
      child.stderr.destroy();
    }
    const killedExternally = namespaced && termination === 'exited' && signal !== null;
    if (namespaced && termination === 'exited' && exitCode !== 0 && !teardown.sandboxStarted) {
      // The sandbox never came to be (bubblewrap, or a wrapper before it, failed before the agent's program could
      // start: out of processes or memory on this machine, its cgroup unjoinable): the harness's failure, never the seat's.
      const why = err.tailText().trim().split('\n').at(-1) ?? '';
      return finish('spawn_error', {
        exitCode,
        durationMs,
        harnessError: true,
        detail: `the sandbox could not start (exit ${exitCode}${why ? `: ${why.slice(0, 300)}` : ''})`,
      });
    }
    return finish(termination, { exitCode, signal, durationMs, peakRssKb: teardown.peakRssKb, killedExternally });
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
