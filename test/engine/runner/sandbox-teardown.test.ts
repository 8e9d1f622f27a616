// A sandbox whose supervisor died before its init armed --die-with-parent: bubblewrap arms it only once the sandbox
// is set up, so a launch cancelled (or an engine killed) in the first milliseconds leaves the init, in a session of its
// own, running with everything under it. The namespace teardown ends it by pid. The sandbox here is a real bubblewrap
// started without --die-with-parent (the state that race leaves), as root and as an unprivileged uid; its processes
// are found and checked by host pid. When the engine itself was killed in that window, nobody is left to end the
// sandbox: the next engine start does (orphan-sandboxes.ts), and leaves a running engine's sandboxes alone.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startEngine } from '../../../engine/app.js';
import { SANDBOX_HOSTNAME } from '../../../engine/runner/bwrap-argv.js';
import { reapOrphanedSandboxes } from '../../../engine/runner/orphan-sandboxes.js';
import { namespaceTeardown } from '../../../engine/runner/process-teardown.js';
import { signalPid } from '../../../engine/runner/process-tree.js';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';
import { processesWith, type SeenProcess, stillRunning } from '../../support/agent-processes.js';
import { tempDir } from '../tournaments/helpers.js';

const bwrap = process.platform === 'linux' ? sandboxSupport().bwrap : null;
const root = typeof process.getuid === 'function' && process.getuid() === 0;

async function until(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

/**
 * A real sandbox with a marker in its environment: `die` adds --die-with-parent, `agentHostname` the hostname agent
 * sandboxes have. Resolves once its init, command and the command's two children run.
 */
async function startSandbox(opts: { runAs: boolean; die: boolean; agentHostname: boolean }) {
  const marker = `ARENA_TEARDOWN_TEST=${randomBytes(6).toString('hex')}`;
  const sandbox = [bwrap as string, '--unshare-all', ...(opts.die ? ['--die-with-parent'] : []), '--new-session', '--info-fd', '3'];
  if (opts.agentHostname) sandbox.push('--hostname', SANDBOX_HOSTNAME);
  sandbox.push('--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev');
  sandbox.push('--', '/bin/sh', '-c', 'sleep 300 & setsid sleep 301 & exec sleep 302');
  const argv = opts.runAs ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--', ...sandbox] : sandbox;
  const [name, value] = marker.split('=') as [string, string];
  const supervisor = spawn(argv[0] as string, argv.slice(1), {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    detached: true,
    env: { PATH: process.env.PATH, [name]: value },
  });
  expect(await until(() => processesWith(marker).length >= 5, 10_000)).toBe(true);
  const inside: SeenProcess[] = processesWith(marker).filter((p) => p.pid !== supervisor.pid);
  // The init first, which takes the namespace with it: the rest may be gone by then.
  const kill = () => {
    for (const p of processesWith(marker)) signalPid(p.pid, 'SIGKILL');
  };
  return { supervisor, inside, kill };
}

const variants = [{ who: 'the engine user', runAs: false }, ...(root ? [{ who: 'an unprivileged uid (setpriv)', runAs: true }] : [])];

describe.runIf(bwrap != null)('sandboxes an engine killed in mid-launch left running', () => {
  it.each(variants)(
    'the next engine start ends them, and only them ($who)',
    async ({ runAs }) => {
      const orphan = await startSandbox({ runAs, die: false, agentHostname: true });
      // A running engine's sandbox (its supervisor alive) and someone else's bubblewrap, both orphaned-looking otherwise.
      const live = await startSandbox({ runAs, die: true, agentHostname: true });
      const foreign = await startSandbox({ runAs, die: false, agentHostname: false });
      const dir = tempDir('arena-orphans-');
      try {
        orphan.supervisor.kill('SIGKILL');
        foreign.supervisor.kill('SIGKILL');
        await Promise.all([exited(orphan.supervisor), exited(foreign.supervisor)]);
        // Left to itself the orphan runs on (checked at once: any engine start, a parallel test's too, may end it now).
        expect(stillRunning(orphan.inside).length).toBe(orphan.inside.length);
        const engine = await startEngine({ dataDir: dir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
        await engine.close();
        expect(await until(() => stillRunning(orphan.inside).length === 0, 5_000)).toBe(true);
        expect(stillRunning(live.inside)).toEqual(live.inside);
        expect(stillRunning(foreign.inside)).toEqual(foreign.inside);
        // Nothing is left to end a second time.
        expect(reapOrphanedSandboxes()).toBe(0);
        expect(stillRunning(live.inside)).toEqual(live.inside);
      } finally {
        for (const s of [orphan, live, foreign]) s.kill();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});

describe.runIf(bwrap != null)('namespace teardown', () => {
  it.each(variants)(
    'ends a sandbox whose init outlived its supervisor ($who)',
    async ({ runAs }) => {
      // No agent hostname: a parallel engine start must not end this one first.
      const sandbox = await startSandbox({ runAs, die: false, agentHostname: false });
      const teardown = namespaceTeardown(sandbox.supervisor.pid as number, sandbox.supervisor.stdio[3] as Readable);
      try {
        sandbox.supervisor.kill('SIGKILL');
        await exited(sandbox.supervisor);
        // What the race leaves: the supervisor is gone, the sandbox is not.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(stillRunning(sandbox.inside).length).toBe(sandbox.inside.length);
        const started = Date.now();
        await teardown.finish();
        expect(stillRunning(sandbox.inside)).toEqual([]);
        // By pid at once, not after the teardown's 10 s wait.
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        sandbox.kill();
      }
    },
    30_000,
  );
});
