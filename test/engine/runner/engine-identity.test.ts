// An engine's mark (`<pid>:<start time>:<PID namespace>`) judged against real processes: a running one, one that
// exited, a recycled pid (same number, another start time), another PID namespace's, and, as an unprivileged uid
// (setpriv), a root-owned engine's (another user's /proc stat is readable, so its mark is still judged).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineMark, markedPid, markedProcessRunning, pidNamespace } from '../../../engine/runner/engine-identity.js';
import { ROOT, tempDir } from '../tournaments/helpers.js';

const linux = process.platform === 'linux';
const root = typeof process.getuid === 'function' && process.getuid() === 0;

function startTimeOf(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] as string;
}

describe.runIf(linux)('engine marks', () => {
  it("this process's mark names its pid, start time and PID namespace", () => {
    const mark = engineMark();
    expect(mark).toBe(`${process.pid}:${startTimeOf(process.pid)}:${pidNamespace()}`);
    expect(markedPid(mark)).toBe(process.pid);
    expect(markedProcessRunning(mark)).toBe(true);
  });

  it('a running process is running; once it exits, or under a recycled pid, it is not; another namespace cannot be judged', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = child.pid as number;
    const ns = pidNamespace();
    const mark = `${pid}:${startTimeOf(pid)}:${ns}`;
    expect(markedProcessRunning(mark)).toBe(true);
    // The same pid number with another start time is another process: the engine it named is gone.
    expect(markedProcessRunning(`${pid}:${Number(startTimeOf(pid)) + 1}:${ns}`)).toBe(false);
    // A mark from another PID namespace names a pid this process cannot see as it is.
    expect(markedProcessRunning(`${pid}:${startTimeOf(pid)}:${Number(ns) + 1}`)).toBeNull();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(markedProcessRunning(mark)).toBe(false);
    expect(markedProcessRunning('not-a-mark')).toBeNull();
  });
});

describe.runIf(linux && root)('engine marks, judged by an unprivileged uid', () => {
  let dir: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(ROOT, 'dist/engine/runner/engine-identity.js')))
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
    // A world-readable copy: the unprivileged uid may not be able to read this checkout.
    dir = tempDir('arena-engine-identity-');
    fs.chmodSync(dir, 0o755);
    for (const file of ['engine-identity.js', 'process-tree.js'])
      fs.copyFileSync(path.join(ROOT, 'dist/engine/runner', file), path.join(dir, file));
    fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
    fs.writeFileSync(
      path.join(dir, 'judge.mjs'),
      "const { markedProcessRunning } = await import(process.argv[2] + '/engine-identity.js');\n" +
        'console.log(JSON.stringify({ uid: process.getuid(), verdicts: process.argv.slice(3).map(markedProcessRunning) }));\n',
    );
    for (const name of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, name), 0o644);
  }, 250_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sees a root engine's mark as running, and a gone one's as gone", () => {
    const gone = spawnSync('true');
    expect(gone.status).toBe(0);
    const goneMark = `${gone.pid}:1:${pidNamespace()}`;
    const result = spawnSync(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, path.join(dir, 'judge.mjs'), dir, engineMark(), goneMark],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ uid: 65534, verdicts: [true, false] });
  });
});
