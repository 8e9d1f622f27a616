// The bubblewrap command line for one agent (Linux): every namespace unshared (user, mount, PID with its own /proc,
// network, IPC, UTS, cgroup), all capabilities dropped, an empty root with only the SandboxView mounted, a private
// /tmp, the agent in a new session, and the whole sandbox killed when its parent (the engine) dies. Values of the
// environment never appear here: bubblewrap passes its own environment (the agent's) on, so no secret is in argv.
import { SANDBOX_RUN_DIR } from './endpoint-forward.js';
import type { SandboxView } from './sandbox-view.js';

export interface BwrapInput {
  bwrap: string;
  view: SandboxView;
  /** Per-launch folder with hosts, passwd, group and the forwarders' sockets; read-only at /run/arena. */
  launchDir: string;
  /** Share the host network (the operator asked for it); otherwise only the sandbox's own loopback exists. */
  shareNet: boolean;
  /** Size of the private /tmp (tmpfs), when bubblewrap takes `--size`. */
  tmpBytes?: number;
  /**
   * Size of the workspace, when bubblewrap takes `--size`: then the workspace is a tmpfs of that size at the same path
   * (a hard total for all the seat's files, enforced by the kernel for any uid, that never touches the disk and goes
   * with the sandbox), instead of the host folder bound in.
   */
  workspaceBytes?: number;
}

/** The hostname every agent sandbox gets; it also tells an agent sandbox from anyone else's (orphan-sandboxes.ts). */
export const SANDBOX_HOSTNAME = 'arena-agent';

/** bubblewrap writes its info JSON (the sandbox init's host pid) here: the runner's fourth stdio pipe. */
export const BWRAP_INFO_FD = 3;

export function bwrapArgv(input: BwrapInput): string[] {
  const { view } = input;
  const args = [input.bwrap, '--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  args.push('--info-fd', String(BWRAP_INFO_FD));
  if (input.shareNet) args.push('--share-net');
  args.push('--hostname', SANDBOX_HOSTNAME);
  for (const { link, target } of view.symlinks) args.push('--symlink', target, link);
  args.push('--proc', '/proc', '--dev', '/dev');
  if (input.tmpBytes !== undefined) args.push('--size', String(input.tmpBytes));
  args.push('--tmpfs', '/tmp');
  for (const { source, target } of view.readOnly) args.push('--ro-bind', source, target);
  for (const file of ['hosts', 'passwd', 'group']) args.push('--ro-bind', `${input.launchDir}/${file}`, `/etc/${file}`);
  for (const hidden of view.hidden) args.push('--tmpfs', hidden);
  for (const file of view.hiddenFiles ?? []) args.push('--ro-bind', '/dev/null', file);
  if (input.workspaceBytes !== undefined) args.push('--size', String(input.workspaceBytes), '--tmpfs', view.workspace);
  else args.push('--bind', view.workspace, view.workspace);
  args.push('--ro-bind', input.launchDir, SANDBOX_RUN_DIR);
  // The sandbox's own root (where the parents of the mounts live) is read-only too: the workspace and /tmp are the
  // only places an agent writes.
  args.push('--remount-ro', '/', '--chdir', view.workspace);
  args.push('--');
  return args;
}

/** /etc/passwd and /etc/group naming only the agent's own ids (programs that look the user up must not fail). */
export function identityFiles(uid: number, gid: number, home: string): { passwd: string; group: string } {
  return { passwd: `agent:x:${uid}:${gid}:Local Arena agent:${home}:/bin/sh\n`, group: `agent:x:${gid}:\n` };
}
