// What program an agent's command starts, decided in one place for the launch, the sandbox and preflight: `node` is
// the agents' Node runtime (node-runtime.ts), the app's own launchers (`arena-agent`) run on that runtime too (their
// `#!/usr/bin/env node` would otherwise need a Node on PATH), and anything else is found on PATH like execvp would.
import fs from 'node:fs';
import path from 'node:path';
import { agentBinDir } from './agent-bins.js';
import { findExecutable } from './executable.js';
import { agentNodeRuntime, type NodeRuntime } from './node-runtime.js';

export interface ProgramContext {
  /** The agents' Node; default: agentNodeRuntime(). null: none, `node` is looked up on PATH. */
  runtime?: NodeRuntime | null;
  /** The app's launcher folder; default: agentBinDir(). */
  binDir?: string | null;
  platform?: NodeJS.Platform;
}

/**
 * The argv to spawn for a command's argv (`argv[0]` as the manifest names it), or null when its program cannot be
 * found on `pathEnv` (relative names: from `cwd`). A launcher becomes `[node, launcher, …args]`.
 */
export function resolveAgentCommand(
  argv: readonly string[],
  pathEnv: string | undefined,
  cwd: string,
  context: ProgramContext = {},
): string[] | null {
  const [named, ...args] = argv;
  if (named === undefined) return null;
  const runtime = context.runtime === undefined ? agentNodeRuntime() : context.runtime;
  if (runtime !== null && isBareNode(named, context.platform ?? process.platform)) return [runtime.path, ...args];
  const program = findExecutable(named, pathEnv, cwd, context.platform);
  if (program === null) return null;
  const binDir = context.binDir === undefined ? agentBinDir() : context.binDir;
  if (runtime !== null && binDir !== null && sameDir(path.dirname(program), binDir)) return [runtime.path, program, ...args];
  return [program, ...args];
}

/** `node` by name only: a path (`/opt/node22/bin/node`) is the agent's own choice and runs as named. */
function isBareNode(program: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') return /^node(\.exe)?$/i.test(program);
  return program === 'node';
}

function sameDir(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
