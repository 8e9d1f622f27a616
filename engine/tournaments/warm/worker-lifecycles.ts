// Warm agents on game workers: each worker keeps its own warm processes (and restart count) per tournament and
// returns its figures with every record. The coordinator keeps the latest figures of each worker and shows the run's
// as their sum, each agent's entry listing its workers', so a resumed run (or a report) still tells them apart.
import type { AgentLifecycleStats } from '../../contract/warm-agent.js';
import type { TournamentAgent } from '../spec-file.js';

export class WorkerLifecycles {
  private readonly byWorker = new Map<string, AgentLifecycleStats[]>();

  constructor(
    private readonly agents: readonly TournamentAgent[],
    previous: readonly AgentLifecycleStats[] | null,
  ) {
    for (const entry of previous ?? [])
      for (const w of entry.workers ?? []) {
        const list = this.byWorker.get(w.worker) ?? [];
        list.push({ agent: entry.agent, lifecycle: entry.lifecycle, processes: w.processes, restarts: w.restarts, retired: w.retired });
        this.byWorker.set(w.worker, list);
      }
  }

  /** A worker's figures as of the record it just returned (a worker restarted under the same id starts again). */
  update(worker: string, stats: readonly AgentLifecycleStats[]): void {
    const before = this.byWorker.get(worker) ?? [];
    // Figures only grow within one worker process; smaller ones are a restarted worker, whose new counts add on.
    const merged = stats.map((s) => {
      const old = before.find((b) => b.agent === s.agent);
      return old && (s.processes < old.processes || s.restarts < old.restarts)
        ? { ...s, processes: old.processes + s.processes, restarts: old.restarts + s.restarts }
        : s;
    });
    this.byWorker.set(worker, merged);
  }

  stats(): AgentLifecycleStats[] {
    return this.agents.map((agent) => {
      const lifecycle = agent.manifest.lifecycle === 'persistent' ? ('persistent' as const) : ('per-game' as const);
      const workers = [...this.byWorker.entries()].flatMap(([worker, list]) => {
        const s = list.find((x) => x.agent === agent.id);
        return s ? [{ worker, processes: s.processes, restarts: s.restarts, retired: s.retired }] : [];
      });
      return {
        agent: agent.id,
        lifecycle,
        processes: workers.reduce((n, w) => n + w.processes, 0),
        restarts: workers.reduce((n, w) => n + w.restarts, 0),
        retired: workers.find((w) => w.retired !== null)?.retired ?? null,
        ...(lifecycle === 'persistent' ? { workers } : {}),
      };
    });
  }
}
