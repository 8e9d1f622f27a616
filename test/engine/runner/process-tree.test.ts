// The tree watcher's pace on a real process: fast looks for the first two seconds, then the steady interval a launch
// asks for when only memory is sampled (a warm agent's process is looked at every 2 s, not four times a second), and
// a process's own peak is still what it reports.
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
  it('samples memory at the asked steady interval after the first two seconds, and keeps the peak', async () => {
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
      // The fast looks of the first two seconds are the same for both.
      expect(slow.looks.filter((t) => t - started < 1_900).length).toBeGreaterThanOrEqual(10);
      expect(slow.peakRssKb).toBeGreaterThan(40 * 1024);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
