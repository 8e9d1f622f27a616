// The PATH the user's agents should see. An app started from Finder, the Dock or a desktop menu inherits a bare PATH
// (`/usr/bin:/bin:/usr/sbin:/sbin` on macOS), without Homebrew, pyenv, uv or poetry. So the shell asks the user's login
// shell once, at start, what PATH a terminal would have, and hands that to the engine. Start-up files may print
// anything (a banner, a fortune): the value is read between two markers. A shell that hangs or fails costs at most
// the timeout, and the inherited PATH is used then.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const START = '__LOCAL_ARENA_PATH_START__';
const END = '__LOCAL_ARENA_PATH_END__';
/** Start-up files that print more than this are cut off; a PATH is a few KiB at most. */
const MAX_OUTPUT = 1 << 20;

export interface LoginPathInput {
  /** $SHELL; when unset, the account's shell. */
  shell: string | undefined;
  /** The PATH the app was started with. */
  inherited: string | undefined;
  platform?: NodeJS.Platform;
  timeoutMs?: number;
  /** The environment the shell runs with (the app's own). */
  env?: NodeJS.ProcessEnv;
}

export interface LoginPath {
  path: string;
  /** 'login-shell': the shell's PATH (followed by inherited folders it lacks); 'inherited': the app's own PATH. */
  source: 'login-shell' | 'inherited';
  /** Why the inherited PATH was kept, for the log. */
  problem?: string;
}

export async function resolveLoginPath(input: LoginPathInput): Promise<LoginPath> {
  const inherited = input.inherited ?? '';
  const platform = input.platform ?? process.platform;
  if (platform !== 'darwin' && platform !== 'linux') return { path: inherited, source: 'inherited' };
  const shell = input.shell || accountShell();
  if (!shell || !path.isAbsolute(shell)) return { path: inherited, source: 'inherited', problem: 'no login shell is set' };
  const printed = await runShell(shell, input.timeoutMs ?? 5000, input.env ?? process.env);
  if ('problem' in printed) return { path: inherited, source: 'inherited', problem: printed.problem };
  const from = printed.output.lastIndexOf(START);
  const to = printed.output.indexOf(END, from);
  const value = from < 0 || to < 0 ? '' : printed.output.slice(from + START.length, to).trim();
  if (value === '' || value.includes('\n')) return { path: inherited, source: 'inherited', problem: `${shell} printed no PATH` };
  return { path: mergePath(value, inherited), source: 'login-shell' };
}

/** The login PATH, then the inherited folders it lacks (a launch from a terminal keeps what that terminal added). */
export function mergePath(login: string, inherited: string): string {
  const folders = [...login.split(path.delimiter), ...inherited.split(path.delimiter)].filter((dir) => dir !== '');
  return [...new Set(folders)].join(path.delimiter);
}

function accountShell(): string | undefined {
  try {
    return os.userInfo().shell ?? undefined;
  } catch {
    return undefined;
  }
}

function runShell(shell: string, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<{ output: string } | { problem: string }> {
  return new Promise((resolve) => {
    // -i and -l: interactive login start-up files (~/.zprofile, ~/.zshrc, ~/.bash_profile) are where PATH is set.
    const command = `printf '%s%s%s' '${START}' "$PATH" '${END}'`;
    // Its own process group, so a start-up file that starts a background job is ended with it.
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(shell, ['-ilc', command], { stdio: ['ignore', 'pipe', 'ignore'], detached: true, env });
    } catch (error) {
      resolve({ problem: `${shell} could not be started: ${(error as Error).message}` });
      return;
    }
    let output = '';
    let settled = false;
    /** `running`: the shell has not exited, so its group is ended (never after exit: the id could be reused). */
    const finish = (result: { output: string } | { problem: string }, running: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (running && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      resolve(result);
    };
    const timer = setTimeout(() => finish({ problem: `${shell} did not print its PATH within ${timeoutMs} ms` }, true), timeoutMs);
    const stdout = child.stdout as NonNullable<typeof child.stdout>;
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      if (output.length < MAX_OUTPUT) output += chunk;
      const start = output.lastIndexOf(START);
      if (start >= 0 && output.includes(END, start)) finish({ output }, true);
    });
    child.on('error', (error) => finish({ problem: `${shell} could not be started: ${error.message}` }, false));
    child.on('close', () => finish({ output }, false));
  });
}
