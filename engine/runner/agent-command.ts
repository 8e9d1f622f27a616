// The argument vector of a `command` entrypoint. The agent runs in a fresh workspace, so paths in the command that
// name files of the agent's own folder (`node agent.mjs`, `python3 main.py`) are made absolute first.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentManifest } from '../contract/manifest.js';
import { shlexSplit } from './shlex.js';

export function commandArgv(entrypoint: AgentManifest['entrypoint'], manifestDir: string): string[] {
  const command = entrypoint.command;
  if (command === null) throw new Error('the entrypoint has no command');
  const raw = typeof command === 'string' ? shlexSplit(command) : [...command];
  if (raw.length === 0) throw new Error('the entrypoint command is empty');
  return raw.map((arg, i) => (i === 0 && !/[\\/]/.test(arg) ? arg : anchored(arg, manifestDir)));
}

function anchored(arg: string, manifestDir: string): string {
  if (arg === '' || arg.startsWith('-') || path.isAbsolute(arg) || arg.includes('\0')) return arg;
  const candidate = path.resolve(manifestDir, arg);
  return fs.existsSync(candidate) ? candidate : arg;
}
