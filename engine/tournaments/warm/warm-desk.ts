// Engine-wide register of warm agent processes: the agent key each one was started with, and what answers its
// long-poll for the next seat. Keys are random, live as long as the process, and grant nothing but that poll.
import { randomBytes } from 'node:crypto';
import type { NextSeatResponse } from '../../contract/warm-agent.js';

/** `undelivered`: the answer never reached the agent (its connection dropped first); the seat is offered again. */
export type NextSeatReply = { status: 200; body: NextSeatResponse; undelivered?: () => void } | { status: 204 };

export type NextSeatPoll = (waitMs: number, signal: AbortSignal) => Promise<NextSeatReply>;

export class WarmDesk {
  private readonly polls = new Map<string, NextSeatPoll>();

  /** A fresh agent key answered by `poll` until close(key). */
  open(poll: NextSeatPoll): string {
    const key = `k_${randomBytes(24).toString('hex')}`;
    this.polls.set(key, poll);
    return key;
  }

  close(key: string): void {
    this.polls.delete(key);
  }

  /** The poll for a presented key, or null when no live process holds it. */
  lookup(key: string): NextSeatPoll | null {
    return this.polls.get(key) ?? null;
  }

  get size(): number {
    return this.polls.size;
  }
}
