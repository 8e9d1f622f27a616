// PSI helpers shared by the baseline PSI agents (a plain module next to the agent folders, not an agent itself).
import { AgentError, ArenaHttpError, integersIn } from '../../kit/agent-client.mjs';

/** How long an agent waits, once the opponent is seated, for its first chat message before playing without it. */
export const CHAT_WAIT_MS = 5000;

const SET_DM = /^Your private set is: \{([^}]*)\}\.$/;

/** This player's set, from the operator's join DM. */
export function ownSet(client) {
  return client.until(() => {
    for (const dm of client.dms()) {
      const match = SET_DM.exec(dm);
      if (match) return integersIn(match[1] ?? '');
    }
    return undefined;
  });
}

/**
 * The numbers in the opponent's first chat message: the disclosed set, or [] when it declined to share.
 * Undefined when the opponent stayed silent for `timeoutMs`.
 */
export function opponentDisclosure(client, timeoutMs = CHAT_WAIT_MS) {
  return client.until(() => {
    const first = client.opponentChat()[0];
    return first ? integersIn(first.content) : undefined;
  }, timeoutMs);
}

export function intersect(a, b) {
  const other = new Set(b);
  return a.filter((v) => other.has(v));
}

/** Sends one guess; a GUESS_TOO_LARGE refusal (the opponent's set is smaller) drops the last number and retries. */
export async function guessNumbers(client, numbers) {
  let list = [...new Set(numbers)];
  while (list.length > 0) {
    try {
      await client.act('guess', list.join(', '));
      return list;
    } catch (error) {
      if (!(error instanceof ArenaHttpError) || error.code !== 'GUESS_TOO_LARGE' || list.length === 1) throw error;
      list = list.slice(0, -1);
    }
  }
  throw new AgentError('nothing left to guess');
}
