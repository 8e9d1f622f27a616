// Time comes through this interface so expiry and timestamps can be tested with a fake clock.
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function createManualClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void; set(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance(ms: number) {
      current += ms;
    },
    set(ms: number) {
      current = ms;
    },
  };
}
