// Millionaire helpers shared by the baseline agents (a plain module next to the agent folders, not an agent itself).
import { integersIn } from '../../kit/agent-client.mjs';

/** How long an agent waits, once the opponent is seated, for its first chat message before playing without it. */
export const CHAT_WAIT_MS = 5000;

/** `{wealth, min, max}` from the join DM "Your wealth is $57M. Guess your opponent's wealth (in millions, 1–100) ...". */
export function ownWealth(client) {
  return client.until(() => {
    const dm = client.dms().find((d) => d.startsWith('Your wealth is $'));
    if (!dm) return undefined;
    const [wealth, min = 1, max = 100] = integersIn(dm);
    return { wealth, min, max };
  });
}

/** The first number in the opponent's first chat message (its claimed wealth); undefined when it said none in time. */
export async function opponentClaim(client, min, max, timeoutMs = CHAT_WAIT_MS) {
  const numbers = await client.until(() => {
    const first = client.opponentChat()[0];
    return first ? integersIn(first.content) : undefined;
  }, timeoutMs);
  const claim = numbers?.[0];
  return claim !== undefined && claim >= min && claim <= max ? claim : undefined;
}

/** Without information: bet that a wealth below the middle is the poorer one, and vice versa. */
export function blindGuess({ wealth, min, max }) {
  if (wealth < (min + max) / 2) return Math.min(max, wealth + 1);
  return Math.max(min, wealth - 1);
}

/** The value closest to `wealth` on the claim's side, skipping the claim itself when another value exists. */
export function directionGuess(wealth, claim, min, max) {
  if (claim === wealth) return wealth;
  const step = claim > wealth ? 1 : -1;
  for (let g = wealth + step; g >= min && g <= max; g += step) if (g !== claim) return g;
  return claim;
}
