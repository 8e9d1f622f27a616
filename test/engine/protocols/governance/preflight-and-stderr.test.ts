// Governance blame by cause, through `arena match` (the CLI entry in process; agents are real sandboxed processes,
// the decision service a real HTTP server on 127.0.0.1):
// - a decision service with nothing listening is refused before any agent runs (exit 2, naming 127.0.0.1:PORT);
// - a service that dies mid-match makes the match void, named as such in the report (not "agent-assembly loses"),
//   kept out of the leaderboard and the database;
// - an agent that exits 2 at once shows its stderr tail (control characters inert) in arena-report.json, .md and the
//   CLI output; an agent whose program is missing is refused naming it.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { main } from '../../../../engine/cli/index.js';
import { openStore } from '../../../../engine/db/store.js';
import { cleanupTempDirs, REPO_ROOT, tempDir } from './match-fixtures.js';

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTempDirs();
});

const EXAMPLES = path.join(REPO_ROOT, 'examples', 'agents');
const SCENARIOS = path.join(REPO_ROOT, 'scenarios');

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
    return { code: await main(argv), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

function matchArgs(out: string, agents: string, ...extra: string[]) {
  return [
    'match',
    ...['--scenario', 'github-maintainer-dungeon', '--agents', agents, '--scenarios', SCENARIOS],
    ...['--out', out, '--data-dir', path.join(out, 'data'), ...extra],
  ];
}

function storedMatches(out: string): number {
  const file = path.join(out, 'data', 'arena.sqlite');
  if (!fs.existsSync(file)) return 0;
  const store = openStore({ file });
  try {
    return store.governance.list().total;
  } finally {
    store.close();
  }
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One agent folder listing the real scenario, with the given command. */
function agentRoot(id: string, command: string[]): string {
  const root = tempDir();
  fs.mkdirSync(path.join(root, id));
  fs.writeFileSync(
    path.join(root, id, 'agent.yaml'),
    YAML.stringify({
      id,
      name: `Agent ${id}`,
      framework: 'other',
      entrypoint: { command },
      runtime: { type: 'process' },
      protocol: 'governance',
      scenarios: ['github-maintainer-dungeon'],
    }),
  );
  return root;
}

describe('arena match preflight', () => {
  it('refuses a decision service with nothing listening before any agent runs (exit 2, host:port named)', async () => {
    const port = await closedPort();
    const out = tempDir();
    const { code, stderr } = await arena(
      ...matchArgs(out, EXAMPLES, '--agent', 'maintainer-bot-node', '--client', `http:http://127.0.0.1:${port}/decide`),
    );
    expect(code).toBe(2);
    expect(stderr).toContain(`the decision service 127.0.0.1:${port}`);
    expect(stderr).toMatch(/did not answer \(ECONNREFUSED\); start it/);
    expect(fs.existsSync(path.join(out, 'matches'))).toBe(false);
    expect(storedMatches(out)).toBe(0);
  });

  it('refuses an agent whose program is not installed here, naming the program', async () => {
    const out = tempDir();
    const root = agentRoot('rubyist', ['ruby-not-installed-here', 'agent.rb']);
    const { code, stderr } = await arena(...matchArgs(out, root, '--agent', 'rubyist'));
    expect(code).toBe(2);
    expect(stderr).toContain('agent rubyist cannot start here: `ruby-not-installed-here` not found');
    expect(fs.existsSync(path.join(out, 'matches'))).toBe(false);
  });
});

describe('arena match blame by cause', () => {
  it('a decision service dying mid-match makes the match void, named as such, not a loss, not stored', async () => {
    let posts = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      posts++;
      req.on('end', () => {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ effect: 'deny', layer: 'service', reason: 'nope', severity: 'high' }));
        // Gone after its first decision: every later attempt finds nothing listening.
        server.close();
        server.closeAllConnections();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const out = tempDir();
    const { code, stderr } = await arena(
      ...matchArgs(out, EXAMPLES, '--agent', 'maintainer-bot-node', '--client', `http:http://127.0.0.1:${port}/decide`),
    );
    expect(posts).toBe(1);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`is void: the decision service 127\\.0\\.0\\.1:${port} stopped answering \\(10 attempt\\(s\\) undecided\\)`),
    );
    const [matchId] = fs.readdirSync(path.join(out, 'matches')).filter((f) => !f.endsWith('.json') && !f.endsWith('.md'));
    const dir = path.join(out, 'matches', matchId as string);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'arena-report.json'), 'utf8'));
    expect(report.client_unreachable).toMatchObject({ endpoint: `127.0.0.1:${port}`, missing_decisions: 10 });
    const md = fs.readFileSync(path.join(dir, 'arena-report.md'), 'utf8');
    expect(md).toContain(`**Result:** ⚠️ void: the decision service 127.0.0.1:${port} stopped answering`);
    expect(md).not.toContain('❌ agent-assembly loses');
    const leaderboard = JSON.parse(fs.readFileSync(path.join(out, 'leaderboard.json'), 'utf8'));
    expect(leaderboard.matches).toEqual([]);
    expect(storedMatches(out)).toBe(0);
  });

  it('an agent that exits 2 at once shows its stderr tail in the report, the Markdown and the CLI', async () => {
    const out = tempDir();
    // Python's own message for a script that is not there, then exit 2; plus an escape sequence to be made inert.
    const root = agentRoot('broken', [
      'node',
      '-e',
      "process.stderr.write(\"python3: can't open file '/agents/broken/main.py': [Errno 2] No such file or directory\\n\\u001b[2Jcleared\\n\"); process.exit(2)",
    ]);
    const { code, stdout } = await arena(...matchArgs(out, root, '--agent', 'broken', '--no-store'));
    expect(code).toBe(1);
    const [matchId] = fs.readdirSync(path.join(out, 'matches')).filter((f) => !f.includes('.'));
    const dir = path.join(out, 'matches', matchId as string);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'arena-report.json'), 'utf8'));
    expect(report.trials.length).toBeGreaterThan(0);
    for (const trial of report.trials) {
      expect(trial).toMatchObject({ exit_code: 2, passed: false });
      expect(trial.stderr_tail).toContain("can't open file '/agents/broken/main.py': [Errno 2]");
      expect(trial.stderr_tail).toContain('\\x1b[2Jcleared');
      expect(trial.stderr_tail).not.toContain('\u001b');
    }
    const md = fs.readFileSync(path.join(dir, 'arena-report.md'), 'utf8');
    expect(md).toContain('**Stderr (tail):**');
    expect(md).toContain("can't open file '/agents/broken/main.py'");
    expect(md).not.toContain('\u001b');
    expect(stdout).toContain("stderr| python3: can't open file '/agents/broken/main.py'");
    expect(stdout).not.toContain('\u001b');
  });
});
