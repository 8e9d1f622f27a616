// How an engine sandboxes the agents it launches (tournament seats, governance trials, and any later kind of agent
// process): which agent folders the user trusts to run unsandboxed, which folders stay hidden from every agent, and
// the check made before a run starts, so a run the sandbox cannot serve is refused up front with the fix.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentManifest } from '../contract/manifest.js';
import type { LocalEndpoints } from './endpoint-forward.js';
import { forwarderTool } from './forwarder-tool.js';
import type { LaunchOptions } from './launch.js';
import { modelEndpoints, modelServerOf } from './model-server.js';
import { FORWARDER_MISSING, sandboxSupport, sandboxUnavailable } from './sandbox.js';
import { contains } from './sandbox-view.js';

export interface SandboxPolicy {
  /** Agent folders the user marked trusted (`--trust-agent-dir`): their agents run without the OS sandbox. */
  trustedAgentDirs: readonly string[];
  /** More trusted folders, read at each launch (the Agents page's switch). */
  trustedFolders?: () => readonly string[];
  /** Hidden from every agent even inside a folder the sandbox shows: the data directory. */
  privatePaths: readonly string[];
  /** Linux as root: run sandboxes as this user (tests). */
  runAs?: { uid: number; gid: number };
  /** The engine's own listeners: a sandbox's stream to one of them is served in-process (endpoint-forward.ts). */
  localEndpoints?: LocalEndpoints;
}

export function sandboxPolicy(
  dataDir: string,
  trustedAgentDirs: readonly string[] = [],
  trustedFolders?: () => readonly string[],
): SandboxPolicy {
  return {
    trustedAgentDirs: trustedAgentDirs.map(realDir),
    privatePaths: [path.resolve(dataDir)],
    ...(trustedFolders ? { trustedFolders } : {}),
  };
}

export function isTrusted(policy: SandboxPolicy | undefined, agentDir: string): boolean {
  if (!policy) return false;
  const dir = realDir(agentDir);
  const trusted = [...policy.trustedAgentDirs, ...(policy.trustedFolders?.() ?? []).map(realDir)];
  return trusted.some((t) => contains(t, dir));
}

/** The launch options of one agent under the policy. */
export function sandboxLaunchOptions(
  policy: SandboxPolicy | undefined,
  agentDir: string,
): Pick<LaunchOptions, 'trusted' | 'privatePaths' | 'runAs' | 'localEndpoints'> {
  return {
    trusted: isTrusted(policy, agentDir),
    privatePaths: policy?.privatePaths ?? [],
    ...(policy?.runAs ? { runAs: policy.runAs } : {}),
    ...(policy?.localEndpoints ? { localEndpoints: policy.localEndpoints } : {}),
  };
}

/**
 * Why these agents cannot run here (the sandbox cannot start and some are not trusted), naming the fix; else null.
 * `arenaNetwork`: every agent reaches an arena (tournament seats), so forwarding must work; otherwise only agents
 * whose manifest allows endpoints need it.
 */
export function sandboxPreflight(
  policy: SandboxPolicy | undefined,
  agents: ReadonlyArray<{ dir: string; manifest: Pick<AgentManifest, 'id' | 'entrypoint' | 'network'> }>,
  arenaNetwork: boolean,
): string | null {
  const untrusted = agents.filter((a) => a.manifest.entrypoint.type !== 'docker' && !isTrusted(policy, a.dir));
  if (untrusted.length === 0) return null;
  const ids = (list: typeof untrusted) => [...new Set(list.map((a) => a.manifest.id))].join(', ');
  const problem = sandboxUnavailable();
  if (problem !== null) return `cannot sandbox agent ${ids(untrusted)}: ${problem}`;
  const forwarded = untrusted.filter(
    (a) =>
      arenaNetwork ||
      (a.manifest.network?.allow.length ?? 0) > 0 ||
      modelEndpoints(a.manifest, modelServerOf(a.manifest, a.dir)).length > 0,
  );
  if (process.platform === 'linux' && forwarded.length > 0 && !forwarderTool(sandboxSupport()))
    return `cannot sandbox agent ${ids(forwarded)}: ${FORWARDER_MISSING}`;
  return null;
}

/** Agent ids that run unsandboxed under the policy (recorded in run manifests). */
export function trustedAgents<T extends { id: string; dir: string }>(policy: SandboxPolicy | undefined, agents: readonly T[]): string[] {
  return agents.filter((a) => isTrusted(policy, a.dir)).map((a) => a.id);
}

function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}
