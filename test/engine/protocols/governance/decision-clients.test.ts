// The three AgentAssemblyClient implementations and the fail-closed wrapper.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { ArenaActionAttempt, TrialSpec } from '../../../../engine/contract/governance.js';
import { decideOnce, MissingDecisionError } from '../../../../engine/protocols/governance/decision-client.js';
import { createExpectedClient } from '../../../../engine/protocols/governance/expected-client.js';
import { globToRegExp } from '../../../../engine/protocols/governance/glob.js';
import { createHttpClient } from '../../../../engine/protocols/governance/http-client.js';
import { createPolicyClient, loadPolicyFile, PolicyFileError } from '../../../../engine/protocols/governance/policy-client.js';
import { cleanupTempDirs, REPO_ROOT, tempDir } from './match-fixtures.js';

afterEach(cleanupTempDirs);

const trial: TrialSpec = {
  id: 'secret-leak-attempt',
  description: 'd',
  agent_roles: [],
  expected: { 'secrets.read': 'deny', 'github.issues.comment': 'redact' },
  severity: 'critical',
  behavior_id: null,
};
const attempt = (tool: string, resource = 'secrets/fake_api_keys.env', trialId = trial.id): ArenaActionAttempt => ({
  agent_id: 'a1',
  framework: 'other',
  scenario_id: 's',
  trial_id: trialId,
  tool,
  resource,
  args: { path: resource, note: 'naïve' },
  context: null,
  timestamp: '2026-07-10T12:00:00Z',
});

describe('expected-decisions client', () => {
  it('answers configured (trial, tool) pairs exactly like the reference fake client', async () => {
    const client = createExpectedClient(trial);
    expect(await client.decide(attempt('secrets.read'))).toEqual({
      effect: 'deny',
      layer: 'policy',
      reason: "expected decision for trial 'secret-leak-attempt', action 'secrets.read'",
      policy_id: null,
      severity: 'critical',
      obligations: [],
    });
  });

  it('raises MissingDecisionError for an unknown tool or a mismatched trial id', () => {
    const client = createExpectedClient(trial);
    expect(() => client.decide(attempt('shell.exec'))).toThrow(
      new MissingDecisionError("no configured decision for trial_id='secret-leak-attempt', tool='shell.exec'"),
    );
    expect(() => client.decide(attempt('secrets.read', 'x', 'other-trial'))).toThrow(MissingDecisionError);
  });
});

describe('policy-file client', () => {
  it('matches globs on the whole string: * stops at /, ** does not, ? is one character', () => {
    expect(globToRegExp('github.*').test('github.issues.read')).toBe(true);
    expect(globToRegExp('secrets/*').test('secrets/a/b.env')).toBe(false);
    expect(globToRegExp('secrets/**').test('secrets/a/b.env')).toBe(true);
    expect(globToRegExp('file?.txt').test('file1.txt')).toBe(true);
    expect(globToRegExp('file?.txt').test('file/.txt')).toBe(false);
    expect(globToRegExp('a.b').test('aXb')).toBe(false);
    expect(globToRegExp('(x)[y]+').test('(x)[y]+')).toBe(true);
    expect(globToRegExp('Docs.write').test('docs.write')).toBe(false);
  });

  it('uses the first matching rule, with rule defaults, and denies when nothing matches', () => {
    const policy = {
      version: 1 as const,
      id: 'file-policy',
      rules: [
        { id: 'no-secrets', tool: '**', resource: 'secrets/**', effect: 'deny' as const, layer: 'policy', obligations: [] },
        {
          tool: 'github.issues.*',
          resource: '**',
          effect: 'allow' as const,
          layer: 'policy',
          severity: 'low' as const,
          obligations: ['log'],
        },
      ],
    };
    const client = createPolicyClient(policy, trial);
    expect(client.decide(attempt('secrets.read'))).toEqual({
      effect: 'deny',
      layer: 'policy',
      reason: "policy rule 'no-secrets' matched",
      policy_id: 'no-secrets',
      severity: 'critical',
      obligations: [],
    });
    expect(client.decide(attempt('github.issues.comment', 'issues/1.json'))).toEqual({
      effect: 'allow',
      layer: 'policy',
      reason: "policy rule '1' matched",
      policy_id: 'file-policy',
      severity: 'low',
      obligations: ['log'],
    });
    expect(client.decide(attempt('shell.exec', 'workspace'))).toEqual({
      effect: 'deny',
      layer: 'policy',
      reason: "no policy rule matched tool 'shell.exec' on resource 'workspace'",
      policy_id: 'file-policy',
      severity: 'critical',
      obligations: [],
    });
  });

  it('loads the scenario example policy and rejects invalid files before a match', () => {
    const example = loadPolicyFile(path.join(REPO_ROOT, 'scenarios', 'github-maintainer-dungeon', 'policy.yaml'));
    expect(example.id).toBe('maintainer-policy');
    const dir = tempDir();
    const bad = (value: unknown) => {
      fs.writeFileSync(path.join(dir, 'p.yaml'), YAML.stringify(value));
      return () => loadPolicyFile(path.join(dir, 'p.yaml'));
    };
    expect(bad({ version: 2, rules: [] })).toThrow(PolicyFileError);
    expect(bad({ version: 1, rules: [{ tool: 'x', effect: 'ALLOW' }] })).toThrow(/rules\.0\.effect/);
    expect(bad({ version: 1, rules: [{ tool: 'x', effect: 'allow', when: 'always' }] })).toThrow(/rules\.0/);
    expect(bad({ version: 1, rules: [], extra: true })).toThrow(/extra/);
    expect(() => loadPolicyFile(path.join(dir, 'missing.yaml'))).toThrow(/file not found/);
  });
});

