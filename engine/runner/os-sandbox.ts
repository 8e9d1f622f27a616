// The OS sandbox around one agent process, on unless the agent's folder is trusted: bubblewrap on Linux, a Seatbelt
// profile on macOS; elsewhere (Windows) a sandboxed launch is refused. It fails closed: when the sandbox cannot start
// here, the launch is refused with a message naming the fix, never run unconfined.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveAgentCommand } from './agent-program.js';
import { bwrapArgv, identityFiles } from './bwrap-argv.js';
import { type Forward, forwarderScript, planForwards } from './endpoint-forward.js';
import { handoff, SET_AGENT_ENV } from './env-handoff.js';
import { findExecutable } from './executable.js';
import { forwarderTool } from './forwarder-tool.js';
import { FORWARDER_MISSING, type SandboxSupport, sandboxUnavailable } from './sandbox.js';
import { contains, linuxView, macView, type SandboxView } from './sandbox-view.js';
import { seatbeltProfile } from './seatbelt-profile.js';
import { secretLookingPaths } from './secret-files.js';

export type SandboxMethod = 'bubblewrap' | 'seatbelt' | 'docker' | 'none';

/** What isolation an agent actually got, recorded with every run, game and report. */
export interface AppliedIsolation {
  method: SandboxMethod;
  /** 'sandbox': only the read-only view and its workspace; 'host': everything the user can read. */
  filesystem: 'sandbox' | 'container' | 'host';
  /** 'namespace': its own PID namespace and /proc; 'same-sandbox': signals and process info limited to its sandbox. */
  pid: 'namespace' | 'same-sandbox' | 'container' | 'host';
  /** The endpoints it could reach when network is 'endpoints'. */
  endpoints: string[];
  /** Ran without the OS sandbox because the user marked its folder trusted. */
  trusted: boolean;
}

/** The sandbox could not start here (or not for this agent); the message names the fix. */
export class SandboxRefusedError extends Error {}
/** The agent's command cannot run inside the sandbox (it names a program the sandbox does not show). */
export class SandboxCommandError extends Error {
  constructor(
    message: string,
    readonly program: string,
  ) {
    super(message);
  }
}

export interface SandboxRequest {
  argv: string[];
  /** The agent's environment: set only inside the sandbox. */
  env: Record<string, string>;
  /** The engine's own variables for the helpers' environment (never the agent's). */
  helperEnv?: Record<string, string>;
  agentDir: string;
  workspace: string;
  /** Forwarded endpoints (the arena's, the manifest's network.allow); ignored with shareNet. */
  endpoints: readonly string[];
  shareNet: boolean;
  privatePaths: readonly string[];
  runAs?: { uid: number; gid: number };
  support: SandboxSupport;
  /** Size of the private /tmp (Linux, when bubblewrap can size it). */
  tmpBytes?: number;
  /** Size of the workspace, all files together (Linux, when bubblewrap can size a tmpfs). */
  workspaceBytes?: number;
  /** Runs first inside the sandbox, before the forwarders and the agent (the seat's own RLIMIT_NPROC). */
  innerPrefix?: string[];
  platform?: NodeJS.Platform;
}

export interface SandboxedCommand {
  argv: string[];
  /** The helpers' environment (env-handoff.ts): the agent's variables only as inert carriers. */
  env: Record<string, string>;
  isolation: AppliedIsolation;
  /** Per-launch folder (generated /etc files, forwarder sockets); removed after the run. */
  launchDir: string;
  forwards: Forward[];
  /** The request's innerPrefix runs inside (Linux, and its program is in the sandbox's view). */
  innerPrefixApplied?: boolean;
}

