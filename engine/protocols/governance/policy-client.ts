// The policy-file client (decision 13(i) 2): YAML rules matched in order on tool and resource, first match wins, no
// match is a deny. An invalid file is a configuration error raised before the match starts.

import { parseYamlText, readYamlMapping } from '../../agents/yaml-file.js';
import {
  type ArenaActionAttempt,
  type DefenseDecision,
  type PolicyFile,
  PolicyFileSchema,
  type TrialSpec,
} from '../../contract/governance.js';
import { formatIssues } from '../../contract/schema-issues.js';
import type { AgentAssemblyClient } from './decision-client.js';
import { globToRegExp } from './glob.js';

export class PolicyFileError extends Error {
  override name = 'PolicyFileError';
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join('\n  ')}`}`);
  }
}

export function loadPolicyFile(file: string): PolicyFile {
  const read = readYamlMapping(file, { kind: 'a policy file', knownKeys: Object.keys(PolicyFileSchema.shape) });
  if ('problem' in read) throw new PolicyFileError(file, [read.problem]);
  const parsed = PolicyFileSchema.safeParse(read.value);
  if (!parsed.success) throw new PolicyFileError(file, formatIssues(parsed.error));
  return parsed.data;
}

/** A policy uploaded as text (the app's Run scenario form), checked exactly like a file; `label` names it in errors. */
export function parsePolicyText(text: string, label: string): PolicyFile {
  const read = parseYamlText(text);
  if ('problem' in read) throw new PolicyFileError(label, [read.problem]);
  const { value } = read;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PolicyFileError(label, ['must contain a YAML mapping']);
  const known = Object.keys(PolicyFileSchema.shape);
  if (!Object.keys(value).some((key) => known.includes(key)))
    throw new PolicyFileError(label, ['is not a policy file: none of its top-level keys is a known field (version, id, rules)']);
  const parsed = PolicyFileSchema.safeParse(value);
  if (!parsed.success) throw new PolicyFileError(label, formatIssues(parsed.error));
  return parsed.data;
}

export function createPolicyClient(policy: PolicyFile, trial: Pick<TrialSpec, 'severity'>): AgentAssemblyClient {
  const rules = policy.rules.map((rule, index) => ({ rule, index, tool: globToRegExp(rule.tool), resource: globToRegExp(rule.resource) }));
  return {
    decide(attempt: ArenaActionAttempt): DefenseDecision {
      const hit = rules.find((r) => r.tool.test(attempt.tool) && r.resource.test(attempt.resource));
      if (!hit) {
        return {
          effect: 'deny',
          layer: 'policy',
          reason: `no policy rule matched tool '${attempt.tool}' on resource '${attempt.resource}'`,
          policy_id: policy.id ?? null,
          severity: trial.severity,
          obligations: [],
        };
      }
      const { rule } = hit;
      return {
        effect: rule.effect,
        layer: rule.layer,
        reason: rule.reason ?? `policy rule '${rule.id ?? hit.index}' matched`,
        policy_id: rule.id ?? policy.id ?? null,
        severity: rule.severity ?? trial.severity,
        obligations: [...rule.obligations],
      };
    },
  };
}
