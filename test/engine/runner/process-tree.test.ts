// The tree watcher's pace on a real process: by default fast looks for the first two seconds, then four a second;
// a launch that asks for its own memory pace (a warm agent's: every 2 s) gets it from the start, and a process's own
// peak is still what it reports; a look that never reached the agent's own process reports no peak at all.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TreeWatcher } from '../../../engine/runner/process-tree.js';

class CountingWatcher extends TreeWatcher {
  readonly looks: number[] = [];
  override sample(): void {
    this.looks.push(Date.now());
    super.sample();
  }
}

describe.runIf(process.platform === 'linux')('tree watcher pace', () => {
  it('samples memory at the asked pace from the start, and keeps the peak', async () => {
    const child = spawn(process.execPath, ['-e', 'const b = Buffer.alloc(40 * 1024 * 1024, 1); setTimeout(() => b.length, 10_000);'], {
      stdio: 'ignore',
    });
    try {
      const started = Date.now();
      const slow = new CountingWatcher(child.pid as number, { trackDescendants: false, memoryIntervalMs: 2_000 });
      const usual = new CountingWatcher(child.pid as number, { trackDescendants: false });
      slow.start();
      usual.start();
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      slow.stop();
      usual.stop();
      // From 2.1 s to 4 s: the default quarter-second pace looks several times, the 2 s pace at most once.
      const steady = (w: CountingWatcher) => w.looks.filter((t) => t - started > 2_100).length;
      expect(steady(usual)).toBeGreaterThanOrEqual(4);
      expect(steady(slow)).toBeLessThanOrEqual(1);
      // The default pace looks often in the first two seconds (a short-lived agent's peak); the asked pace does not.
      expect(usual.looks.filter((t) => t - started < 1_900).length).toBeGreaterThanOrEqual(10);
      expect(slow.looks.filter((t) => t - started < 1_900).length).toBe(1);
      expect(slow.peakRssKb).toBeGreaterThan(40 * 1024);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reports no peak until it has seen the agent at its depth, not the wrappers above it', async () => {
    // A shell that waits for its child: the child (depth 1) is the "agent", the shell a wrapper.
    const child = spawn('sh', ['-c', 'sleep 1.5; true'], { stdio: 'ignore' });
    try {
      const deep = new TreeWatcher(child.pid as number, { trackDescendants: false, agentDepth: 3, memoryIntervalMs: 100 });
      const agent = new TreeWatcher(child.pid as number, { trackDescendants: false, agentDepth: 1, memoryIntervalMs: 100 });
      await new Promise((resolve) => setTimeout(resolve, 400));
      deep.sample();
      agent.sample();
      expect(deep.peakRssKb).toBeUndefined();
      expect(agent.peakRssKb).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