export function sandboxCommand(req: SandboxRequest): SandboxedCommand {
  const platform = req.platform ?? process.platform;
  const problem = sandboxUnavailable(req.support);
  if (problem) throw new SandboxRefusedError(problem);
  const linux = platform === 'linux';
  const endpoints = req.shareNet ? [] : [...new Set(req.endpoints)];
  // Run by the agent's uid inside: arena-forward only where that uid may read it (else socat, from /usr).
  const needsForwarder = linux && endpoints.length > 0;
  const forwarder = needsForwarder
    ? forwarderTool(req.support, (file) => !req.runAs || reachableBy(file, req.runAs.uid, req.runAs.gid))
    : null;
  if (needsForwarder && !forwarder) throw new SandboxRefusedError(FORWARDER_MISSING);
  const viewInput = {
    agentDir: req.agentDir,
    workspace: req.workspace,
    hostPath: req.env.PATH,
    // Secret-looking files of the agent's own folder stay hidden like the data directory.
    privatePaths: [...req.privatePaths, ...secretLookingPaths(req.agentDir).map((s) => s.path)],
    tools: forwarder ? [forwarder.path] : [],
    home: os.homedir(),
  };
  let view: SandboxView;
  try {
    view = linux ? linuxView(viewInput) : macView(viewInput);
  } catch (error) {
    throw new SandboxRefusedError((error as Error).message);
  }
  if (req.runAs) {
    // bubblewrap mounts as that user: folders it cannot reach (an app under root's home) are left out, but not the agent's.
    const { uid, gid } = req.runAs;
    view = { ...view, readOnly: view.readOnly.filter((r) => reachableBy(r.source, uid, gid)) };
    if (!reachableBy(fs.realpathSync(req.agentDir), uid, gid))
      throw new SandboxRefusedError(`the agent's folder ${req.agentDir} is not readable by uid ${uid}`);
  }
  const env = { ...req.env, PATH: view.searchPath, HOME: req.workspace };
  const argv = resolveAgentCommand(req.argv, env.PATH, req.workspace);
  if (argv === null || !shows(view, argv[0] as string))
    throw new SandboxCommandError(
      `${req.argv[0]} is outside what the sandbox shows (system folders, the Node runtime, the app's agent folders and the agent's own folder); mark the agent folder trusted to run it without a sandbox`,
      req.argv[0] as string,
    );
  // Named for the engine's pid, so a later engine can remove what a killed one left behind.
  const launchDir = fs.mkdtempSync(path.join(linux ? launchRoot() : os.tmpdir(), `${LAUNCH_DIR_PREFIX}${process.pid}-`));
  try {
    const uid = req.runAs?.uid ?? process.getuid?.() ?? 0;
    const gid = req.runAs?.gid ?? process.getgid?.() ?? 0;
    if (req.runAs) {
      fs.chownSync(launchDir, uid, gid);
      fs.chownSync(req.workspace, uid, gid);
    }
    const isolation: AppliedIsolation = {
      method: linux ? 'bubblewrap' : 'seatbelt',
      filesystem: 'sandbox',
      pid: linux ? 'namespace' : 'same-sandbox',
      endpoints,
      trusted: false,
    };
    if (!linux) {
      const tmpDir = path.join(launchDir, 'tmp');
      fs.mkdirSync(tmpDir);
      const profile = seatbeltProfile({ view, tmpDir, endpoints, shareNet: req.shareNet });
      const inside = handoff({ ...env, TMPDIR: tmpDir }, req.helperEnv);
      return {
        argv: [req.support.sandboxExec as string, '-p', profile, ...inside.shim, ...argv],
        env: inside.helperEnv,
        isolation,
        launchDir,
        forwards: [],
      };
    }
    const { forwards, hosts } = planForwards(endpoints);
    const ids = identityFiles(uid, gid, req.workspace);
    fs.writeFileSync(path.join(launchDir, 'hosts'), hosts);
    fs.writeFileSync(path.join(launchDir, 'passwd'), ids.passwd);
    fs.writeFileSync(path.join(launchDir, 'group'), ids.group);
    const sized = req.support.bwrapTmpfsSize === true;
    let sandboxed = bwrapArgv({
      bwrap: req.support.bwrap as string,
      view,
      launchDir,
      shareNet: req.shareNet,
      ...(sized && req.tmpBytes ? { tmpBytes: req.tmpBytes } : {}),
      ...(sized && req.workspaceBytes ? { workspaceBytes: req.workspaceBytes } : {}),
    });
    if (req.runAs) {
      const setpriv = findExecutable('setpriv', '/usr/bin:/bin', launchDir);
      if (setpriv === null) throw new SandboxRefusedError('running agents as another user needs setpriv (util-linux)');
      sandboxed = [setpriv, `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', ...sandboxed];
    }
    const inside = handoff({ ...env, TMPDIR: '/tmp' }, req.helperEnv);
    // The forwarder's shell sets the agent's environment itself (after starting the forwarder, which keeps the fixed one).
    const command = forwarder
      ? ['/bin/sh', '-c', forwarderScript(forwards, forwarder, SET_AGENT_ENV), 'arena-sandbox', ...argv]
      : [...inside.shim, ...argv];
    const inner = req.innerPrefix && shows(view, req.innerPrefix[0] as string) ? req.innerPrefix : [];
    return {
      argv: [...sandboxed, ...inner, ...command],
      env: inside.helperEnv,
      isolation,
      launchDir,
      forwards,
      innerPrefixApplied: inner.length > 0,
    };
  } catch (error) {
    fs.rmSync(launchDir, { recursive: true, force: true });
    throw error;
  }
}

let launchRootDir: string | undefined;

/**
 * Where Linux per-launch folders go: /dev/shm (memory, world-writable and sticky, so reachable by a runAs user too)
 * where it is there, else the temp folder. Creating and removing the folder and its files costs ~1 ms there against
 * ~8 ms on a busy journaling disk, per launch.
 */
function launchRoot(): string {
  if (launchRootDir === undefined) {
    let shm = false;
    try {
      const stat = fs.statSync('/dev/shm');
      shm = stat.isDirectory() && (stat.mode & 0o1777) === 0o1777;
      if (shm) fs.accessSync('/dev/shm', fs.constants.W_OK | fs.constants.X_OK);
    } catch {
      shm = false;
    }
    launchRootDir = shm ? '/dev/shm' : os.tmpdir();
    removeStaleLaunchDirs(launchRootDir);
  }
  return launchRootDir;
}

const LAUNCH_DIR_PREFIX = 'arena-sbx-';

/** Removes the per-launch folders of engines that no longer run (killed before their clean-up); other users' stay. */
export function removeStaleLaunchDirs(root: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${LAUNCH_DIR_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (!(pid > 0) || pid === process.pid || processExists(pid)) continue;
    try {
      fs.rmSync(path.join(root, name), { recursive: true, force: true });
    } catch {
      // another user's, or removed meanwhile
    }
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when every folder on the way is searchable, and the path itself readable, by that user (mode bits). */
function reachableBy(target: string, uid: number, gid: number): boolean {
  const allowed = (stat: fs.Stats, bit: number): boolean =>
    stat.uid === uid ? (stat.mode & (bit << 6)) !== 0 : stat.gid === gid ? (stat.mode & (bit << 3)) !== 0 : (stat.mode & bit) !== 0;
  try {
    const parts = target.split(path.sep).filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const stat = fs.statSync(path.sep + parts.slice(0, i).join(path.sep));
      if (!allowed(stat, 1)) return false;
    }
    return allowed(fs.statSync(target), 4);
  } catch {
    return false;
  }
}

function shows(view: SandboxView, program: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync(program);
  } catch {
    return false;
  }
  return view.readOnly.some((r) => contains(r.source, real)) || contains(view.workspace, program);
}
