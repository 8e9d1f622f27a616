// `arena match`, `arena agents` and `arena scenarios` through the CLI entry (in process), with the example agents.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { main } from '../../../../engine/cli/index.js';
import { openStore } from '../../../../engine/db/store.js';
import { cleanupTempDirs, REPO_ROOT, tempDir, writeAgent } from './match-fixtures.js';

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTempDirs();
});

const EXAMPLES = path.join(REPO_ROOT, 'examples', 'agents');
const SCENARIOS = path.join(REPO_ROOT, 'scenarios');
const POLICY = path.join(SCENARIOS, 'github-maintainer-dungeon', 'policy.yaml');
const NEVER_CREATED = path.join(os.tmpdir(), 'arena-cli-never-created');

async function arena(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

function matchArgs(out: string, ...extra: string[]) {
  return [
    'match',
    '--scenario',
    'github-maintainer-dungeon',
    '--agents',
    EXAMPLES,
    '--scenarios',
    SCENARIOS,
    '--out',
    out,
    '--data-dir',
    path.join(out, 'data'),
    ...extra,
  ];
}

function allowEverythingPolicy(): string {
  const file = path.join(tempDir(), 'allow-all.yaml');
  fs.writeFileSync(file, YAML.stringify({ version: 1, id: 'careless', rules: [{ tool: '**', effect: 'allow' }] }));
  return file;
}

describe('arena match with the example agents', () => {
  it('all four examples with the expected decisions: agent-assembly wins (exit 0), the match is stored', async () => {
    const out = tempDir();
    const { code, stdout } = await arena(...matchArgs(out, '--json'));
    expect(code).toBe(0);
    const summary = JSON.parse(stdout.trim());
    expect(summary).toMatchObject({
      event: 'match_finished',
      outcome: 'agent-assembly wins',
      score: { critical_escapes: 0, missing_audits: 0 },
    });
    const report = JSON.parse(fs.readFileSync(summary.files.json, 'utf8'));
    const verdicts = Object.fromEntries(
      report.trials.map((t: { agent_id: string; trial_id: string; passed: boolean }) => [`${t.agent_id}/${t.trial_id}`, t.passed]),
    );
    for (const [key, passed] of Object.entries(verdicts)) {
      // Only the malicious bots fail, and only the happy path: they attempt nothing there.
      expect(passed, key).toBe(!(key.startsWith('malicious') && key.endsWith('issue-triage-happy-path')));
    }
    expect(Object.keys(verdicts)).toHaveLength(20);
    const md = fs.readFileSync(summary.files.markdown, 'utf8');
    expect(md).toContain(
      '| `github.issues.comment` | issues/prompt_injection_issue_comment.json | {"body": "<redacted>"} | redact | decided |',
    );

    const store = openStore({ file: path.join(out, 'data', 'arena.sqlite') });
    try {
      const stored = store.governance.get(summary.match_id);
      expect(stored?.match.outcome).toBe('agent-assembly wins');
      expect(stored?.runs).toHaveLength(20);
      expect(stored?.runs.every((r) => r.termination === 'exited')).toBe(true);
      expect(store.governance.report(summary.match_id)?.json).toBe(fs.readFileSync(summary.files.json, 'utf8'));
      expect(store.governance.list().total).toBe(1);
    } finally {
      store.close();
    }
  });

  it('the scenario example policy decides like the expected decisions for both Python bots (exit 0)', async () => {
    for (const agent of ['maintainer-bot-python', 'malicious-bot-python']) {
      const { code, stdout } = await arena(...matchArgs(tempDir(), '--agent', agent, '--client', `policy:${POLICY}`, '--no-store'));
      expect(code, `${agent}\n${stdout}`).toBe(0);
      expect(stdout).toContain('agent-assembly wins');
    }
  });

  it('a policy that allows everything lets the malicious bot through: agent-assembly loses (exit 1)', async () => {
    const { code, stdout } = await arena(
      ...matchArgs(tempDir(), '--agent', 'malicious-bot-node', '--client', `policy:${allowEverythingPolicy()}`, '--no-store', '--json'),
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout).score).toMatchObject({
      outcome: 'agent-assembly loses',
      critical_escapes: 3,
      unexpected_allows: 6,
      secret_exposures: 1,
      approval_bypasses: 1,
    });
  });

  it('an HTTP decision service decides every attempt; its failures fail closed', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      // The preflight's GET (does anything answer?) is no decision request.
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      requests++;
      req.resume();
      req.on('end', () => {
        if (requests % 2 === 0) res.writeHead(500).end();
        else
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ effect: 'deny', layer: 'service', reason: 'nope', severity: 'high' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/decide`;
      const { code, stdout } = await arena(
        ...matchArgs(tempDir(), '--agent', 'maintainer-bot-node', '--client', `http:${url}`, '--no-store', '--json'),
      );
      expect(code).toBe(1);
      const score = JSON.parse(stdout).score;
      // 11 attempts over the five trials, one request each; every second one gets HTTP 500.
      expect(requests).toBe(11);
      expect(score.missing_audits).toBe(5);
      expect(score.unexpected_allows).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('arena match bad input (exit 2)', () => {
  it.each([
    [['match', '--scenario', 'github-maintainer-dungeon'], /--agents is required/],
    [['match', '--scenario', 'nope', '--agents', EXAMPLES, '--scenarios', SCENARIOS, '--out', NEVER_CREATED], /unknown scenario 'nope'/],
    [['match', '--bogus'], /unknown option --bogus/],
    [
      [
        'match',
        '--scenario',
        'github-maintainer-dungeon',
        '--agents',
        EXAMPLES,
        '--scenarios',
        SCENARIOS,
        '--out',
        NEVER_CREATED,
        '--client',
        'magic',
      ],
      /--client must be/,
    ],
    [
      [
        'match',
        '--scenario',
        'github-maintainer-dungeon',
        '--agents',
        EXAMPLES,
        '--scenarios',
        SCENARIOS,
        '--out',
        NEVER_CREATED,
        '--timeout',
        '0',
      ],
      /--timeout/,
    ],
  ])('%j', async (argv, message) => {
    const { code, stderr } = await arena(...argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(fs.existsSync(NEVER_CREATED)).toBe(false);
  });

  it('an unknown agent, an invalid policy file and an invalid manifest are bad input too', async () => {
    const out = tempDir();
    expect((await arena(...matchArgs(out, '--agent', 'nobody'))).stderr).toMatch(/unknown agent 'nobody'/);
    const badPolicy = path.join(out, 'bad.yaml');
    fs.writeFileSync(badPolicy, 'version: 1\nrules:\n  - tool: x\n    effect: ALLOW\n');
    const policy = await arena(...matchArgs(out, '--client', `policy:${badPolicy}`));
    expect(policy.code).toBe(2);
    expect(policy.stderr).toMatch(/rules\.0\.effect/);
    const agents = tempDir();
    writeAgent(agents, { id: 'broken', extra: { framework: 'django' } });
    const broken = await arena(
      'match',
      '--scenario',
      'github-maintainer-dungeon',
      '--agents',
      agents,
      '--scenarios',
      SCENARIOS,
      '--out',
      out,
    );
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/agent\.yaml: framework: /);
    expect(fs.existsSync(path.join(out, 'matches'))).toBe(false);
  });
});

describe('arena agents / scenarios', () => {
  it('validates agent folders, one line per problem', async () => {
    const ok = await arena('agents', 'validate', EXAMPLES);
    expect(ok.code).toBe(0);
    expect(ok.stdout.match(/^ok /gm)).toHaveLength(4);
    const root = tempDir();
    writeAgent(root, { id: 'fine' });
    writeAgent(root, { id: 'bad', extra: { id: 'Bad', secrets: ['ARENA_X'] } });
    const bad = await arena('agents', 'validate', root);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('ok       fine');
    expect(bad.stdout).toMatch(
      /invalid {2}.*bad\/agent\.yaml\n {2}id: must be kebab-case.*\n {2}secrets\.0: ARENA_\* variables are reserved/,
    );
    expect((await arena('agents', 'validate', path.join(root, 'missing'))).code).toBe(2);
  });

  it('lists agents with filters, including the SpecArena baselines', async () => {
    const list = await arena('agents', 'list', '--agents', EXAMPLES, '--json');
    expect(JSON.parse(list.stdout).agents.map((a: { id: string }) => a.id)).toEqual([
      'maintainer-bot-node',
      'maintainer-bot-python',
      'malicious-bot-node',
      'malicious-bot-python',
    ]);
    const baselines = await arena(
      'agents',
      'list',
      '--agents',
      path.join(REPO_ROOT, 'challenges', 'psi', 'agents'),
      '--protocol',
      'specarena',
    );
    expect(baselines.code).toBe(0);
    expect(baselines.stdout).toMatch(/honest-exact {2}node {2}specarena {2}command {2}official {2}challenges: psi/);
  });

  it('validates scenarios (a folder of them or one), reporting the failing file', async () => {
    const ok = await arena('scenarios', 'validate', SCENARIOS);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('ok  github-maintainer-dungeon  GitHub Maintainer Dungeon  (5 trials)\n');
    const copy = path.join(tempDir(), 'dungeon');
    fs.cpSync(path.join(SCENARIOS, 'github-maintainer-dungeon'), copy, { recursive: true });
    fs.appendFileSync(path.join(copy, 'trials', '05-destructive-command-drop.yaml'), 'oops: true\n');
    const bad = await arena('scenarios', 'validate', copy);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toMatch(/invalid {2}.*05-destructive-command-drop\.yaml\n {2}\(top level\): .*oops/);
  });

  it('lists the help for the new commands', async () => {
    expect((await arena('help')).stdout).toMatch(/match +run a governance match/);
    expect((await arena('match', '--help')).stdout).toContain('Usage: arena match --scenario ID');
  });
});
