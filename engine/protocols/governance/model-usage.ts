// Model-agent accounting of a governance match, kept beside the reports as model-usage.json and model-usage.md: the
// reference report formats (arena-report.*) are reproduced byte for byte and have no place for it. Per trial run
// ("game") and per agent: calls, tokens, latency, cost and fallbacks by cause (model faults apart from provider /
// harness ones); the run's transcripts stay in the model agent's stderr (ARENA_MODEL_TURN lines). Written only when
// some run reported usage.
import { parseAgentOutput, sumUsage, totalUsage, type UsageTotals } from '../../contract/usage-line.js';

export const MODEL_USAGE_JSON = 'model-usage.json';
export const MODEL_USAGE_MD = 'model-usage.md';

export interface RunUsage extends UsageTotals {
  agent_id: string;
  trial_id: string;
  /** Usage or turn lines that did not validate. */
  invalid_lines: number;
  /** The runner cut the run's stderr at its cap: the totals may miss the last calls. */
  stderr_truncated: boolean;
}

export interface AgentTotals extends UsageTotals {
  agent_id: string;
  runs: number;
  cost_per_run_usd: number;
}

export interface GovernanceUsage {
  match_id: string;
  agents: AgentTotals[];
  runs: RunUsage[];
}

interface RunInput {
  agentId: string;
  trial: { id: string };
  launch: { stderr: string; stderrTruncated: boolean };
}

export function governanceUsage(matchId: string, runs: readonly RunInput[]): GovernanceUsage | null {
  const perRun: RunUsage[] = [];
  for (const run of runs) {
    const parsed = parseAgentOutput(run.launch.stderr);
    if (parsed.usage.length === 0 && parsed.turns.length === 0 && parsed.invalid.length === 0) continue;
    perRun.push({
      agent_id: run.agentId,
      trial_id: run.trial.id,
      ...totalUsage(parsed.usage),
      invalid_lines: parsed.invalid.length,
      stderr_truncated: run.launch.stderrTruncated,
    });
  }
  if (perRun.length === 0) return null;
  const agents: AgentTotals[] = [...sumUsage(perRun.map((r) => [r.agent_id, r] as const))].map(
    ([agent_id, { units, cost_per_unit_usd, ...totals }]) => ({ agent_id, runs: units, cost_per_run_usd: cost_per_unit_usd, ...totals }),
  );
  return { match_id: matchId, agents, runs: perRun };
}

const fallbackText = (f: UsageTotals['fallbacks']) =>
  Object.entries(f)
    .map(([cause, n]) => `${cause} ${n}`)
    .join(', ') || '—';
const perCall = (u: UsageTotals) => (u.calls > 0 ? String(Math.round(u.latency_ms / u.calls)) : '—');

export function usageMarkdown(usage: GovernanceUsage): string {
  const lines = [`# Model usage: ${usage.match_id}`, '', '## Per agent', ''];
  lines.push(
    '| Agent | Runs | Calls | Prompt tokens | Completion tokens | Latency / call (ms) | Cost (USD) | Cost / run (USD) | Fallbacks |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const a of usage.agents)
    lines.push(
      `| ${a.agent_id} | ${a.runs} | ${a.calls} | ${a.prompt_tokens} | ${a.completion_tokens} | ${perCall(a)} | ${a.cost_usd.toFixed(4)} | ${a.cost_per_run_usd.toFixed(4)} | ${fallbackText(a.fallbacks)} |`,
    );
  lines.push('', '## Per trial run', '', '| Agent | Trial | Calls | Tokens | Latency / call (ms) | Cost (USD) | Fallbacks |');
  lines.push('|---|---|---:|---:|---:|---:|---|');
  for (const r of usage.runs)
    lines.push(
      `| ${r.agent_id} | ${r.trial_id} | ${r.calls} | ${r.prompt_tokens + r.completion_tokens} | ${perCall(r)} | ${r.cost_usd.toFixed(4)} | ${fallbackText(r.fallbacks)} |`,
    );
  lines.push(
    '',
    'Fallback causes: model_unparsable / model_illegal / model_timeout are the model’s faults; provider_error is the provider’s or the harness’s.',
    '',
  );
  return lines.join('\n');
}
