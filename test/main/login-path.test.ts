// The login shell's PATH for GUI launches, read from a real shell: a fake $SHELL (a script that runs its start-up
// noise, then the command the resolver gives it through /bin/sh) stands in for the user's zsh or bash.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergePath, resolveLoginPath } from '../../main/login-path.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A shell script that checks it was asked for an interactive login run, prints `noise`, then runs the command. */
function fakeShell(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-login-shell-'));
  dirs.push(dir);
  const shell = path.join(dir, 'fake-shell');
  fs.writeFileSync(
    shell,
    ['#!/bin/sh', '[ "$1" = "-ilc" ] || { echo "expected -ilc, got $1" >&2; exit 64; }', body, 'exec /bin/sh -c "$2"', ''].join('\n'),
  );
  fs.chmodSync(shell, 0o755);
  return shell;
}

describe.skipIf(process.platform === 'win32')('resolveLoginPath', () => {
  it("reads the shell's PATH between its markers, whatever its start-up files print around it", async () => {
    const shell = fakeShell(
      [
        'echo "Welcome to the machine"',
        // A start-up file that prints something PATH-like, and one without a newline before the value.
        'printf "PATH=/not/this:/nor/this"',
        'PATH=/opt/homebrew/bin:/home/u/.local/bin:/usr/bin:/bin; export PATH',
      ].join('\n'),
    );
    const resolved = await resolveLoginPath({ shell, inherited: '/usr/bin:/bin:/usr/sbin:/sbin', platform: 'darwin' });
    expect(resolved).toEqual({ path: '/opt/homebrew/bin:/home/u/.local/bin:/usr/bin:/bin:/usr/sbin:/sbin', source: 'login-shell' });
  });

  it('keeps the inherited PATH when the shell hangs, and ends it and what it started within the timeout', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-login-hang-'));
    dirs.push(dir);
    const pidFile = path.join(dir, 'child.pid');
    // A start-up file that starts a background job holding stdout, then waits forever.
    const shell = fakeShell(`sleep 300 & echo $! > '${pidFile}'\nwhile :; do sleep 1; done`);
    const resolved = await resolveLoginPath({ shell, inherited: '/usr/bin:/bin', platform: 'linux', timeoutMs: 1500 });
    expect(resolved).toMatchObject({ path: '/usr/bin:/bin', source: 'inherited' });
    expect(resolved.problem).toMatch(/did not print its PATH within 1500 ms/);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  });

  it('keeps the inherited PATH when the shell prints no PATH, fails, or is not there', async () => {
    const silent = fakeShell('exit 0');
    expect(await resolveLoginPath({ shell: silent, inherited: '/usr/bin', platform: 'linux' })).toMatchObject({
      path: '/usr/bin',
      source: 'inherited',
      problem: `${silent} printed no PATH`,
    });
    const missing = path.join(os.tmpdir(), 'arena-no-such-shell', 'zsh');
    const gone = await resolveLoginPath({ shell: missing, inherited: '/usr/bin', platform: 'darwin' });
    expect(gone).toMatchObject({ path: '/usr/bin', source: 'inherited' });
    expect(gone.problem).toMatch(/could not be started/);
    expect(await resolveLoginPath({ shell: 'zsh', inherited: '/usr/bin', platform: 'darwin' })).toMatchObject({ source: 'inherited' });
  });

  it('asks no shell on Windows', async () => {
    const shell = fakeShell('exit 64');
    expect(await resolveLoginPath({ shell, inherited: 'C:\\Windows', platform: 'win32' })).toEqual({
      path: 'C:\\Windows',
      source: 'inherited',
    });
  });

  it('merges: the login folders first, then the inherited ones it lacks, each once', () => {
    expect(mergePath('/opt/homebrew/bin:/usr/bin:/bin', '/home/u/venv/bin:/usr/bin::/bin')).toBe(
      '/opt/homebrew/bin:/usr/bin:/bin:/home/u/venv/bin',
    );
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie is gone for our purposes.
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
