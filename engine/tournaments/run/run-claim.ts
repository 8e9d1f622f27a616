// One engine process plays a tournament at a time. Engines may share a data directory (`arena run` in a terminal and
// the app open on the same folder), and a run left 'running' looks the same whether its engine crashed or still
// plays it elsewhere; so the engine playing it records its mark (engine-identity.ts) and every other start asks
// whether that process still runs. A mark whose process is gone is a crash: the run is free to resume.
import type { Store } from '../../db/store.js';
import { engineMark, markedPid, markedProcessRunning } from '../../runner/engine-identity.js';

/** The live engine process, other than this one, whose mark the run holds, with why it keeps this engine off. */
function otherPlayer(id: string, holder: string | null): { pid: number; refusal: string } | null {
  if (holder === null || holder === engineMark()) return null;
  const running = markedProcessRunning(holder);
  if (running === false) return null;
  const pid = markedPid(holder);
  const where = running
    ? `another Local Arena process (pid ${pid})`
    : `a Local Arena process in another PID namespace (pid ${pid} there, e.g. in a container)`;
  return {
    pid,
    refusal: `tournament ${id} is being played by ${where} on this data directory; pause it there (Ctrl-C stops \`arena run\` cleanly) or let it finish`,
  };
}

/** The other engine process playing tournament `id` now (its pid, and why this engine may not play or cancel it), or null. */
export function playedElsewhere(store: Store, id: string): { pid: number; refusal: string } | null {
  return otherPlayer(id, store.tournaments.runner(id));
}

/** Records this engine as the run's player: its mark, to release when the run stops, or why it may not. */
export function claimRun(store: Store, id: string): { mark: string } | { refusal: string } {
  const holder = store.tournaments.runner(id);
  const other = otherPlayer(id, holder);
  if (other !== null) return { refusal: other.refusal };
  const mark = engineMark();
  if (holder === mark || store.tournaments.claimRunner(id, holder, mark)) return { mark };
  return { refusal: `tournament ${id} was started by another Local Arena process on this data directory just now` };
}

/** Gives the run up (it stopped); a closed database means the engine is going and the mark goes stale with it. */
export function releaseRun(store: Store, id: string, mark: string): void {
  try {
    store.tournaments.releaseRunner(id, mark);
  } catch {
    // The next start judges the mark by its process, which is gone by then.
  }
}
