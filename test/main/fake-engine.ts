// Test doubles for the engine utility process and for time, shared by the engine-host, quit and handler tests.
import { EventEmitter } from 'node:events';
import type { Timers, UtilityProcessLike } from '../../main/engine-host.js';

export const TOKEN = 'T'.repeat(43);

/** Stands in for Electron's UtilityProcess: records posted messages; kill() exits it like a SIGTERM would. */
export class FakeProcess extends EventEmitter implements UtilityProcessLike {
  killed = false;
  posted: unknown[] = [];
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  kill() {
    this.killed = true;
    this.emit('exit', 15);
    return true;
  }
  ready(port: number) {
    this.emit('message', { type: 'ready', port, token: TOKEN });
  }
}

/** Deterministic timers: advance(ms) runs everything due, in order. */
export function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const id = nextId++;
      pending.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (id) => pending.delete(id as number),
    now: () => now,
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].callback();
    }
    now = until;
  };
  return { timers, advance };
}
