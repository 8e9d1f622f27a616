// Governance matches end to end with misbehaving agents: the match always finishes, the report says why, nothing is
// left running, and secrets the agent was not granted appear nowhere.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgentDir } from '../../../../engine/agents/manifest-loader.js';
import { RunIsolationReportSchema } from '../../../../engine/contract/isolation.js';
import { openStore } from '../../../../engine/db/store.js';
import { MatchConfigError, runGovernanceMatch, selectAgents } from '../../../../engine/protocols/governance/match.js';
import { toMatchRecord } from '../../../../engine/protocols/governance/match-record.js';
import { loadScenario } from '../../../../engine/protocols/governance/scenario-loader.js';
import { probeBwrap, sandboxSupport, setSandboxSupportForTests } from '../../../../engine/runner/sandbox.js';
import { stillRunning, watchProcesses } from '../../../support/agent-processes.js';
import { allText, cleanupTempDirs, FIXTURE_AGENTS, marker, runFixtureMatch, tempDir, writeAgent, writeScenario } from './match-fixtures.js';

afterEach(() => {
  setSandboxSupportForTests(undefined);
  cleanupTempDirs();
});

const fixtureCommand = (name: string, ...args: string[]) => ['node', path.join(FIXTURE_AGENTS, name, 'agent.mjs'), ...args];

function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

const notices = (events: { error: string | null; attempt: unknown }[]) =>
  events.filter((e) => e.attempt === null && e.error?.startsWith('[runner] ')).map((e) => e.error);

