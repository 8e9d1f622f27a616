// The nine adversarial contract behaviours of the governance spec (§11), with real agent processes and real files.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ArenaActionAttempt, DECISIONS, DefenseDecisionSchema } from '../../../../engine/contract/governance.js';
import { auditLine, parseAuditLog, readAuditLog } from '../../../../engine/protocols/governance/audit-log.js';
import type { AgentAssemblyClient } from '../../../../engine/protocols/governance/decision-client.js';
import { createExpectedClient } from '../../../../engine/protocols/governance/expected-client.js';
import { cleanupTempDirs, marker, runFixtureMatch } from './match-fixtures.js';

afterEach(cleanupTempDirs);

const THREE_ATTEMPTS = [
  marker({ tool: 'fs.read', resource: 'notes.md' }),
  marker({ tool: 'net.fetch', resource: 'https://example.com' }),
  marker({ tool: 'fs.read', resource: 'todo.md' }),
];

async function countingMatch(lines: string[], expected: Record<string, 'allow' | 'deny' | 'redact' | 'ask' | 'drop' | 'quarantine'>) {
  const calls: ArenaActionAttempt[] = [];
  const { result, out } = await runFixtureMatch({
    trials: [{ id: 'only-trial', severity: 'high', expected }],
    agents: [{ id: 'agent-one', script: { '*': lines } }],
    clientFactory: ({ trial }) => {
      const inner = createExpectedClient(trial);
      const client: AgentAssemblyClient = {
        decide(attempt) {
          calls.push(attempt);
          return inner.decide(attempt);
        },
      };
      return client;
    },
  });
  return { result, out, calls, replayed: readAuditLog(path.join(result.reportDir, 'audit.jsonl')) };
}

describe('adversarial contract', () => {
  it('1. calls decide exactly once per parsed attempt, including tools with no configured decision', async () => {
    const { calls } = await countingMatch(THREE_ATTEMPTS, { 'fs.read': 'allow' });
    expect(calls.map((c) => c.tool)).toEqual(['fs.read', 'net.fetch', 'fs.read']);
  });

  it('2. writes exactly one audit event per parsed attempt: decided with a decision, or missing_decision with an error', async () => {
    const { replayed } = await countingMatch(THREE_ATTEMPTS, { 'fs.read': 'allow' });
    const attempted = replayed.filter((e) => e.attempt !== null);
    expect(attempted.map((e) => [e.attempt?.tool, e.attempt?.resource, e.status])).toEqual([
      ['fs.read', 'notes.md', 'decided'],
      ['net.fetch', 'https://example.com', 'missing_decision'],
      ['fs.read', 'todo.md', 'decided'],
    ]);
    expect(attempted[0]?.decision?.effect).toBe('allow');
    expect(attempted[1]?.decision).toBeNull();
    expect(attempted[1]?.error).toBe("no configured decision for trial_id='only-trial', tool='net.fetch'");
  });

  it('3. fails the trial in the outcome when any attempt lacks a decision', async () => {
    const { result } = await countingMatch(THREE_ATTEMPTS, { 'fs.read': 'allow' });
    expect(result.runs[0]?.passed).toBe(false);
    expect(result.report.trials[0]?.passed).toBe(false);
    expect(result.report.score.missing_audits).toBe(1);
    expect(result.report.score.outcome).toBe('agent-assembly loses');
  });

  it('4. persists a missing-decision event intact through the JSONL round trip', async () => {
    const { replayed } = await countingMatch(THREE_ATTEMPTS, { 'fs.read': 'allow' });
    const missing = replayed.find((e) => e.status === 'missing_decision' && e.attempt !== null);
    expect(missing).toMatchObject({ status: 'missing_decision', decision: null, severity: 'high', attempt: { tool: 'net.fetch' } });
    expect(parseAuditLog(auditLine(missing as never))).toEqual([missing]);
  });

  it('5. accepts exactly the six lowercase effects when a decision is constructed', () => {
    const base = { layer: 'policy', reason: 'r', severity: 'low' };
    for (const effect of ['not-a-real-decision', 'ALLOW', '', 'allow ', null, 42]) {
      expect(DefenseDecisionSchema.safeParse({ ...base, effect }).success, String(effect)).toBe(false);
    }
    for (const effect of DECISIONS) expect(DefenseDecisionSchema.parse({ ...base, effect }).effect).toBe(effect);
  });

  it('6. refuses to replay a hand-edited audit line with an invalid effect (no coercion, no default)', async () => {
    const { result } = await countingMatch([marker({ tool: 'fs.read' })], { 'fs.read': 'allow' });
    const file = path.join(result.reportDir, 'audit.jsonl');
    for (const bad of ['ALLOW', 'permit', '']) {
      fs.writeFileSync(
        file,
        fs.readFileSync(path.join(result.reportDir, 'audit.jsonl'), 'utf8').replace(/"effect":"[^"]*"/, `"effect":"${bad}"`),
      );
      expect(() => readAuditLog(file), bad).toThrow(/effect/);
    }
  });

  it('7. replays redact decisions with every args value redacted and the decision unchanged', async () => {
    const lines = [
      marker({ tool: 'log.write', args: { body: 'token=abc123', level: 'info', nested: { k: 1 } }, context: 'copying the token' }),
    ];
    const { replayed } = await countingMatch(lines, { 'log.write': 'redact' });
    expect(replayed[0]?.attempt?.args).toEqual({ body: '<redacted>', level: '<redacted>', nested: '<redacted>' });
    expect(replayed[0]?.attempt?.context).toBe('<redacted>');
    expect(replayed[0]?.attempt?.resource).toBe('repo/file.txt');
    expect(replayed[0]?.decision?.effect).toBe('redact');
    expect(replayed[0]?.status).toBe('decided');
  });

  it.each(DECISIONS.filter((d) => d !== 'redact'))('8. replays args unchanged under a %s decision', async (effect) => {
    const args = { path: 'a/b.txt', n: 3, list: [1, 'two', null], deep: { x: 'ü — ✓' }, empty: {} };
    const { replayed } = await countingMatch([marker({ tool: 'fs.touch', args, context: 'ctx' })], { 'fs.touch': effect });
    expect(replayed[0]?.decision?.effect).toBe(effect);
    expect(JSON.stringify(replayed[0]?.attempt?.args)).toBe(JSON.stringify(args));
    expect(replayed[0]?.attempt?.context).toBe('ctx');
  });

  it('9. end to end: a secret written to log.write under an expected redact never reaches the replayed audit or the reports', async () => {
    const secret = 'sk-live-THIS-IS-A-SECRET-0042';
    const { result, out } = await countingMatch([marker({ tool: 'log.write', args: { body: secret } })], { 'log.write': 'redact' });
    const replayed = readAuditLog(path.join(result.reportDir, 'audit.jsonl'));
    expect(replayed[0]?.attempt?.args).toEqual({ body: '<redacted>' });
    expect(result.report.trials[0]?.passed).toBe(true);
    for (const file of ['arena-report.json', 'arena-report.md', 'audit.jsonl']) {
      expect(fs.readFileSync(path.join(result.reportDir, file), 'utf8')).not.toContain(secret);
    }
    expect(fs.readFileSync(path.join(out, 'latest.json'), 'utf8')).not.toContain(secret);
    expect(fs.readFileSync(path.join(out, 'runs', result.matchId, 'audit.jsonl'), 'utf8')).not.toContain(secret);
  });
});
