// Governance report browser API over real HTTP against a real engine: scenarios, a background match of the Node
// example agents stored in the engine's SQLite, the match list and detail, and the four raw files.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GovernanceMatchDetailSchema,
  GovernanceMatchListResponseSchema,
  GovernanceRunResponseSchema,
  GovernanceScenarioListResponseSchema,
} from '../../../engine/contract/governance-admin.js';
import { RunIsolationReportSchema } from '../../../engine/contract/isolation.js';
import { csvField } from '../../../engine/protocols/governance/trials-csv.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'examples/agents');
const SCENARIO = 'github-maintainer-dungeon';
const NODE_AGENTS = ['maintainer-bot-node', 'malicious-bot-node'].map((a) => path.join(EXAMPLES, a, 'agent.yaml'));

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];

beforeAll(async () => {
  ({ server, admin, auth } = await startAdminTestServer());
});
afterAll(async () => {
  await server?.close();
});

async function waitForMatch(id: string): Promise<unknown> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await admin.get<{ error?: string }>(`/governance/matches/${id}`, auth);
    if (res.status === 200) return res.body;
    expect(res.status).toBe(404);
    expect(res.body.error).toContain('still running');
    if (Date.now() > deadline) throw new Error('match did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('auth and bad input', () => {
  it('needs the admin token on every route', async () => {
    for (const p of ['/governance/matches', '/governance/matches/x', '/governance/matches/x/files/trials.csv', '/governance/scenarios'])
      expect((await admin.get(p)).status).toBe(401);
    expect((await admin.post('/governance/matches', { scenario: SCENARIO })).status).toBe(401);
  });

  it('400s a bad run request with a message that says what to fix', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'scenario: Required'],
      [{ scenario: 'nope' }, "unknown scenario 'nope'"],
      [{ scenario: SCENARIO, agents: ['examples/agents/maintainer-bot-node/agent.yaml'] }, 'is not an absolute path'],
      [{ scenario: SCENARIO, agents: [path.join(ROOT, 'missing/agent.yaml')] }, 'no agent.yaml at'],
      [{ scenario: SCENARIO, agents: [path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml')] }, 'not a governance agent'],
      [{ scenario: SCENARIO, agents: [NODE_AGENTS[0], NODE_AGENTS[0]] }, 'given twice'],
      [{ scenario: SCENARIO, extra: 1 }, 'Unrecognized key'],
      // Decision clients: each is checked before anything runs.
      [{ scenario: SCENARIO, client: { kind: 'oracle' } }, 'client.kind'],
      [{ scenario: SCENARIO, client: { kind: 'policy', yaml: 'version: 1\nrules: [' } }, 'client.yaml: policy.yaml: invalid YAML'],
      [{ scenario: SCENARIO, client: { kind: 'policy', name: 'p.yaml', yaml: 'version: 2\nrules: []' } }, 'client.yaml: p.yaml: version'],
      [{ scenario: SCENARIO, client: { kind: 'policy', yaml: 'version: 1\nrules:\n  - tool: "*"\n    effect: maybe' } }, 'rules.0.effect'],
      [{ scenario: SCENARIO, client: { kind: 'policy', yaml: 'password: hunter2' } }, 'is not a policy file'],
      [{ scenario: SCENARIO, client: { kind: 'policy', yaml: '' } }, 'client.yaml'],
      [{ scenario: SCENARIO, client: { kind: 'http', url: 'decide' } }, 'client.url: not an absolute URL'],
      [{ scenario: SCENARIO, client: { kind: 'http', url: 'ftp://127.0.0.1/x' } }, 'client.url: must be http:// or https://'],
      [{ scenario: SCENARIO, client: { kind: 'http', url: 'http://decider.example/decide' } }, 'must name this machine'],
      [{ scenario: SCENARIO, client: { kind: 'http', url: 'http://127.0.0.1.evil.example/' } }, 'must name this machine'],
      [{ scenario: SCENARIO, client: { kind: 'http', url: 'http://u:p@127.0.0.1:9/' } }, 'user name or password'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post<{ error: string }>('/governance/matches', body, auth);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toContain(message);
    }
    // None of them started a match.
    expect(GovernanceMatchListResponseSchema.parse((await admin.get('/governance/matches', auth)).body).total).toBe(0);
    const notJson = await admin.post<{ error: string }>('/governance/matches', 'nope', auth);
    expect(notJson.status).toBe(400);
  });

  it('400s a bad list query and 404s unknown matches and files', async () => {
    expect((await admin.get('/governance/matches', { ...auth, query: { limit: 0 } })).status).toBe(400);
    const missing = await admin.get<{ error: string }>('/governance/matches/none', auth);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('No governance match none');
    expect((await admin.get('/governance/matches/none/files/trials.csv', auth)).status).toBe(404);
  });
});

