// How an agent's command becomes the argv the runner spawns (process entrypoints): its environment, the program found
// on its PATH, then the OS sandbox around it (unless trusted), network denial for a trusted agent, and rlimits.
import { withAgentBins } from './agent-bins.js';
import { commandArgv } from './agent-command.js';
import { buildAgentEnv } from './agent-env.js';
import { resolveAgentCommand } from './agent-program.js';
import type { Forward } from './endpoint-forward.js';
import { handoff } from './env-handoff.js';
import { type LaunchOptions, type NetworkMode, type ResolvedLimits, RUNNER_DEFAULTS } from './launch-options.js';
import type { IsolationRecord } from './launch-result.js';
import { modelEndpoints, modelServerOf } from './model-server.js';
import { SUPERVISOR_ENV, supervisorMark } from './orphan-host-agents.js';
import { sandboxCommand } from './os-sandbox.js';
import { sandboxSupport, userProcessCount, withRlimits } from './sandbox.js';
import { planSeat, type SeatPlan } from './seat-accounting.js';
import { joinPrefix, removeSeatCgroup, type SeatCgroup } from './seat-cgroup.js';
import { pyRepr } from './shlex.js';

const MIB = 1024 * 1024;

export interface LaunchPlan {
  argv: string[];
  env: Record<string, string>;
  containerName: string | null;
  /** The OS sandbox's per-launch folder and forwarded endpoints, when sandboxed. */
  launchDir?: string;
  forwards?: Forward[];
  /** The seat's cgroup, removed after the run. */
  seatCgroup?: SeatCgroup;
}

/** The agent's own command cannot be started: the agent's fault, not the harness's. */
export class AgentCommandError extends Error {}

/**
 * The command's program (an interpreter such as `ruby`, or the agent's binary) is not on the agent's PATH here: a
 * set-up fault of this machine (install it, or change the command), never a game the agent lost.
 */
export class ProgramNotFoundError extends Error {
  constructor(
    message: string,
    readonly program: string,
  ) {
    super(message);
  }
}

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
  const resolved = resolveAgentCommand(argv, env.PATH, workspace);
  if (resolved === null) {
    throw new ProgramNotFoundError(
      `failed to launch command ${pyRepr(manifest.entrypoint.command ?? '')}: [Errno 2] No such file or directory: ${pyRepr(argv[0] as string)}`,
      argv[0] as string,
    );
  }
  const named = argv;
  argv = resolved;
  const support = sandboxSupport();
  // A model agent reaches its model server without a hand-written network.allow: its model.yaml names it.
  const model = modelServerOf(manifest, options.manifestDir);
  const endpoints = [...(options.arenaEndpoints ?? []), ...(manifest.network?.allow ?? []), ...modelEndpoints(manifest, model)];
  let sandbox: Pick<LaunchPlan, 'launchDir' | 'forwards'> = {};
  let seat: SeatPlan | null = null;
  let spawnEnv: Record<string, string>;
  if (!options.trusted) {
    const planned = planSeat(limits.seat, options.runAs?.uid ?? process.getuid?.() ?? 0);
    seat = planned;
    isolation.seat = planned.record;
    // The sandbox resolves the program again on the PATH it shows (a pyenv shim in $HOME is not there; /usr/bin is).
    const sandboxed = withSeatCleanup(planned, () =>
      sandboxCommand({
        argv: named,
        env,
        agentDir: options.manifestDir,
        workspace,
        endpoints,
        shareNet: network === 'loopback',
        privatePaths: options.privatePaths ?? [],
        ...(options.runAs ? { runAs: options.runAs } : {}),
        support,
        tmpBytes: limits.seat.tmpMb * MIB,
        ...(options.keepWorkspace ? {} : { workspaceBytes: limits.seat.workspaceMb * MIB }),
        ...(planned.innerProcesses !== null && support.prlimit
          ? { innerPrefix: [support.prlimit, `--nproc=${planned.innerProcesses}`, '--'] }
          : {}),
      }),
    );
    if (!support.bwrapTmpfsSize) Object.assign(planned.record, { tmpMb: null, workspaceMb: null });
    if (options.keepWorkspace) planned.record.workspaceMb = null;
    if (planned.innerProcesses !== null && !sandboxed.innerPrefixApplied)
      Object.assign(planned.record, { accounting: 'shared-uid', processes: null });
    argv = sandboxed.argv;
    spawnEnv = sandboxed.env;
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
    // Windows has no helper in front of the agent; elsewhere the agent's variables are set only by the last step.
    const host = process.platform === 'win32' ? null : handoff(env, mark === null ? {} : { [SUPERVISOR_ENV]: mark });
    spawnEnv = host?.helperEnv ?? env;
    if (host) argv = [...host.shim, ...argv];
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
  // A seat counted on its own (cgroup, user namespace) needs no share of the user's count, which another seat can fill.
  const perSeat = seat !== null && seat.record.accounting !== 'shared-uid';
  const processes = perSeat ? null : limits.processes === 'auto' ? autoProcessLimit() : limits.processes;
  const wrapped = withRlimits(
    argv,
    {
      cpuSeconds: limits.cpuSeconds,
      addressSpaceBytes: limits.memoryMb * MIB,
      openFiles: limits.openFiles,
      processes,
      ...(seat ? { fileBytes: limits.seat.fileMb * MIB } : {}),
    },
    support,
  );
  if (wrapped) {
    argv = wrapped.argv;
    isolation.rlimits = wrapped.applied;
  }
  if (seat && wrapped?.applied.method !== 'prlimit') seat.record.fileMb = null;
  if (seat?.cgroup) {
    // Outermost: the seat's cgroup is joined before prlimit, setpriv or bubblewrap start anything.
    argv = [...joinPrefix(support.shell ?? '/bin/sh', seat.cgroup), ...argv];
    return { argv, env: spawnEnv, containerName: null, ...sandbox, seatCgroup: seat.cgroup };
  }
  return { argv, env: spawnEnv, containerName: null, ...sandbox };
}

/** A sandbox that cannot be built for this launch leaves no seat cgroup behind. */
function withSeatCleanup<T>(seat: SeatPlan, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (seat.cgroup) void removeSeatCgroup(seat.cgroup);
    throw error;
  }
}

/** `localhost:N` is forwarded to 127.0.0.1:N (planForwards). */
function loopbackName(endpoint: string): string {
  return endpoint.startsWith('localhost:') ? `127.0.0.1:${endpoint.slice('localhost:'.length)}` : endpoint;
}

function autoProcessLimit(): number | null {
  const count = userProcessCount();
  return count === null ? null : count + RUNNER_DEFAULTS.processHeadroom;
}
