// The HTTP client for an external agent-assembly decision service (decision 13(i) 3): one POST per attempt, no
// retries, no redirects; only HTTP 200 with a valid DefenseDecision counts, anything else is a missing decision.
import { type ArenaActionAttempt, type DefenseDecision, DefenseDecisionSchema, type Severity } from '../../contract/governance.js';
import { issueDetail } from '../../contract/schema-issues.js';
import { attemptJson } from './audit-log.js';
import { type AgentAssemblyClient, MissingDecisionError } from './decision-client.js';
import { pyJson } from './python-json.js';

export interface HttpClientOptions {
  url: string;
  matchId: string;
  severity: Severity;
  timeoutMs?: number;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 5_000;

export function createHttpClient({ url, matchId, severity, timeoutMs = DEFAULT_HTTP_TIMEOUT_MS }: HttpClientOptions): AgentAssemblyClient {
  const fail = (detail: string): never => {
    throw new MissingDecisionError(`decision service error: ${detail}`);
  };
  return {
    async decide(attempt: ArenaActionAttempt): Promise<DefenseDecision> {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-arena-match-id': matchId,
            'x-arena-trial-severity': severity,
          },
          body: pyJson(attemptJson(attempt)),
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'TimeoutError' || name === 'AbortError') return fail(`timeout after ${timeoutMs} ms`);
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        return fail(`connection failed to ${serviceEndpoint(url)}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        return fail(
          (error as Error).name === 'TimeoutError'
            ? `timeout after ${timeoutMs} ms`
            : `reading the response failed: ${(error as Error).message}`,
        );
      }
      if (response.status !== 200) return fail(`HTTP ${response.status}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return fail('invalid JSON in response body');
      }
      const parsed = DefenseDecisionSchema.safeParse(body);
      if (!parsed.success) return fail(`invalid DefenseDecision: ${issueDetail(parsed.error)}`);
      return parsed.data;
    },
  };
}

/** `host:port` of a decision service URL, as messages name it. */
export function serviceEndpoint(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
}

const UNREACHABLE = /^decision service error: connection failed to (\S+):/;

/** The service's `host:port` when an attempt went undecided because it could not be reached; else null. */
export function unreachableService(error: string | null): string | null {
  return error === null ? null : (UNREACHABLE.exec(error)?.[1] ?? null);
}

/**
 * Preflight: does anything answer at the service's URL? Any HTTP answer counts (a GET to a POST-only route is a 404 or
 * 405, which still proves a server listens); a refused or silent connection is a problem naming host:port and the fix.
 */
export async function decisionServiceProblem(url: string, timeoutMs = DEFAULT_HTTP_TIMEOUT_MS): Promise<string | null> {
  try {
    const res = await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return null;
  } catch (error) {
    const name = (error as Error).name;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
    return `the decision service ${serviceEndpoint(url)} (${url}) did not answer (${why}); start it, or choose another client (expected or a policy file)`;
  }
}
