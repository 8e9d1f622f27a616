// Drives a challenge operator directly: a recording OperatorContext with a fixed seed function and a fake clock.
import { expect } from 'vitest';
import { type OperatorContext, OperatorError } from '../../challenges/kit/operator-base.js';
import type { ChallengeOperatorState } from '../../engine/contract/specarena.js';

export interface Sent {
  challengeId: string;
  from: string;
  content: string;
  to?: string;
}

export const START = 1_700_000_000_000;

export function harness(challengeId = 'c-1') {
  const sent: Sent[] = [];
  const events: { challengeId: string; type: string; data: ChallengeOperatorState }[] = [];
  const seeds: string[] = [];
  const clock = { now: START };
  const record = (challengeId: string, from: string, content: string, to?: string) =>
    sent.push({ challengeId, from, content, ...(to === undefined ? {} : { to }) });
  const ctx: OperatorContext = {
    challengeId,
    messaging: {
      sendMessage: record,
      sendChallengeMessage: record,
      broadcastChallengeEvent: (id, event) => events.push({ challengeId: id, ...event }),
    },
    now: () => clock.now,
    seed: (purpose) => {
      seeds.push(purpose);
      return `fixed-secret/${purpose}`;
    },
  };
  return { ctx, sent, events, seeds, clock };
}

export type Harness = ReturnType<typeof harness>;

/** The part of an operator the helpers below drive (any challenge's state). */
interface DrivenOperator {
  message(message: { channel: string; from: string; to: string; content: string; timestamp: number; type: string }): void;
  serialize(): unknown;
}

/** A player's action message to the operator, at the harness's start time. */
export function sendAction(op: DrivenOperator, from: string, type: string, content = ''): void {
  op.message({ channel: 'c-1', from, to: 'operator', content, timestamp: START, type });
}

/**
 * Runs an action the operator must refuse: asserts the refusal code and that nothing changed (no state, no messages,
 * no events). Returns the refusal's message.
 */
export function refused(h: Harness, op: DrivenOperator, action: () => void, code: string): string {
  const before = op.serialize();
  const sentBefore = h.sent.length;
  const eventsBefore = h.events.length;
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(OperatorError);
  expect((caught as OperatorError).code).toBe(code);
  expect(op.serialize()).toEqual(before);
  expect(h.sent).toHaveLength(sentBefore);
  expect(h.events).toHaveLength(eventsBefore);
  return (caught as OperatorError).message;
}
