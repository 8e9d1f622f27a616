// The HTTP client for an external agent-assembly decision service (decision 13(i) 3): one POST per attempt, no
// retries, no redirects; only HTTP 200 with a valid DefenseDecision counts, anything else is a missing decision.
import net from 'node:net';
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
 * Preflight: does anything listen at the service's address? A TCP connection is enough: no request is sent, so a
 * service that only understands its POSTs is not disturbed; a refused or silent connection is a problem naming
 * host:port and the fix.
 */
export function decisionServiceProblem(url: string, timeoutMs = DEFAULT_HTTP_TIMEOUT_MS): Promise<string | null> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(u.port || (u.protocol === 'https:' ? '443' : '80'));
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (why: string | null) => {
      socket.destroy();
      resolve(
        why === null
          ? null
          : `the decision service ${serviceEndpoint(url)} (${url}) did not answer (${why}); start it, or choose another client (expected or a policy file)`,
      );
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs / 1000} s`));
    socket.once('connect', () => done(null));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}
