// Which decision client a governance match started from the app uses (spec §13(i)): the scenario's own expected
// decisions (a self-check of the harness), an uploaded policy file, or an HTTP decision service on this machine. Each
// choice is checked before the match starts, and its label is stored with the match so the report says what decided.
import { createHash } from 'node:crypto';
import { DomainError } from '../../contract/errors.js';
import type { GovernanceClientChoice } from '../../contract/governance-admin.js';
import type { ClientFactory } from './decision-client.js';
import { createExpectedClient } from './expected-client.js';
import { createHttpClient } from './http-client.js';
import { createPolicyClient, PolicyFileError, parsePolicyText } from './policy-client.js';

export interface ChosenClient {
  factory: ClientFactory;
  /**
   * Stored as the match's `client`, in the CLI's --client spelling: `expected`, `policy:<name>@sha256:<12 hex>` (which
   * file content decided, not just its name) or `http:<url>`.
   */
  label: string;
}

const invalid = (path: string, message: string) => new DomainError('invalid', `${path}: ${message}`, { issues: [{ path, message }] });

export function chooseClient(choice: GovernanceClientChoice | undefined): ChosenClient {
  if (!choice || choice.kind === 'expected') return { factory: ({ trial }) => createExpectedClient(trial), label: 'expected' };
  if (choice.kind === 'policy') {
    const name = choice.name?.trim() || 'policy.yaml';
    try {
      const policy = parsePolicyText(choice.yaml, name);
      const digest = createHash('sha256').update(choice.yaml).digest('hex').slice(0, 12);
      return { factory: ({ trial }) => createPolicyClient(policy, trial), label: `policy:${name}@sha256:${digest}` };
    } catch (error) {
      if (!(error instanceof PolicyFileError)) throw error;
      throw new DomainError('invalid', `client.yaml: ${error.message}`, {
        issues: error.problems.map((message) => ({ path: 'client.yaml', message })),
      });
    }
  }
  const url = checkServiceUrl(choice.url);
  return { factory: ({ matchId, trial }) => createHttpClient({ url, matchId, severity: trial.severity }), label: `http:${url}` };
}

/**
 * The app only sends attempts to a service on this machine: the attempts carry the agents' (redacted) arguments, and a
 * page of the app must not be able to ship them elsewhere. `arena match --client http:<url>` takes any URL (the
 * operator types it on their own command line).
 */
export function checkServiceUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('client.url', `not an absolute URL: ${JSON.stringify(raw.slice(0, 200))} (example: http://127.0.0.1:8700/decide)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid('client.url', `must be http:// or https://, not ${url.protocol}//`);
  if (url.username !== '' || url.password !== '') throw invalid('client.url', 'must not carry a user name or password');
  if (url.hash !== '') throw invalid('client.url', 'must not have a #fragment');
  if (!isLoopbackName(url.hostname))
    throw invalid('client.url', `must name this machine (127.0.0.1, [::1] or localhost), not ${url.hostname}`);
  return url.href;
}

function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}
