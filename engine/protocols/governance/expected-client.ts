// The expected-decisions client: the reference's fake client (spec §6). Built per trial from its `expected` map, it
// answers exactly the configured (trial id, tool) pairs and raises MissingDecisionError for anything else.
import type { ArenaActionAttempt, DefenseDecision, TrialSpec } from '../../contract/governance.js';
import { pyRepr } from '../../runner/shlex.js';
import { type AgentAssemblyClient, MissingDecisionError } from './decision-client.js';

export interface ExpectedClientOptions {
  layer?: string;
  policyId?: string | null;
  obligations?: Record<string, string[]>;
}

export function createExpectedClient(trial: TrialSpec, options: ExpectedClientOptions = {}): AgentAssemblyClient {
  const decisions = new Map<string, DefenseDecision>();
  for (const [tool, effect] of Object.entries(trial.expected)) {
    decisions.set(key(trial.id, tool), {
      effect,
      layer: options.layer ?? 'policy',
      reason: `expected decision for trial '${trial.id}', action '${tool}'`,
      policy_id: options.policyId ?? null,
      severity: trial.severity,
      obligations: [...(options.obligations?.[tool] ?? [])],
    });
  }
  return {
    decide(attempt: ArenaActionAttempt): DefenseDecision {
      const decision = decisions.get(key(attempt.trial_id, attempt.tool));
      if (!decision)
        throw new MissingDecisionError(`no configured decision for trial_id=${pyRepr(attempt.trial_id)}, tool=${pyRepr(attempt.tool)}`);
      return { ...decision, obligations: [...decision.obligations] };
    },
  };
}

function key(trialId: string, tool: string): string {
  return JSON.stringify([trialId, tool]);
}
