// ClawArena games in tournaments: the example (liars_dice, baseline-node vs baseline-python) over real HTTP with real
// agent processes, seated by createMatch(); results, placements from the match result, match events in events.jsonl.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { engineForFile, ROOT } from './helpers.js';

const ctx = engineForFile();

const EXAMPLE = path.join(ROOT, 'examples/clawarena.tournament.yaml');

it('the ClawArena example plays four liars_dice games to completion and exports them', async () => {
  const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  const t = ctx.engine.tournaments.create(raw, path.dirname(EXAMPLE));
  expect(t.plannedGames).toBe(4);
  const started = Date.now();
  const outcome = await ctx.engine.tournaments.start(t.id);
  expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
  expect(Date.now() - started).toBeLessThan(50_000);

  const games = ctx.engine.store.tournaments.games(t.id);
  expect(games).toHaveLength(4);
  for (const g of games) {
    expect(g.challenge).toBe('liars_dice');
    expect(g.termination, g.detail).toBe('completed');
    expect(g.attempt).toBe(1);
    expect(g.scores).toBeNull();
    // One hand, one challenge: a winner and a loser.
    expect([...(g.placements ?? [])].sort()).toEqual([1, 2]);
    const matchId = Number(g.sessionId?.replace('clawarena:', ''));
    const match = ctx.engine.clawarena.match(matchId);
    expect(match?.status).toBe('finished');
    expect(match?.seats.map((s) => s.placement)).toEqual(g.placements);
  }
  // Seat-swapped pairs: each agent sat in seat 0 twice.
  expect(games.filter((g) => g.seats[0] === 0)).toHaveLength(2);

  const out = path.join(ctx.dir, 'reports', t.id);
  expect(fs.readdirSync(out).sort()).toEqual(['events.jsonl', 'games.csv', 'manifest.json', 'report.json', 'report.md', 'standings.csv']);
  const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  expect(report.games).toHaveLength(4);
  expect(report.manifest.placement_rule).toContain('ClawArena');
  expect(report.manifest.challenges[0].module_sha256).toMatch(/^[0-9a-f]{64}$/);
  const standings = JSON.stringify(report.standings);
  expect(standings).toContain('baseline-node');
  expect(standings).toContain('baseline-python');
  const events = fs
    .readFileSync(path.join(out, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(events.filter((e) => e.event === 'game_ended')).toHaveLength(4);
  const matchEvents = events.filter((e) => e.event === 'match_event');
  expect(matchEvents.some((e) => e.type === 'match_started')).toBe(true);
  expect(matchEvents.filter((e) => e.type === 'match_finished')).toHaveLength(4);
  expect(matchEvents.every((e) => typeof e.is_auto === 'boolean' && typeof e.event_seq === 'number')).toBe(true);
}, 60_000);

it('refuses SpecArena agents for a ClawArena game and ClawArena agents for a SpecArena challenge', () => {
  const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  const specAgent = path.join(ROOT, 'challenges/millionaire/agents/truthful/agent.yaml');
  expect(() =>
    ctx.engine.tournaments.validate({ ...raw, agents: [raw.agents[0], { manifest: specAgent, id: 'truthful' }] }, path.dirname(EXAMPLE)),
  ).toThrow(/protocol is 'specarena', these challenges need 'clawarena'/);
  expect(() => ctx.engine.tournaments.validate({ ...raw, challenge: 'millionaire' }, path.dirname(EXAMPLE))).toThrow(
    /protocol is 'clawarena', these challenges need 'specarena'/,
  );
});

/** A ClawArena agent folder in the temp data dir running `script` (plain Node, no client). */
function fakeAgent(name: string, script: string): string {
  const folder = path.join(ctx.dir, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'agent.mjs'), script);
  fs.writeFileSync(
    path.join(folder, 'agent.yaml'),
    `id: ${name}\nname: ${name}\nframework: node\nentrypoint:\n  command: ["node", "agent.mjs"]\nprotocol: clawarena\nchallenges: [liars_dice]\n`,
  );
  return path.join(folder, 'agent.yaml');
}

it('a crashing seat is agent_crash, a seat that never connects is agent_timeout; both are the agent’s fault', async () => {
  const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  const base = path.join(ROOT, 'agents/clawarena/baseline-node/agent.yaml');
  const crash = fakeAgent('crasher', 'process.stderr.write("boom\\n"); process.exit(3);\n');
  const crashed = ctx.engine.tournaments.create(
    {
      ...raw,
      games_per_pairing: 2,
      agents: [
        { manifest: base, id: 'node' },
        { manifest: crash, id: 'crasher' },
      ],
    },
    '/',
  );
  await ctx.engine.tournaments.start(crashed.id);
  const crashGames = ctx.engine.store.tournaments.games(crashed.id);
  expect(crashGames).toHaveLength(2);
  for (const g of crashGames) {
    expect(g.termination).toBe('agent_crash');
    expect(g.faultedSeats).toEqual([g.seats.indexOf(1)]);
    expect(g.detail).toContain('boom');
  }

  const silent = fakeAgent('silent', 'setTimeout(() => {}, 60_000);\n');
  const quiet = ctx.engine.tournaments.create(
    {
      ...raw,
      games_per_pairing: 2,
      limits: { move_seconds: 1, game_seconds: 20 },
      agents: [
        { manifest: base, id: 'node' },
        { manifest: silent, id: 'silent' },
      ],
    },
    '/',
  );
  // The start budget is at least 10 s; two games in parallel.
  await ctx.engine.tournaments.start(quiet.id);
  const quietGames = ctx.engine.store.tournaments.games(quiet.id);
  expect(quietGames).toHaveLength(2);
  for (const g of quietGames) {
    expect(g.termination).toBe('agent_timeout');
    expect(g.faultedSeats).toEqual([g.seats.indexOf(1)]);
  }
}, 40_000);

it('N-seat games: las_vegas with four agents seats all four through createMatch', async () => {
  const node = path.join(ROOT, 'agents/clawarena/baseline-node/agent.yaml');
  const python = path.join(ROOT, 'agents/clawarena/baseline-python/agent.yaml');
  const t = ctx.engine.tournaments.create(
    {
      name: 'vegas',
      challenge: 'las_vegas',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'vegas-1',
      agents: [
        { manifest: node, id: 'node-a' },
        { manifest: node, id: 'node-b' },
        { manifest: python, id: 'python-a' },
        { manifest: python, id: 'python-b' },
      ],
      limits: { move_seconds: 10, game_seconds: 40 },
    },
    '/',
  );
  const outcome = await ctx.engine.tournaments.start(t.id);
  expect(outcome.status).toBe('finished');
  const games = ctx.engine.store.tournaments.games(t.id);
  expect(games.length).toBeGreaterThan(0);
  for (const g of games) {
    expect(g.termination, g.detail).toBe('completed');
    expect(g.seats).toHaveLength(4);
    expect(g.placements).toHaveLength(4);
    expect(Math.min(...(g.placements ?? []))).toBe(1);
  }
}, 50_000);

it('model-agent accounting: usage lines on stderr become per-seat usage, standings totals and model_turn events', async () => {
  const baseline = path.join(ROOT, 'agents/clawarena/baseline-node/agent.mjs');
  const call = (turn: number, cost: number) =>
    `ARENA_MODEL_USAGE: ${JSON.stringify({ kind: 'call', v: 1, protocol: 'clawarena', turn, phase: 'initial', attempt: 1, provider: 'anthropic', model: 'fake', prompt_tokens: 100, completion_tokens: 20, latency_ms: 50, cost_usd: cost, priced: true, outcome: 'ok' })}`;
  const fallback = `ARENA_MODEL_USAGE: ${JSON.stringify({ kind: 'fallback', v: 1, protocol: 'clawarena', turn: 2, cause: 'model_illegal', detail: 'bad bid', action: 'challenge' })}`;
  const turn = `ARENA_MODEL_TURN: ${JSON.stringify({ v: 1, protocol: 'clawarena', turn: 1, phase: 'initial', attempt: 1, prompt: 'user: your move', completion: 'bid 2x3', truncated: false })}`;
  // A fake model agent: reports two calls, a fallback and one turn, then plays as the Node baseline.
  const priced = fakeAgent(
    'priced',
    `process.stderr.write(${JSON.stringify(`${call(1, 0.01)}\n${call(2, 0.02)}\n${fallback}\n${turn}\nordinary line\n`)});\n` +
      `process.argv.push('--matches', '1');\nawait import(${JSON.stringify(baseline)});\n`,
  );
  const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  const t = ctx.engine.tournaments.create(
    {
      ...raw,
      games_per_pairing: 2,
      agents: [
        { manifest: path.join(ROOT, 'agents/clawarena/baseline-python/agent.yaml'), id: 'python' },
        { manifest: priced, id: 'priced' },
      ],
    },
    '/',
  );
  expect((await ctx.engine.tournaments.start(t.id)).status).toBe('finished');
  const games = ctx.engine.store.tournaments.games(t.id);
  expect(games).toHaveLength(2);
  for (const g of games) {
    expect(g.termination, g.detail).toBe('completed');
    const seat = g.seats.indexOf(1);
    expect(g.usage?.[1 - seat]).toBeNull();
    expect(g.usage?.[seat]).toMatchObject({
      calls: 2,
      prompt_tokens: 200,
      completion_tokens: 40,
      latency_ms: 100,
      fallbacks: { model_illegal: 1 },
      invalid_lines: 0,
    });
  }
  const out = path.join(ctx.dir, 'reports', t.id);
  const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  const row = report.standings.combined.find((r: { agent: string }) => r.agent === 'priced');
  expect(row.model_usage).toMatchObject({ games: 2, calls: 4, prompt_tokens: 400, completion_tokens: 80 });
  expect(row.model_usage.cost_usd).toBeCloseTo(0.06);
  expect(row.model_usage.cost_per_game_usd).toBeCloseTo(0.03);
  expect(report.standings.combined.find((r: { agent: string }) => r.agent === 'python').model_usage).toBeNull();
  expect(report.games[0].model_usage).toHaveLength(2);
  const md = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
  expect(md).toContain('## Model usage');
  expect(md).toMatch(/\| priced \| 2 \| 4 \| 0 \| 0 \| — \| 400 \| 80 \| 50 \| 0\.0600 \| 0\.0300 \| model_illegal 2 \|/);
  // Per game: each game's seat with usage, with its tokens, mean latency and cost.
  expect(md.match(/^\| \d+ \| 1 \| priced \| 2 \| 240 \| 50 \| 0\.0300 \| model_illegal 1 \|$/gm)).toHaveLength(2);
  // Standings rows carry the spend; the baseline has none.
  expect(row).toMatchObject({ tokens: 480 });
  expect(row.cost_usd).toBeCloseTo(0.06);
  expect(row.cost_per_game_usd).toBeCloseTo(0.03);
  const python = report.standings.combined.find((r: { agent: string }) => r.agent === 'python');
  expect(python).toMatchObject({ tokens: null, cost_usd: null, cost_per_rating_point: null });
  const csv = fs.readFileSync(path.join(out, 'standings.csv'), 'utf8');
  // scope, rank, best and worst rank, agent, its name, games, …, tokens, cost, cost per game, cost per rating point.
  expect(csv).toMatch(/^combined,\d+,\d+,\d+,priced,[^,]*,2,.*,480,0\.06,0\.03,[^,]*$/m);
  const events = fs
    .readFileSync(path.join(out, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const turns = events.filter((e) => e.event === 'model_turn');
  expect(turns).toHaveLength(2);
  expect(turns[0]).toMatchObject({ turn: 1, phase: 'initial', prompt: 'user: your move', completion: 'bid 2x3' });
  // Two calls but one transcript line: the turns cannot be paired with calls, so they carry no per-call figures.
  expect(turns[0].outcome).toBeUndefined();
  const fallbacks = events.filter((e) => e.event === 'model_fallback');
  expect(fallbacks).toHaveLength(2);
  expect(fallbacks[0]).toMatchObject({ turn: 2, cause: 'model_illegal', detail: 'bad bid', action: 'challenge' });
  expect(typeof turns[0].seat).toBe('number');
}, 40_000);
