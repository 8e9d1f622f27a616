// Warm agents on a game worker: one warm pool per tournament (and run manifest), kept while its games keep coming,
// with the same restart policy as a local run (max_restarts from the job). A pool with no game for a while is closed
// (the tournament ended, paused, or went to other workers), so idle processes do not linger on the machine.

import path from 'node:path';
import type { GameJob } from '../contract/game-job.js';
import { systemClock } from '../core/clock.js';
import type { SandboxPolicy } from '../runner/sandbox-policy.js';
import { launchWarmSlot } from '../tournaments/launch/seat-launch.js';
import type { TournamentAgent } from '../tournaments/spec-file.js';
import { DEFAULT_MAX_RESTARTS, type WarmHooks, WarmPool } from '../tournaments/warm/warm-pool.js';

/** A pool with no game in flight this long is closed; the next game of its tournament starts a fresh one. */
const IDLE_MS = 60_000;

interface Held {
  pool: WarmPool;
  games: number;
  idle: NodeJS.Timeout | null;
}

export class WorkerWarmPools {
  private readonly pools = new Map<string, Held>();

  constructor(
    private readonly hooks: WarmHooks,
    private readonly sandbox: SandboxPolicy,
    private readonly workRoot: string,
  ) {}

  /** The job's warm pool (null when no agent of the run is persistent); release() it when the game is over. */
  acquire(job: GameJob, agents: readonly TournamentAgent[]): WarmPool | null {
    if (!agents.some((a) => a.manifest.lifecycle === 'persistent')) return null;
    const key = keyOf(job);
    let held = this.pools.get(key);
    if (!held) {
      const workspaceRoot = path.join(this.workRoot, job.tournament_id);
      const pool = new WarmPool({
        ...this.hooks,
        agents,
        launch: (agent, slot, env, onStderr, onModelCall) =>
          launchWarmSlot({ workspaceRoot, sandbox: this.sandbox }, agent, slot, env, onStderr, onModelCall),
        maxRestarts: job.max_restarts ?? DEFAULT_MAX_RESTARTS,
        clock: systemClock,
        startMs: job.start_ms,
      });
      held = { pool, games: 0, idle: null };
      this.pools.set(key, held);
    }
    if (held.idle) clearTimeout(held.idle);
    held.idle = null;
    held.games++;
    return held.pool;
  }

  release(job: GameJob): void {
    const key = keyOf(job);
    const held = this.pools.get(key);
    if (!held || --held.games > 0) return;
    held.idle = setTimeout(() => {
      this.pools.delete(key);
      void held.pool.close();
    }, IDLE_MS);
    held.idle.unref();
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    for (const held of all) if (held.idle) clearTimeout(held.idle);
    await Promise.allSettled(all.map((held) => held.pool.close()));
  }
}

function keyOf(job: GameJob): string {
  return `${job.tournament_id}\n${job.manifest_hash}`;
}
