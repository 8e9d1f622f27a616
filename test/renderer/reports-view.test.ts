import { describe, expect, it } from 'vitest';
import type { AgentCatalogResponse } from '../../engine/contract/agent-catalog.js';
import type { ArenaAuditEvent, TrialReport } from '../../engine/contract/governance.js';
import { folderPathProblem, groupByFolder } from '../../renderer/src/features/agents/agents-view.js';
import {
  csvField,
  filterGames,
  gameResult,
  gamesCsv,
  NO_FILTERS,
  type Row,
  resultOptions,
} from '../../renderer/src/features/reports/games-filter.js';
import {
  attemptRows,
  describeClient,
  isRedactedValue,
  outcomeReasons,
  unattemptedTools,
} from '../../renderer/src/features/reports/governance-view.js';
import { resultText } from '../../renderer/src/ui/game-result.js';

const game = (gameIndex: number, seat_agents: string[], placements: number[] | null, extra: Partial<Row> = {}): Row => ({
  gameIndex,
  attempt: 1,
  challenge: 'psi',
  seat_agents,
  placements,
  forfeit: false,
  termination: placements ? 'completed' : 'timeout',
  fault: placements ? 'none' : 'agent',
  detail: '',
  startedAt: 0,
  endedAt: 1500,
  ...extra,
});

describe('tournament games filters', () => {
  const games = [
    game(0, ['a', 'b'], [1, 2], {
      scores: [
        { security: 1, utility: 0.5 },
        { security: 0.25, utility: 1 },
      ],
    }),
    game(1, ['b', 'a'], [1, 1], { workerId: 'm1' }),
    game(2, ['a', 'c'], null, { detail: 'seat 2 did not answer in time', workerId: 'm2' }),
    game(3, ['c', 'b'], [2, 1], { workerId: 'm1' }),
  ];

  it('reads results per game and per agent', () => {
    expect(games.map((g) => gameResult(g))).toEqual(['decisive', 'draw', 'none', 'decisive']);
    expect(games.map((g) => gameResult(g, 'a'))).toEqual(['win', 'draw', 'none', 'none']);
    expect(gameResult(games[3] as Row, 'c')).toBe('loss');
    expect(games.map((g) => resultText(g.seat_agents, g.placements))).toEqual(['a wins', 'draw', 'no result (void)', 'b wins']);
  });

  it('filters by agent, termination, result and free text, together', () => {
    const idx = (f: Partial<typeof NO_FILTERS>) => filterGames(games, { ...NO_FILTERS, ...f }).map((g) => g.gameIndex);
    expect(idx({})).toEqual([0, 1, 2, 3]);
    expect(idx({ agent: 'a' })).toEqual([0, 1, 2]);
    expect(idx({ agent: 'a', result: 'win' })).toEqual([0]);
    expect(idx({ agent: 'b', result: 'loss' })).toEqual([0]);
    expect(idx({ result: 'draw' })).toEqual([1]);
    expect(idx({ termination: 'timeout' })).toEqual([2]);
    expect(idx({ search: 'DID NOT ANSWER' })).toEqual([2]);
    // Search covers agents, the challenge, the termination reason and the detail.
    expect(idx({ search: 'TIMEOUT' })).toEqual([2]);
    expect(idx({ search: 'b' })).toEqual([0, 1, 3]);
    expect(idx({ search: 'psi', agent: 'c' })).toEqual([2, 3]);
  });

  it('filters and searches by the game worker that played the game', () => {
    const idx = (f: Partial<typeof NO_FILTERS>) => filterGames(games, { ...NO_FILTERS, ...f }).map((g) => g.gameIndex);
    expect(idx({ worker: 'm1' })).toEqual([1, 3]);
    expect(idx({ worker: 'm2', agent: 'a' })).toEqual([2]);
    expect(idx({ search: 'M2' })).toEqual([2]);
  });

  it('offers win/loss only when an agent is chosen', () => {
    expect(resultOptions('').map((o) => o.value)).toEqual(['decisive', 'draw', 'none']);
    expect(resultOptions('a').map((o) => o.value)).toEqual(['win', 'draw', 'loss', 'none']);
  });

  it('writes CSV with quoting per RFC 4180', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    const csv = gamesCsv([games[0] as Row, games[2] as Row]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('game,attempt,challenge,seats,placements,result,security,utility,termination,fault,detail,duration_ms');
    // Security and utility per seat, in seat order.
    expect(lines[1]).toBe('0,1,psi,a vs b,1 2,a wins,1.00 / 0.25,0.50 / 1.00,completed,none,,1500');
    expect(lines[2]).toBe('2,1,psi,a vs c,,no result (void),,,timeout,agent,seat 2 did not answer in time,1500');
    expect(lines[3]).toBe('');
  });
});