it('lists the shipped scenario with its trial count and its example agents', async () => {
  const res = await admin.get('/governance/scenarios', auth);
  const body = GovernanceScenarioListResponseSchema.parse(res.body);
  const s = body.scenarios.find((x) => x.id === SCENARIO);
  expect(s?.trials).toBe(5);
  expect(s?.name).toBe('GitHub Maintainer Dungeon');
  const ids = s?.agents.map((a) => a.id) ?? [];
  expect(ids).toEqual(expect.arrayContaining(['maintainer-bot-node', 'malicious-bot-node']));
  for (const a of s?.agents ?? []) expect(fs.existsSync(a.manifest_path)).toBe(true);
});

describe('a background match', () => {
  let id: string;

  it('starts at once, refuses a second run, and is stored under the id it returned', async () => {
    const res = await admin.post('/governance/matches', { scenario: SCENARIO, agents: NODE_AGENTS }, auth);
    expect(res.status).toBe(200);
    const run = GovernanceRunResponseSchema.parse(res.body);
    id = run.match_id;
    expect(id).toContain(SCENARIO);
    const again = await admin.post<{ error: string }>('/governance/matches', { scenario: SCENARIO, agents: NODE_AGENTS }, auth);
    expect(again.status).toBe(409);
    expect(again.body.error).toContain(id);
    const detail = GovernanceMatchDetailSchema.parse(await waitForMatch(id));
    expect(detail.match).toMatchObject({
      matchId: id,
      scenarioId: SCENARIO,
      client: 'expected',
      agents: ['maintainer-bot-node', 'malicious-bot-node'],
    });
    expect(detail.report.match_id).toBe(id);
    expect(detail.runs).toHaveLength(10);
    expect(detail.report.trials).toHaveLength(10);
    // Peak memory of a Node agent's process tree: Node alone is tens of MiB, never the sandbox wrappers' few MiB. A
    // trial that lived and ended between two looks (a loaded machine) has no figure rather than the wrappers' one.
    if (process.platform === 'linux') {
      for (const run of detail.runs)
        expect({ trial: run.trialId, nodeSized: run.peakRssKb === null || run.peakRssKb > 10 * 1024 }).toMatchObject({ nodeSized: true });
      expect(detail.runs.some((run) => (run.peakRssKb ?? 0) > 10 * 1024)).toBe(true);
    }
  }, 120_000);

  it('appears in the list, filtered by scenario and paged', async () => {
    const all = GovernanceMatchListResponseSchema.parse((await admin.get('/governance/matches', auth)).body);
    expect(all.total).toBe(1);
    expect(all.matches[0]?.matchId).toBe(id);
    const other = GovernanceMatchListResponseSchema.parse(
      (await admin.get('/governance/matches', { ...auth, query: { scenario: 'x' } })).body,
    );
    expect(other).toEqual({ matches: [], total: 0 });
    const page = GovernanceMatchListResponseSchema.parse((await admin.get('/governance/matches', { ...auth, query: { offset: 1 } })).body);
    expect(page).toEqual({ matches: [], total: 1 });
  });

  it('serves the report files as written, the audit log in the CLI line format and one CSV row per trial', async () => {
    const detail = GovernanceMatchDetailSchema.parse((await admin.get(`/governance/matches/${id}`, auth)).body);
    const dir = detail.match.reportDir as string;
    expect(dir.startsWith(server.dataDir)).toBe(true);
    // isolation.json is rebuilt from the stored runs, byte for byte what the match wrote.
    for (const file of ['arena-report.json', 'arena-report.md', 'audit.jsonl', 'isolation.json']) {
      const res = await admin.get(`/governance/matches/${id}/files/${file}`, auth);
      expect(res.status).toBe(200);
      expect(res.text, file).toBe(fs.readFileSync(path.join(dir, file), 'utf8'));
    }
    const isolation = RunIsolationReportSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'isolation.json'), 'utf8')));
    expect(isolation.runs).toHaveLength(10);
    expect(new Set(isolation.runs.map((r) => r.isolation?.method))).toEqual(new Set(['bubblewrap']));
    const csv = await admin.get(`/governance/matches/${id}/files/trials.csv`, auth);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('agent,trial,severity,expected_decision,passed,error,exit_code,duration_seconds,audit_events');
    expect(lines).toHaveLength(11);
    const auditLines = fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n').length;
    const counted = lines.slice(1).reduce((n, l) => n + Number(l.split(',').at(-1)), 0);
    expect(counted).toBe(auditLines);
    expect((await admin.get(`/governance/matches/${id}/files/secrets.txt`, auth)).status).toBe(404);
  });
});

