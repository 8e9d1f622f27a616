// Drives a challenge operator directly: a recording OperatorContext with a fixed seed function and a fake clock.
import type { OperatorContext } from '../../challenges/kit/operator-base.js';
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
