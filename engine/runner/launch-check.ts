// "Can this agent start here?" answered by the runner's own launch planning (launch-plan.ts: its PATH, the program's
// resolution, the OS sandbox's view), without starting anything: the same fact preflight, the agent catalogue and a
// launch use. A temporary workspace stands in for the real one and is removed with the sandbox's launch folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentManifest } from '../contract/manifest.js';
import { type LaunchOptions, resolveLimits } from './launch-options.js';
import { AgentCommandError, ProgramNotFoundError, processPlan } from './launch-plan.js';
import type { IsolationRecord } from './launch-result.js';
import { SandboxCommandError, SandboxRefusedError } from './os-sandbox.js';
import { type SandboxPolicy, sandboxLaunchOptions } from './sandbox-policy.js';

export type LaunchProblem =
  | { kind: 'program'; program: string; message: string }
  | { kind: 'sandbox'; message: string }
  | { kind: 'command'; message: string };

/** Null when the agent's command would start; else why not, naming the fix. Docker entrypoints are not checked here. */
export function launchProblem(options: Omit<LaunchOptions, 'workspaceRoot'>): LaunchProblem | null {
  if (options.manifest.entrypoint.type === 'docker') return null;
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-launch-check-'));
  const isolation: IsolationRecord = {
    sandbox: 'process',
    method: 'none',
    filesystem: 'host',
    pid: 'host',
    network: 'none',
    endpoints: [],
    trusted: options.trusted === true,
    rlimits: null,
  };
  let launchDir: string | undefined;
  try {
    const limits = resolveLimits({ ...options, workspaceRoot: workspace }, false);
    const plan = processPlan(
      { ...options, workspaceRoot: workspace },
      workspace,
      options.hostEnv ?? process.env,
      options.network ?? 'none',
      limits,
      isolation,
    );
    launchDir = plan.launchDir;
    return null;
  } catch (error) {
    if (error instanceof ProgramNotFoundError)
      return {
        kind: 'program',
        program: error.program,
        message: `\`${error.program}\` not found on this machine's PATH; install it (or put it on PATH), or change entrypoint.command in agent.yaml`,
      };
    if (error instanceof SandboxCommandError)
      return { kind: 'program', program: error.program, message: `\`${error.program}\` not found in its sandbox: ${error.message}` };
    if (error instanceof AgentCommandError) return { kind: 'command', message: error.message };
    if (error instanceof SandboxRefusedError) return { kind: 'sandbox', message: error.message };
    return { kind: 'sandbox', message: (error as Error).message };
  } finally {
    if (launchDir) fs.rmSync(launchDir, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

/** The agent catalogue's line for an agent whose program would not start under the policy; null when it would. */
export function cannotStartHere(manifest: AgentManifest, dir: string, policy: SandboxPolicy | undefined): string | null {
  const problem = launchProblem({ manifest, manifestDir: dir, network: 'none', ...sandboxLaunchOptions(policy, dir) });
  return problem === null ? null : `cannot start here: ${problem.message}`;
}
