// arena-report.md (spec §9.3): the reference layout, byte for byte.
import type { ArenaAuditEvent, MatchReport } from '../../contract/governance.js';
import { offsetDateTime } from '../../contract/governance.js';
import { pyFixed, pyFloatRepr, pyJsonDumpsSorted } from './python-json.js';

const DASH = '—';

/** Table cells: `|` escaped, line breaks flattened to spaces. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, ' ');
}

function attemptRow(e: ArenaAuditEvent): string {
  const a = e.attempt;
  const reason = e.decision?.reason ?? e.error ?? DASH;
  return `| ${a ? `\`${cell(a.tool)}\`` : DASH} | ${a ? cell(a.resource) : DASH} | ${a ? cell(pyJsonDumpsSorted(a.args)) : DASH} | ${e.decision?.effect ?? DASH} | ${e.status} | ${cell(reason)} |`;
}

export function renderMarkdown(r: MatchReport): string {
  const s = r.score;
  const x = r.execution;
  const lines: string[] = [
    `# Arena Match Report: \`${r.match_id}\``,
    '',
    `**Scenario:** ${r.scenario_name} (\`${r.scenario_id}\`)`,
    '',
    r.scenario_description,
    '',
    `**Timestamp:** ${offsetDateTime(r.timestamp)}`,
    '',
    `**Agents:** ${r.agents.length > 0 ? r.agents.join(', ') : '(none)'}`,
    '',
    '## Execution',
    '',
    '| LLM mode | Deterministic | External model calls | Estimated cost (USD) |',
    '|---|---|---:|---:|',
    `| \`${x.llm_mode}\` | ${x.deterministic ? 'deterministic' : '⚠️ NON-DETERMINISTIC — real model calls'} | ${x.external_model_calls ?? DASH} | ${x.estimated_cost_usd === null ? DASH : pyFloatRepr(x.estimated_cost_usd)} |`,
    '',
    r.client_unreachable
      ? `**Result:** ⚠️ void: ${r.client_unreachable.message}`
      : `**Result:** ${s.outcome === 'agent-assembly wins' ? '✅' : '❌'} ${s.outcome}`,
    '',
    '## Summary',
    '',
    '| Metric | Count | Threshold |',
    '|---|---:|---:|',
    `| Critical escapes | ${s.critical_escapes} | ${r.victory_conditions.critical_escapes} |`,
    `| Unexpected allows | ${s.unexpected_allows} | ${r.victory_conditions.unexpected_allows} |`,
    `| Secret exposures | ${s.secret_exposures} | ${r.victory_conditions.secret_exposures} |`,
    `| Approval bypasses | ${s.approval_bypasses} | ${DASH} |`,
    `| Missing audits | ${s.missing_audits} | ${DASH} |`,
    `| Agent runtime failures | ${s.agent_runtime_failures} | ${DASH} |`,
    '',
    '## Trials',
    '',
  ];
  if (r.trials.length === 0) lines.push('_No trials were run._', '');
  for (const t of r.trials) {
    lines.push(`### \`${t.trial_id}\` ${DASH} ${t.agent_id} ${DASH} ${t.passed ? 'PASS' : 'FAIL'}`, '', t.description, '');
    lines.push(
      `- **Severity:** ${t.severity}`,
      `- **Behavior profile:** ${t.behavior_id ?? '(default)'}`,
      `- **Exit code:** ${t.exit_code}`,
    );
    lines.push(`- **Duration:** ${pyFixed(t.duration_seconds, 2)}s`);
    if (t.error !== null) lines.push(`- **Runner error:** ${cell(t.error)}`);
    if (t.stderr_tail !== undefined) lines.push('', '**Stderr (tail):**', '', ...fenced(t.stderr_tail));
    lines.push('', '**Expected decisions:**', '', '| Tool | Expected |', '|---|---|');
    for (const [tool, effect] of Object.entries(t.expected)) lines.push(`| \`${cell(tool)}\` | ${effect} |`);
    lines.push('', '**Attempts and decisions:**', '');
    if (t.audit_events.length === 0) lines.push('_No attempts recorded._', '');
    else
      lines.push(
        '| Tool | Resource | Args | Actual | Status | Reason |',
        '|---|---|---|---|---|---|',
        ...t.audit_events.map(attemptRow),
        '',
      );
  }
  if (r.unattributed_audit_events.length > 0) {
    lines.push(
      '## Unattributed Audit Events',
      '',
      'Events recorded during the match that could not be linked to a specific trial/agent (e.g. malformed action-attempt marker lines).',
      '',
      '| Status | Severity | Error |',
      '|---|---|---|',
      ...r.unattributed_audit_events.map((e) => `| ${e.status} | ${e.severity} | ${e.error === null ? DASH : cell(e.error)} |`),
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A code block whose fence is longer than any backtick run inside, so agent output cannot close it early. */
function fenced(text: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, text.replace(/\n+$/, ''), fence];
}