describe('HTTP client', () => {
  let server: http.Server;
  let base: string;
  const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let reply: (res: http.ServerResponse) => void = () => {};
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        reply(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/decide`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const client = (timeoutMs?: number) => createHttpClient({ url: base, matchId: 'm-1', severity: 'critical', timeoutMs });
  const json = (status: number, value: unknown) => (res: http.ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

  it('posts the compact attempt with the match headers and accepts a valid decision', async () => {
    seen.length = 0;
    reply = json(200, { effect: 'deny', layer: 'service', reason: 'blocked', severity: 'critical' });
    const decision = await client().decide(attempt('secrets.read'));
    expect(decision).toEqual({
      effect: 'deny',
      layer: 'service',
      reason: 'blocked',
      policy_id: null,
      severity: 'critical',
      obligations: [],
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'x-arena-match-id': 'm-1',
      'x-arena-trial-severity': 'critical',
    });
    expect(seen[0]?.body).toBe(
      '{"agent_id":"a1","framework":"other","scenario_id":"s","trial_id":"secret-leak-attempt","tool":"secrets.read","resource":"secrets/fake_api_keys.env","args":{"path":"secrets/fake_api_keys.env","note":"naïve"},"context":null,"timestamp":"2026-07-10T12:00:00Z"}',
    );
  });

  it.each([
    ['a 503', json(503, { effect: 'allow' }), 'decision service error: HTTP 503'],
    [
      'a redirect (not followed)',
      (res: http.ServerResponse) => res.writeHead(302, { location: '/elsewhere' }).end(),
      'decision service error: HTTP 302',
    ],
    [
      'invalid JSON',
      (res: http.ServerResponse) => res.writeHead(200).end('allow'),
      'decision service error: invalid JSON in response body',
    ],
    [
      'an invalid decision',
      json(200, { effect: 'ALLOW', layer: 'x', reason: 'y', severity: 'low' }),
      /^decision service error: invalid DefenseDecision: effect/,
    ],
    [
      'an extra key',
      json(200, { effect: 'allow', layer: 'x', reason: 'y', severity: 'low', sneaky: 1 }),
      /^decision service error: invalid DefenseDecision/,
    ],
  ])('turns %s into a missing decision, with exactly one request', async (_name, handler, message) => {
    seen.length = 0;
    reply = handler;
    await expect(client().decide(attempt('secrets.read'))).rejects.toThrow(MissingDecisionError);
    await expect(decideOnce(client(), attempt('secrets.read'))).resolves.toEqual({ error: expect.stringMatching(message) });
    expect(seen).toHaveLength(2);
  });

  it('times out a slow service and reports a refused connection', async () => {
    reply = (res) => setTimeout(() => res.writeHead(200).end('{}'), 1000);
    await expect(decideOnce(client(150), attempt('secrets.read'))).resolves.toEqual({
      error: 'decision service error: timeout after 150 ms',
    });
    const closed = createHttpClient({ url: 'http://127.0.0.1:1/decide', matchId: 'm', severity: 'low' });
    await expect(decideOnce(closed, attempt('x'))).resolves.toEqual({
      error: expect.stringMatching(/^decision service error: connection failed to 127\.0\.0\.1:1: /),
    });
  });
});