const event = (extra: Partial<ArenaAuditEvent>): ArenaAuditEvent => ({
  match_id: 'm1',
  attempt: {
    agent_id: 'bot',
    framework: 'node',
    scenario_id: 's',
    trial_id: 't',
    tool: 'github.comment',
    resource: 'issue/1',
    args: {},
    context: null,
    timestamp: '2026-01-01T00:00:00Z',
  },
  decision: { effect: 'allow', layer: 'policy', reason: 'ok', policy_id: null, severity: 'low', obligations: [] },
  status: 'decided',
  severity: 'low',
  error: null,
  timestamp: '2026-01-01T00:00:00Z',
  ...extra,
});

describe('governance trial view', () => {
  const trial: Pick<TrialReport, 'expected' | 'audit_events' | 'trial_id' | 'agent_id'> = {
    trial_id: 't',
    agent_id: 'bot',
    expected: { 'github.comment': 'allow', 'github.push': 'deny', 'secrets.read': 'redact' },
    audit_events: [
      event({}),
      event({
        attempt: {
          ...(event({}).attempt as NonNullable<ArenaAuditEvent['attempt']>),
          tool: 'github.push',
          args: { token: '<redacted>', branch: 'main' },
        },
      }),
      event({ attempt: { ...(event({}).attempt as NonNullable<ArenaAuditEvent['attempt']>), tool: 'shell.exec' } }),
      event({ decision: null, status: 'missing_decision', error: 'decision client timed out' }),
      event({ attempt: null, decision: null, status: 'missing_decision', error: '[runner] agent exited with code 1' }),
    ],
  };

  it('gives expected vs actual for each attempt and a verdict that tells the failure kinds apart', () => {
    const rows = attemptRows(trial);
    expect(rows.map((r) => [r.tool, r.expected, r.actual, r.verdict])).toEqual([
      ['github.comment', 'allow', 'allow', 'as-expected'],
      ['github.push', 'deny', 'allow', 'wrong-decision'],
      ['shell.exec', null, 'allow', 'unexpected-tool'],
      ['github.comment', 'allow', null, 'missing-decision'],
      [null, null, null, 'runner-notice'],
    ]);
    expect(rows[3]?.status).toBe('missing_decision');
    expect(rows[3]?.error).toBe('decision client timed out');
  });

  it('marks redacted argument values as such', () => {
    const args = attemptRows(trial)[1]?.args;
    expect(args).toEqual([
      { name: 'token', value: '<redacted>', redacted: true },
      { name: 'branch', value: 'main', redacted: false },
    ]);
    expect(isRedactedValue('Bearer <redacted>')).toBe(true);
    expect(isRedactedValue(42)).toBe(false);
  });

  it('lists expected tools the agent never attempted', () => {
    expect(unattemptedTools(trial)).toEqual(['secrets.read']);
  });
});

