// The hardened `docker run` command for docker entrypoints (decision 13(g)). Values of --env are never put on the
// command line (where `ps` would show them): `--env NAME` makes the docker client copy them from its own environment.
import { randomBytes } from 'node:crypto';
import { shlexSplit } from './shlex.js';

export const CONTAINER_WORKSPACE = '/workspace';

export interface DockerRunInput {
  docker?: string;
  image: string;
  /** Override of the image's default command: a command line (shlex-split) or an argument vector. */
  command: string | readonly string[] | null;
  name: string;
  /** Absolute host path mounted read-write at /workspace. */
  workspace: string;
  /** Variables whose values the docker client passes on from its own environment. */
  envNames: readonly string[];
  /** Variables written as NAME=VALUE (only those the docker client itself needs under the same name). */
  inlineEnv?: Record<string, string>;
  network: 'none' | 'loopback';
  memoryMb?: number;
  pidsLimit?: number;
  /** `uid:gid` so files the agent writes in the workspace belong to the user (POSIX). */
  user?: string | null;
}

export function buildDockerArgv(input: DockerRunInput): string[] {
  const argv = [input.docker ?? 'docker', 'run', '--rm', '--name', input.name];
  // "loopback" means the host's network namespace: the only way a container reaches the engine on 127.0.0.1.
  argv.push('--network', input.network === 'none' ? 'none' : 'host');
  argv.push('--read-only', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges');
  argv.push('--pids-limit', String(input.pidsLimit ?? 256), '--memory', input.memoryMb ? `${input.memoryMb}m` : '2g');
  argv.push('--tmpfs', '/tmp:rw,nosuid,nodev,size=64m');
  if (input.user) argv.push('--user', input.user);
  argv.push(
    '--workdir',
    CONTAINER_WORKSPACE,
    '--mount',
    `type=bind,${csvField(`source=${input.workspace}`)},target=${CONTAINER_WORKSPACE}`,
  );
  const inline = input.inlineEnv ?? {};
  for (const name of [...input.envNames, ...Object.keys(inline)].sort())
    argv.push('--env', Object.hasOwn(inline, name) ? `${name}=${inline[name]}` : name);
  argv.push(input.image);
  if (input.command !== null) argv.push(...(typeof input.command === 'string' ? shlexSplit(input.command) : input.command));
  return argv;
}

/** A container name unique per launch: `arena-<parts>-<random>`, limited to docker's character set. */
export function containerName(parts: readonly string[]): string {
  const base = `arena-${parts.join('-')}`.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 54);
  return `${base}-${randomBytes(4).toString('hex')}`;
}

/** --mount is parsed as CSV, so a path containing a comma or a quote must be quoted. */
function csvField(field: string): string {
  return /[",]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}