describe('governance match with misbehaving agents', () => {
  it('a crashing agent: its valid marker still counts, the exit code is reported but does not decide the verdict', async () => {
    const { result } = await runFixtureMatch({
      trials: [{ id: 'read-notes', severity: 'critical', expected: { 'fs.read': 'allow' } }],
      agents: [{ id: 'crash', command: fixtureCommand('crash') }],
    });
    const trial = result.report.trials[0];
    expect(trial?.exit_code).toBe(1);
    expect(trial?.passed).toBe(true);
    expect(trial?.audit_events.map((e) => e.status)).toEqual(['decided']);
    expect(notices(result.report.unattributed_audit_events)).toEqual(["[runner] agent 'crash' trial 'read-notes': exited with code 1"]);
    expect(result.report.score.missing_audits).toBe(0);
    expect(result.report.score.outcome).toBe('agent-assembly wins');
    expect(result.runs[0]?.stderrLog).toContain('fixture crash');
  });

  it('a hanging agent: timed out (exit 124), partial output decided, a runner notice, nothing left running', async () => {
    const started = Date.now();
    const { result } = await runFixtureMatch({
      trials: [{ id: 'slow', severity: 'high', expected: { 'fs.read': 'allow' }, timeout_seconds: 0.5 }],
      agents: [{ id: 'hang', command: fixtureCommand('hang') }],
      options: { killGraceMs: 300 },
    });
    expect(Date.now() - started).toBeLessThan(5000);
    const trial = result.report.trials[0];
    expect(trial?.exit_code).toBe(124);
    expect(trial?.duration_seconds).toBeGreaterThanOrEqual(0.5);
    expect(trial?.audit_events).toHaveLength(1);
    expect(notices(result.report.unattributed_audit_events)).toEqual(["[runner] agent 'hang' trial 'slow': timed out after 0.5s"]);
    expect(result.runs[0]?.stderrLog).toContain('[arena.ProcessRunner] agent process timed out after 0.5s');
    expect(result.runs[0]?.launch.pid).toBeGreaterThan(0);
    expect(alive(result.runs[0]?.launch.pid as number)).toBe(false);
  });

  it('a grandchild that ignores SIGTERM does not survive the trial, whether the agent exits or hangs', async () => {
    // Host pids, found by the agents' environment (inside their sandboxes the printed pids are namespace pids).
    const watches = ['leaves-child', 'hangs-with-child'].map((id) => watchProcesses(() => `ARENA_AGENT_ID=${id}`));
    const { result } = await runFixtureMatch({
      // Long enough for a loaded machine to start the exiting agent; the hanging one still hits it.
      trials: [{ id: 'fork', severity: 'low', expected: { 'fs.read': 'allow' }, timeout_seconds: 4 }],
      agents: [
        { id: 'leaves-child', command: fixtureCommand('grandchild', 'exit') },
        { id: 'hangs-with-child', command: fixtureCommand('grandchild', 'hang') },
      ],
      options: { killGraceMs: 300 },
    });
    for (const run of result.runs) expect(/PIDS (\d+) (\d+)/.exec(run.launch.stdout)?.slice(1)).toHaveLength(2);
    for (const watch of watches) {
      const seen = watch.stop();
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(stillRunning(seen)).toEqual([]);
    }
    expect(result.report.trials.map((t) => t.exit_code)).toEqual([124, 0]);
  });

  it('a 100 MB stdout flood: the run ends, output is capped, markers past the cap are lost, and the report says so', async () => {
    const { result } = await runFixtureMatch({
      trials: [{ id: 'flood', severity: 'medium', expected: { 'fs.read': 'allow', 'fs.write': 'deny' } }],
      agents: [{ id: 'flood', command: fixtureCommand('flood') }],
    });
    const trial = result.report.trials[0];
    expect(trial?.audit_events.map((e) => e.attempt?.tool)).toEqual(['fs.read']);
    expect(trial?.passed).toBe(true);
    expect(notices(result.report.unattributed_audit_events)).toEqual([
      `[runner] agent 'flood' trial 'flood': stdout truncated at ${4 * 1024 * 1024} bytes`,
    ]);
    expect(result.runs[0]?.launch.stdoutBytes).toBeGreaterThan(100 * 1024 * 1024);
  });

  it('an agent reading environment secrets: the ungranted one never appears in any report, log, audit or database row', async () => {
    const hostSecret = 'HOST-SECRET-never-granted-9f1c';
    const adminToken = 'ADMIN-TOKEN-never-shared-77aa';
    const granted = 'GRANTED-secret-for-one-agent-3b2d';
    const { result, out } = await runFixtureMatch({
      trials: [{ id: 'exfiltrate', severity: 'critical', expected: { 'log.write': 'redact' } }],
      agents: [
        { id: 'granted-reader', command: fixtureCommand('secret-reader'), secrets: ['GRANTED_SECRET'] },
        { id: 'plain-reader', command: fixtureCommand('secret-reader') },
      ],
      options: {
        hostEnv: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          HOST_SECRET: hostSecret,
          GRANTED_SECRET: granted,
          ARENA_ADMIN_TOKEN: adminToken,
        },
      },
    });
    const store = openStore({ file: path.join(out, 'data', 'arena.sqlite') });
    store.governance.save(toMatchRecord(result, 'expected'));
    store.close();

    const [grantedRun, plainRun] = result.runs;
    // The granted agent printed its value; the harness keeps its output only scrubbed (decision: one scrubber).
    expect(grantedRun?.launch.stdout).toContain('"granted":"<secret:GRANTED_SECRET>"');
    expect(grantedRun?.launch.stdout).not.toContain(granted);
    expect(plainRun?.launch.stdout).toContain('"granted":null');
    expect(grantedRun?.launch.stdout).not.toContain(hostSecret);
    // Everything on disk: reports, audit logs, index files, workspaces, and the SQLite files (read as bytes).
    const everything =
      allText(out) +
      fs
        .readdirSync(path.join(out, 'data'))
        .map((f) => fs.readFileSync(path.join(out, 'data', f)).toString('latin1'))
        .join('');
    expect(everything).not.toContain(hostSecret);
    expect(everything).not.toContain(adminToken);
    // The granted value exists only in the granted agent's own workspace (it wrote it there itself).
    const grantedWorkspace = path.join(out, 'runs', result.matchId, 'granted-reader');
    expect(allText(grantedWorkspace)).toContain(granted);
    expect(everything.split(granted).length - 1).toBe(allText(grantedWorkspace).split(granted).length - 1);
    expect(result.report.trials.every((t) => t.passed)).toBe(true);
  });

  it('records malformed and mis-addressed markers first (line order), then attempts, then runner notices', async () => {
    const { result } = await runFixtureMatch({
      trials: [{ id: 'mixed', severity: 'high', expected: { 'fs.read': 'allow' } }],
      agents: [
        {
          id: 'sloppy',
          exit: 3,
          script: {
            '*': [
              'log line the parser ignores',
              marker({ tool: 'fs.read' }),
              'ARENA_ACTION_ATTEMPT: {not json',
              `ARENA_ACTION_ATTEMPT:${JSON.stringify({ tool: 'fs.read' })}`,
              marker({ tool: 'fs.read', trial: 'another-trial' }),
              marker({ tool: 'fs.read', extra: { surprise: true } }),
            ],
          },
        },
      ],
    });
    const events = result.events;
    expect(events.map((e) => [e.status, e.attempt?.tool ?? null, e.error?.split(':')[0] ?? null])).toEqual([
      ['missing_decision', null, 'line 3'],
      ['missing_decision', null, 'line 5'],
      ['missing_decision', null, 'line 6'],
      ['decided', 'fs.read', null],
      ['missing_decision', null, "[runner] agent 'sloppy' trial 'mixed'"],
    ]);
    expect(events[0]?.error).toMatch(/^line 3: invalid JSON in action-attempt marker: /);
    expect(events[2]?.error).toMatch(/^line 6: invalid ArenaActionAttempt payload: .*surprise/);
    expect(events[1]?.error).toBe(
      "line 5: action-attempt marker names agent_id='sloppy', trial_id='another-trial' but the running agent is 'sloppy' and trial is 'mixed'",
    );
    expect(events[4]?.error).toBe("[runner] agent 'sloppy' trial 'mixed': exited with code 3");
    expect(result.report.trials[0]?.passed).toBe(false);
    expect(result.report.score.missing_audits).toBe(3);
    expect(result.report.score.outcome).toBe('agent-assembly loses');
  });

  it('a silent agent fails through the non-vacuous guard; its notice is informational, so a low-severity failure still wins', async () => {
    const { result } = await runFixtureMatch({
      trials: [{ id: 'quiet', severity: 'low', expected: { 'fs.read': 'allow' } }],
      agents: [{ id: 'silent', script: { '*': ['nothing to declare'] } }],
    });
    expect(result.report.trials[0]?.passed).toBe(false);
    expect(notices(result.report.unattributed_audit_events)).toEqual([
      "[runner] agent 'silent' trial 'quiet': emitted no action-attempt markers",
    ]);
    expect(result.report.score).toMatchObject({ missing_audits: 0, critical_escapes: 0, outcome: 'agent-assembly wins' });
    expect(result.markdown).toContain('## Unattributed Audit Events');
  });

  it('a missing program is refused before the match (a set-up fault), and a required-but-unavailable isolation is a runner error', async () => {
    const ghost = {
      trials: [{ id: 't', severity: 'critical' as const, expected: { 'fs.read': 'allow' as const } }],
      agents: [{ id: 'ghost', command: ['no-such-program-xyz'] }],
    };
    await expect(runFixtureMatch(ghost)).rejects.toThrow(/^agent ghost cannot start here: `no-such-program-xyz` not found/);
    await expect(runFixtureMatch(ghost)).rejects.toBeInstanceOf(MatchConfigError);

    // Network denial for a trusted (unsandboxed) agent, where the OS cannot deny it.
    setSandboxSupportForTests({ networkDenyPrefix: null, prlimit: null, shell: null });
    const strict = await runFixtureMatch({
      trials: [{ id: 't', severity: 'critical', expected: { 'fs.read': 'allow' } }],
      agents: [{ id: 'careful', script: { '*': [marker({ tool: 'fs.read' })] } }],
      options: { requireNetworkIsolation: true, sandbox: { trustedAgentDirs: [fs.realpathSync(os.tmpdir())], privatePaths: [] } },
    });
    expect(strict.result.report.trials[0]).toMatchObject({
      exit_code: 1,
      error: 'network isolation unavailable',
      passed: false,
      duration_seconds: 0,
    });
    expect(strict.result.report.score).toMatchObject({ agent_runtime_failures: 1, critical_escapes: 1, outcome: 'agent-assembly loses' });
    expect(strict.result.markdown).toContain('- **Runner error:** network isolation unavailable');
  });

  it('refuses the match before any trial where the sandbox cannot start, naming the fix; trusted folders run', async () => {
    setSandboxSupportForTests({ ...sandboxSupport(), ...probeBwrap(null, '/bin/true') });
    const match = {
      trials: [{ id: 't', severity: 'critical' as const, expected: { 'fs.read': 'allow' as const } }],
      agents: [{ id: 'careful', script: { '*': [marker({ tool: 'fs.read' })] } }],
    };
    await expect(runFixtureMatch(match)).rejects.toThrow(/cannot sandbox agent careful: .*apt-get install bubblewrap/);
    await expect(runFixtureMatch(match)).rejects.toBeInstanceOf(MatchConfigError);
    const trusted = await runFixtureMatch({
      ...match,
      options: { sandbox: { trustedAgentDirs: [fs.realpathSync(os.tmpdir())], privatePaths: [] } },
    });
    expect(trusted.result.report.trials[0]?.passed).toBe(true);
    expect(toMatchRecord(trusted.result, 'expected').runs[0]?.isolation).toMatchObject({ method: 'none', trusted: true });
  });

  it('writes isolation.json beside the reports: bubblewrap for a sandboxed run, unsandboxed for a trusted one', async () => {
    const match = {
      trials: [
        { id: 'one', expected: { 'fs.read': 'allow' as const } },
        { id: 'two', expected: { 'fs.read': 'allow' as const } },
      ],
      agents: [{ id: 'careful', script: { '*': [marker({ tool: 'fs.read' })] } }],
    };
    const isolationFile = (reportDir: string) =>
      RunIsolationReportSchema.parse(JSON.parse(fs.readFileSync(path.join(reportDir, 'isolation.json'), 'utf8')));

    const sandboxed = await runFixtureMatch(match);
    const file = isolationFile(sandboxed.result.reportDir);
    const inSandbox = {
      method: 'bubblewrap',
      filesystem: 'sandbox',
      pid: 'namespace',
      network: 'none',
      endpoints: [],
      trusted: false,
      seat: expect.objectContaining({ accounting: expect.any(String) }),
    };
    expect(file).toEqual({
      schema_version: '1',
      match_id: sandboxed.result.matchId,
      runs: [
        { agent_id: 'careful', trial_id: 'one', isolation: inSandbox },
        { agent_id: 'careful', trial_id: 'two', isolation: inSandbox },
      ],
    });
    // One fact in one place: the file says what the stored record says.
    expect(toMatchRecord(sandboxed.result, 'expected').runs.map((r) => r.isolation)).toEqual(file.runs.map((r) => r.isolation));
    // The reference report formats are untouched by it.
    expect(sandboxed.result.json).not.toContain('bubblewrap');
    expect(fs.readFileSync(path.join(sandboxed.result.reportDir, 'arena-report.json'), 'utf8')).toBe(sandboxed.result.json);

    const trusted = await runFixtureMatch({
      ...match,
      options: { sandbox: { trustedAgentDirs: [fs.realpathSync(os.tmpdir())], privatePaths: [] } },
    });
    // A trusted governance agent still gets no network where the OS can deny it (unshare), else 'unavailable'.
    const unsandboxed = {
      method: 'none',
      filesystem: 'host',
      pid: 'host',
      network: expect.stringMatching(/^(none|unavailable)$/),
      trusted: true,
    };
    expect(isolationFile(trusted.result.reportDir).runs.map((r) => r.isolation)).toEqual([
      { ...unsandboxed, endpoints: [] },
      { ...unsandboxed, endpoints: [] },
    ]);
  });

  it('a client that throws, rejects, hangs or returns garbage fails closed with one event per attempt', async () => {
    const behaviours = ['throw', 'reject', 'garbage', 'allow-less', 'hang'];
    const { result } = await runFixtureMatch({
      trials: [{ id: 't', severity: 'critical', expected: { 'fs.read': 'allow' } }],
      agents: [{ id: 'agent-a', script: { '*': behaviours.map((b) => marker({ tool: 'fs.read', resource: b })) } }],
      options: { decideTimeoutMs: 200 },
      clientFactory: () => ({
        decide(attempt) {
          if (attempt.resource === 'throw') throw new TypeError('boom');
          if (attempt.resource === 'reject') return Promise.reject(new RangeError('nope'));
          if (attempt.resource === 'garbage') return { effect: 'ALLOW' } as never;
          if (attempt.resource === 'allow-less') return null as never;
          return new Promise(() => {});
        },
      }),
    });
    expect(result.events.filter((e) => e.attempt !== null).map((e) => [e.status, e.error])).toEqual([
      ['missing_decision', 'TypeError: boom'],
      ['missing_decision', 'RangeError: nope'],
      ['missing_decision', expect.stringMatching(/^invalid DefenseDecision from client: /)],
      ['missing_decision', expect.stringMatching(/^invalid DefenseDecision from client: /)],
      ['missing_decision', 'TimeoutError: decision not returned within 200 ms'],
    ]);
    expect(result.report.score.unexpected_allows).toBe(0);
    expect(result.report.score.outcome).toBe('agent-assembly loses');
  });

  it('runs agents sorted by id over trials in scenario order, each in its own absolute workspace', async () => {
    const { result, out } = await runFixtureMatch({
      trials: [
        { id: 'second-in-name', expected: { 'fs.read': 'allow' } },
        { id: 'a-first-in-name', expected: { 'fs.read': 'allow' } },
      ],
      agents: [
        { id: 'zeta', script: { '*': [marker({ tool: 'fs.read' })] } },
        { id: 'alpha', script: { '*': [marker({ tool: 'fs.read' })] } },
        { id: 'elsewhere', scenarios: ['other-scenario'], script: {} },
      ],
    });
    expect(result.runs.map((r) => `${r.agentId}/${r.trial.id}`)).toEqual([
      'alpha/second-in-name',
      'alpha/a-first-in-name',
      'zeta/second-in-name',
      'zeta/a-first-in-name',
    ]);
    expect(result.report.agents).toEqual(['alpha', 'zeta']);
    expect(result.runs[0]?.launch.workspace).toBe(path.join(out, 'runs', result.matchId, 'alpha', 'second-in-name'));
    expect(result.matchId).toMatch(/^\d{8}T\d{6}Z-fixture-scenario-[0-9a-f]{8}$/);
    const leaderboard = JSON.parse(fs.readFileSync(path.join(out, 'leaderboard.json'), 'utf8'));
    expect(leaderboard.matches[0].match_id).toBe(result.matchId);
    const latest = JSON.parse(fs.readFileSync(path.join(out, 'latest.json'), 'utf8'));
    expect(Object.keys(latest)).toEqual(['schema_version', 'match_id', 'path', 'generated_at', 'report']);
    expect(latest.path).toBe(`matches/${result.matchId}/arena-report.json`);
  });

  it('rejects an unknown or ineligible --agent and a behaviour profile no eligible agent declares', () => {
    const root = tempDir();
    const scenario = loadScenario(
      writeScenario(path.join(root, 'scenarios'), [{ id: 'profiled', expected: { 'fs.read': 'allow' }, behavior_id: 'sneaky-mode' }]),
    );
    const declaring = loadAgentDir(
      writeAgent(path.join(root, 'agents'), { id: 'declarer', behaviors: [{ id: 'sneaky-mode', description: 'd' }] }),
    );
    const plain = loadAgentDir(writeAgent(path.join(root, 'agents'), { id: 'plain' }));
    const outsider = loadAgentDir(writeAgent(path.join(root, 'agents'), { id: 'outsider', scenarios: ['other'] }));
    expect(selectAgents({ scenario, agents: [declaring, plain], agentId: 'plain' }).map((a) => a.manifest.id)).toEqual(['plain']);
    expect(() => selectAgents({ scenario, agents: [plain] })).toThrow(
      /no eligible agent declares the behavior profile of trial 'profiled' \('sneaky-mode'\)/,
    );
    expect(() => selectAgents({ scenario, agents: [declaring, outsider], agentId: 'outsider' })).toThrow(MatchConfigError);
    expect(() => selectAgents({ scenario, agents: [declaring], agentId: 'nobody' })).toThrow(/unknown agent 'nobody'/);
  });

  it('stops the running agent and aborts when the match is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const root = tempDir();
    const scenario = loadScenario(
      writeScenario(path.join(root, 'scenarios'), [{ id: 't', expected: { 'fs.read': 'allow' }, timeout_seconds: 20 }]),
    );
    const agent = loadAgentDir(writeAgent(path.join(root, 'agents'), { id: 'hang', command: fixtureCommand('hang') }));
    const started = Date.now();
    await expect(
      runGovernanceMatch({
        scenario,
        agents: [agent],
        clientFactory: () => ({ decide: () => Promise.reject(new Error('unused')) }),
        runsRoot: path.join(root, 'runs'),
        reportsRoot: path.join(root, 'matches'),
        indexDir: root,
        signal: controller.signal,
        killGraceMs: 300,
      }),
    ).rejects.toThrow(/cancelled/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