describe('matches decided by a real decision source', () => {
  const ONE_AGENT = [NODE_AGENTS[0] as string];

  it('a policy file uploaded as text decides with its rules and is named on the match', async () => {
    const yaml = fs.readFileSync(path.join(ROOT, 'scenarios', SCENARIO, 'policy.yaml'), 'utf8');
    const res = await admin.post(
      '/governance/matches',
      { scenario: SCENARIO, agents: ONE_AGENT, client: { kind: 'policy', name: 'maintainer.yaml', yaml } },
      auth,
    );
    expect(res.status, res.text).toBe(200);
    const detail = GovernanceMatchDetailSchema.parse(await waitForMatch(GovernanceRunResponseSchema.parse(res.body).match_id));
    // Named with the digest of the content that decided.
    const digest = createHash('sha256').update(yaml).digest('hex').slice(0, 12);
    expect(detail.match.client).toBe(`policy:maintainer.yaml@sha256:${digest}`);
    const decisions = detail.report.trials.flatMap((t) => t.audit_events.flatMap((e) => (e.decision ? [e.decision] : [])));
    expect(decisions.length).toBeGreaterThan(0);
    // The decisions came from that file's rules (ids in its rules), none from the scenario's expectations.
    expect(decisions.some((d) => d.policy_id === 'issue-work' || d.policy_id === 'no-secret-files')).toBe(true);
    expect(decisions.every((d) => !d.reason.startsWith('expected decision for trial'))).toBe(true);
  }, 120_000);

  it('an HTTP decision service on 127.0.0.1 gets one POST per attempt, and its answers decide', async () => {
    const seen: Array<{ matchId: string | undefined; tool: string }> = [];
    const service = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const attempt = JSON.parse(body) as { tool: string };
        seen.push({ matchId: req.headers['x-arena-match-id'] as string | undefined, tool: attempt.tool });
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            effect: 'deny',
            layer: 'service',
            reason: 'the test service denies everything',
            policy_id: null,
            severity: 'high',
            obligations: [],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/decide`;
      const res = await admin.post('/governance/matches', { scenario: SCENARIO, agents: ONE_AGENT, client: { kind: 'http', url } }, auth);
      expect(res.status, res.text).toBe(200);
      const matchId = GovernanceRunResponseSchema.parse(res.body).match_id;
      const detail = GovernanceMatchDetailSchema.parse(await waitForMatch(matchId));
      expect(detail.match.client).toBe(`http:${url}`);
      const decided = detail.report.trials.flatMap((t) => t.audit_events.filter((e) => e.decision));
      expect(decided.length).toBe(seen.length);
      expect(seen.every((s) => s.matchId === matchId)).toBe(true);
      expect(decided.every((e) => e.decision?.layer === 'service' && e.decision.effect === 'deny')).toBe(true);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  }, 120_000);
});

it('quotes CSV fields that need it', () => {
  expect(csvField('plain')).toBe('plain');
  expect(csvField('a,b')).toBe('"a,b"');
  expect(csvField('say "hi"')).toBe('"say ""hi"""');
  expect(csvField('two\nlines')).toBe('"two\nlines"');
  expect(csvField(null)).toBe('');
});
