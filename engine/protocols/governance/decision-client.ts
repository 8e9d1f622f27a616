// The AgentAssemblyClient contract (spec §6, decision 13(b)): `decide` returns a DefenseDecision or throws
// MissingDecisionError. The match calls it through decideOnce, which turns every failure — another error, a rejected
// promise, a timeout, an invalid return value — into a missing decision, so a client can never fail open.
import { type ArenaActionAttempt, type DefenseDecision, DefenseDecisionSchema, type TrialSpec } from '../../contract/governance.js';
import { issueDetail } from '../../contract/schema-issues.js';

export class MissingDecisionError extends Error {
  override name = 'MissingDecisionError';
}

export interface AgentAssemblyClient {
  decide(attempt: ArenaActionAttempt): DefenseDecision | Promise<DefenseDecision>;
}

/** What a client knows when it is built: clients are constructed per trial. */
export interface TrialContext {
  matchId: string;
  agentId: string;
  trial: TrialSpec;
}

export type ClientFactory = (context: TrialContext) => AgentAssemblyClient;

export type DecideOutcome = { decision: DefenseDecision; error?: undefined } | { decision?: undefined; error: string };

export const DEFAULT_DECIDE_TIMEOUT_MS = 30_000;

export async function decideOnce(
  client: AgentAssemblyClient,
  attempt: ArenaActionAttempt,
  timeoutMs = DEFAULT_DECIDE_TIMEOUT_MS,
): Promise<DecideOutcome> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DecideTimeoutError(`decision not returned within ${timeoutMs} ms`)), timeoutMs);
    });
    // Promise.resolve().then: a synchronous throw inside decide becomes a rejection like any other.
    const value: unknown = await Promise.race([Promise.resolve().then(() => client.decide(attempt)), timeout]);
    const parsed = DefenseDecisionSchema.safeParse(value);
    if (!parsed.success) return { error: `invalid DefenseDecision from client: ${issueDetail(parsed.error)}` };
    return { decision: parsed.data };
  } catch (error) {
    if (error instanceof MissingDecisionError) return { error: error.message };
    if (error instanceof Error) return { error: `${error.name}: ${error.message}` };
    return { error: `Error: ${String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

class DecideTimeoutError extends Error {
  override name = 'TimeoutError';
}
