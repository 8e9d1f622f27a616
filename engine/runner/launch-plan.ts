// How an agent's command becomes the argv the runner spawns (process entrypoints): its environment, the program found
// on its PATH, then the OS sandbox around it (unless trusted), network denial for a trusted agent, and rlimits.
import { withAgentBins } from './agent-bins.js';
import { commandArgv } from './agent-command.js';
import { buildAgentEnv } from './agent-env.js';
import type { Forward } from './endpoint-forward.js';
import { findExecutable } from './executable.js';
import { type LaunchOptions, type NetworkMode, type ResolvedLimits, RUNNER_DEFAULTS } from './launch-options.js';
import type { IsolationRecord } from './launch-result.js';
import { modelEndpoints, modelServerOf } from './model-server.js';
import { SUPERVISOR_ENV, supervisorMark } from './orphan-host-agents.js';
import { sandboxCommand } from './os-sandbox.js';
import { sandboxSupport, userProcessCount, withRlimits } from './sandbox.js';
import { pyRepr } from './shlex.js';

export interface LaunchPlan {
  argv: string[];
  env: Record<string, string>;
  containerName: string | null;
  /** The OS sandbox's per-launch folder and forwarded endpoints, when sandboxed. */
  launchDir?: string;
  forwards?: Forward[];
}

/** The agent's own command cannot be started: the agent's fault, not the harness's. */
export class AgentCommandError extends Error {}

/** Fills in `isolation` with what the plan applies. */
export function processPlan(
  options: LaunchOptions,
  workspace: string,
  hostEnv: NodeJS.ProcessEnv,
  network: NetworkMode,
  limits: ResolvedLimits,
  isolation: IsolationRecord,
): LaunchPlan {
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
  // A model agent reaches its model server without a hand-written network.allow: its model.yaml names it.
  const model = modelServerOf(manifest, options.manifestDir);
  const endpoints = [...(options.arenaEndpoints ?? []), ...(manifest.network?.allow ?? []), ...modelEndpoints(manifest, model)];
  let sandbox: Pick<LaunchPlan, 'launchDir' | 'forwards'> = {};
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
    // The engine schedules the model server's capacity on its forward (endpoint-forward.ts).
    if (model?.plain) {
      const gated = sandboxed.forwards.find((f) => `${f.targetHost}:${f.port}` === loopbackName(model.endpoint));
      if (gated) gated.model = model;
    }
    sandbox = { launchDir: sandboxed.launchDir, forwards: sandboxed.forwards };
  } else {
    // No PID namespace ends a trusted agent with its engine: the next engine start does (orphan-host-agents.ts).
    const mark = supervisorMark();
    if (mark !== null) env[SUPERVISOR_ENV] = mark;
    if (network === 'none' && endpoints.length > 0) {
      // A trusted agent that must reach its arena gets the host network.
      isolation.network = 'loopback';
    } else if (network === 'none') {
      if (support.networkDenyPrefix) argv = [...support.networkDenyPrefix, ...argv];
      else {
        isolation.network = 'unavailable';
        if (options.requireNetworkIsolation) throw new Error('network isolation unavailable');
      }
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

/** `localhost:N` is forwarded to 127.0.0.1:N (planForwards). */
function loopbackName(endpoint: string): string {
  return endpoint.startsWith('localhost:') ? `127.0.0.1:${endpoint.slice('localhost:'.length)}` : endpoint;
}

function autoProcessLimit(): number | null {
  const count = userProcessCount();
  return count === null ? null : count + RUNNER_DEFAULTS.processHeadroom;
}
