// The launch plan of a docker entrypoint: the container sees only the manifest env, granted secrets and runner
// variables, passed by name through the docker client's environment; and the kill that ends a container early.
import { execFile } from 'node:child_process';
import { LOADER_VARIABLE } from '../contract/manifest.js';
import { grantedSecrets, hostAllowList } from './agent-env.js';
import { buildDockerArgv, CONTAINER_WORKSPACE, containerName } from './docker-argv.js';
import { findExecutable } from './executable.js';
import type { LaunchOptions, NetworkMode, ResolvedLimits } from './launch-options.js';
import { AgentCommandError, type LaunchPlan } from './launch-plan.js';

const DOCKER_CLIENT_ENV = ['DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CONTEXT', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY'];

export function dockerPlan(
  options: LaunchOptions,
  workspace: string,
  hostEnv: NodeJS.ProcessEnv,
  network: NetworkMode,
  limits: ResolvedLimits,
): LaunchPlan {
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
  // The docker client is a host program: a loader variable must not reach it (the manifest schema refuses them too).
  const loader = Object.keys(containerEnv).filter((name) => LOADER_VARIABLE.test(name));
  if (loader.length > 0) throw new AgentCommandError(`loader variables are not allowed in an agent's environment: ${loader.join(', ')}`);
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

export function dockerKill(docker: string, name: string, env: Record<string, string>): void {
  execFile(docker, ['kill', name], { env, timeout: 10_000, windowsHide: true }, () => {});
}