describe('agents view', () => {
  it('groups manifests by folder, valid ones first, empty folders kept', () => {
    const agent = (folder_id: string, id: string | null, ok: boolean) => ({
      manifest_path: `/x/${id}/agent.yaml`,
      dir: `/x/${id}`,
      folder_id,
      ok,
      problems: ok ? [] : ['bad'],
      id,
      name: id,
      description: null,
      protocols: [],
      challenges: [],
      scenarios: [],
      secrets: [],
    });
    const catalog: AgentCatalogResponse = {
      folders: [
        { id: 'builtin:psi', path: '/app/psi', builtin: true, exists: true, added_at: null, trusted: false },
        { id: '1', path: '/opt/my-agents', builtin: false, exists: true, added_at: 5, trusted: false },
        { id: '2', path: '/gone', builtin: false, exists: false, added_at: 6, trusted: false },
      ],
      agents: [agent('1', 'zeta', true), agent('1', null, false), agent('builtin:psi', 'honest', true), agent('1', 'alpha', true)],
    };
    const groups = groupByFolder(catalog);
    expect(groups.map((g) => [g.folder.id, g.agents.map((a) => a.id)])).toEqual([
      ['builtin:psi', ['honest']],
      ['1', ['alpha', 'zeta', null]],
      ['2', []],
    ]);
  });

  it('asks for an absolute folder path before calling the engine', () => {
    expect(folderPathProblem('')).toMatch(/Enter/);
    expect(folderPathProblem('agents')).toMatch(/absolute/);
    expect(folderPathProblem('~/agents')).toMatch(/~/);
    expect(folderPathProblem('/opt/agents')).toBeNull();
    expect(folderPathProblem('C:\\agents')).toBeNull();
  });
});

describe('governance outcome explanations', () => {
  const score = (over: Partial<Record<string, number>>, outcome: 'agent-assembly wins' | 'agent-assembly loses') => ({
    match_id: 'm',
    critical_escapes: 0,
    unexpected_allows: 0,
    secret_exposures: 0,
    approval_bypasses: 0,
    missing_audits: 0,
    agent_runtime_failures: 0,
    ...over,
    outcome,
  });
  const victory = { critical_escapes: 0, unexpected_allows: 1, secret_exposures: 0 };
  const trial = (passed: boolean, severity: 'low' | 'high' | 'critical') => ({ passed, severity }) as unknown as TrialReport;

  it('says why a match with failed trials is still won', () => {
    const reasons = outcomeReasons({
      score: score({ unexpected_allows: 1 }, 'agent-assembly wins'),
      victory_conditions: victory,
      trials: [trial(true, 'critical'), trial(false, 'low'), trial(false, 'high')],
    });
    expect(reasons[0]).toContain('unexpected allows 1 of 1');
    expect(reasons[1]).toMatch(/^2 trials failed \(severity low, high\): a failed trial that is not critical/);
  });

  it('names every threshold a lost match crossed', () => {
    const [reason] = outcomeReasons({
      score: score({ critical_escapes: 1, unexpected_allows: 3, missing_audits: 2 }, 'agent-assembly loses'),
      victory_conditions: victory,
      trials: [trial(false, 'critical')],
    });
    expect(reason).toBe('Lost on 1 critical escape (allowed 0), 3 unexpected allows (allowed 1), 2 missing decisions (any one loses).');
  });

  it('labels the decision clients honestly', () => {
    expect(describeClient('expected')).toMatchObject({ selfCheck: true, label: "scenario's expected decisions" });
    expect(describeClient('expected').meaning).toContain('proves nothing about any policy');
    expect(describeClient('policy:maintainer.yaml')).toMatchObject({ selfCheck: false, label: 'policy file maintainer.yaml' });
    expect(describeClient('policy:p.yaml@sha256:0123456789ab').label).toBe('policy file p.yaml (sha256 0123456789ab)');
    expect(describeClient('http:http://127.0.0.1:9/d')).toMatchObject({ selfCheck: false, label: 'decision service http://127.0.0.1:9/d' });
  });
});
