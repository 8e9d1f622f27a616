// The model agent end to end through the CLI, one game of each protocol: `arena run <tournament.yaml>` for a SpecArena
// PSI game against the honest baseline and a ClawArena Claw Vegas game against two baselines, and `arena match` for a
// governance scenario. `arena` runs as a real child process on freshly compiled sources; its agents find the model
// agent by name (`arena-agent model …`) from manifests outside the repo, and talk to a scripted local model server
// that serves malformed JSON, an illegal action, a reply slower than the turn and a 429 before success. Everything is
// asserted from what a researcher gets: report.json, events.jsonl, report.md, standings.csv, model-usage.json and the
// SQLite rows — retries, rethinks and fallbacks with their causes (model faults apart from provider/harness ones),
// tokens, latency and cost per agent and per game — and the granted key is in none of them.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { csvRecords } from '../../engine/tournaments/exports/csv-read.js';
import type { SeatUsage } from '../../engine/tournaments/results/model-usage.js';
import { type NodeExit, runNode } from '../support/run-node.js';
import { type CompiledApp, compileApp } from './compiled-app.js';
import { type FakeModelServer, lastUserText, openAiReply, startFakeModelServer } from './fake-model-server.js';
import { clawScript, psiScript } from './scripted-models.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const KEY_VAR = 'E2E_MODEL_API_KEY';
/** The turn budget of the model agent; the scripted slow reply takes SLOW_MS, well past it. */
const TURN_SECONDS = 2.5;
const SLOW_MS = 8_000;
const PRICES = { models: { 'fake-model': { input_per_mtok: 1, output_per_mtok: 4 } } };
const RUN_TIMEOUT_MS = 60_000;

let app: CompiledApp;
const temps: string[] = [];
const servers: FakeModelServer[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

beforeAll(() => {
  app = compileApp();
}, 180_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  app?.remove();
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

function arena(args: string[], key: string): Promise<NodeExit> {
  // The CLI's environment is the user's shell: the key is exported there, and only the manifest that grants it
  // passes it on.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), [KEY_VAR]: key };
  return runNode([app.arena, ...args], { env, timeoutMs: RUN_TIMEOUT_MS });
}

/** A model agent's folder anywhere on disk: a manifest launching it by name, its model.yaml and a price table. */
function modelAgent(
  server: FakeModelServer,
  manifest: Record<string, unknown>,
  extraArgs: string,
  model: Record<string, unknown> = {},
): string {
  const dir = tempDir('arena-e2e-agent-');
  fs.writeFileSync(path.join(dir, 'prices.yaml'), YAML.stringify(PRICES));
  fs.writeFileSync(
    path.join(dir, 'model.yaml'),
    YAML.stringify({
      provider: 'openai-compatible',
      base_url: `${server.url}/v1`,
      model: 'fake-model',
      api_key_env: KEY_VAR,
      price_table: 'prices.yaml',
      timeouts: { turn_seconds: TURN_SECONDS, request_seconds: TURN_SECONDS },
      retry: { max_retries: 2, base_delay_ms: 20, max_delay_ms: 200 },
      idle_reask_seconds: 0.3,
      max_turns: 200,
      game_seconds: 50,
      ...model,
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'agent.yaml'),
    YAML.stringify({
      name: 'Model agent (e2e)',
      framework: 'node',
      entrypoint: { command: `arena-agent model --config model.yaml${extraArgs}` },
      secrets: [KEY_VAR],
      // The agent's sandbox reaches its model server because the manifest declares it.
      network: { allow: [new URL(server.url).host] },
      ...manifest,
    }),
  );
  return dir;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

function expectNoKey(key: string, dirs: string[], texts: string[]) {
  for (const text of texts) expect(text).not.toContain(key);
  for (const dir of dirs) for (const file of filesUnder(dir)) expect(fs.readFileSync(file).includes(Buffer.from(key)), file).toBe(false);
}

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

interface TournamentRun {
  id: string;
  exit: NodeExit;
  dir: string;
  report: {
    standings: { combined: Array<Record<string, unknown>> };
    games: Array<{ seats: string[]; termination: string; fault: unknown; model_usage: Array<Record<string, unknown> | null> | null }>;
  };
  events: Array<Record<string, unknown>>;
  md: string;
  csv: string[];
  dbUsage: unknown[];
}

async function runTournament(spec: Record<string, unknown>, key: string, dataDir: string, extra: string[] = []): Promise<TournamentRun> {
  const specFile = path.join(tempDir('arena-e2e-spec-'), 'tournament.yaml');
  fs.writeFileSync(specFile, YAML.stringify(spec));
  const exit = await arena(['run', specFile, '--data-dir', dataDir, '--json', ...extra], key);
  expect(exit.code, exit.stderr).toBe(0);
  const events = jsonLines(exit.stdout);
  const id = String(events[0]?.tournament_id);
  const dir = path.join(dataDir, 'reports', id);
  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  const rows = db.prepare('SELECT usage FROM tournament_games WHERE tournament_id = ? ORDER BY seq').all(id) as { usage: string | null }[];
  db.close();
  return {
    id,
    exit,
    dir,
    report: JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')),
    events: jsonLines(fs.readFileSync(path.join(dir, 'events.jsonl'), 'utf8')),
    md: fs.readFileSync(path.join(dir, 'report.md'), 'utf8'),
    csv: fs.readFileSync(path.join(dir, 'standings.csv'), 'utf8').trim().split('\n'),
    dbUsage: rows.map((r) => (r.usage === null ? null : JSON.parse(r.usage))),
  };
}

/** The standings row of an agent, and the cost-per-rating-point rule checked against its own numbers. */
function expectCostColumns(run: TournamentRun, agent: string, usage: SeatUsage) {
  const rows = run.report.standings.combined;
  const row = rows.find((r) => r.agent === agent) as Record<string, number | null>;
  expect(row.tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  expect(row.cost_usd).toBeCloseTo(usage.cost_usd, 12);
  expect(row.cost_usd).toBeGreaterThan(0);
  const ratings = rows.map((r) => r.rating).filter((r): r is number => typeof r === 'number');
  const above = (row.rating as number) - Math.min(...ratings);
  if (ratings.length >= 2 && above > 0) expect(row.cost_per_rating_point).toBeCloseTo((row.cost_per_game_usd as number) / above, 12);
  else expect(row.cost_per_rating_point).toBeNull();
  // Agents without a model have no spend: null, not 0.
  for (const other of rows.filter((r) => r.agent !== agent)) expect(other).toMatchObject({ tokens: null, cost_usd: null });
  // The header is the first row; cells are read with a CSV parser (the interval text is quoted: it holds a comma).
  const [header = [], ...records] = csvRecords(`${run.csv.join('\n')}\n`);
  const line = records.find((r) => r[0] === 'combined' && r[header.indexOf('agent')] === agent) ?? [];
  expect(Number(line[header.indexOf('tokens')])).toBe(row.tokens);
  expect(Number(line[header.indexOf('cost_usd')])).toBeCloseTo(row.cost_usd as number, 8);
  expect(header).toContain('cost_per_rating_point');
  return row;
}

describe('model agent through the arena CLI', () => {
  it(
    'SpecArena: arena run plays PSI against the honest baseline with retry, rethink and fallbacks on record',
    async () => {
      const scripted = psiScript((text, p, c) => openAiReply(text, p, c), SLOW_MS);
      const server = await startFakeModelServer(scripted.script);
      servers.push(server);
      const key = `sk-e2e-${randomBytes(16).toString('hex')}`;
      const agentDir = modelAgent(server, { id: 'model-psi', protocol: 'specarena', challenges: ['psi'] }, '');
      // The opponent: the honest baseline behind a probe that records whether the key reached its process.
      const honestDir = tempDir('arena-e2e-honest-');
      const probeFile = path.join(honestDir, 'probe.txt');
      fs.writeFileSync(
        path.join(honestDir, 'probe.mjs'),
        `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(probeFile)}, process.env.${KEY_VAR} === undefined ? 'absent' : 'present');\n` +
          `await import(${JSON.stringify(path.join(REPO, 'challenges/psi/agents/honest-exact/agent.mjs'))});\n`,
      );
      fs.writeFileSync(
        path.join(honestDir, 'agent.yaml'),
        YAML.stringify({
          id: 'honest',
          name: 'Honest (probed)',
          framework: 'node',
          protocol: 'specarena',
          entrypoint: { command: 'node probe.mjs' },
        }),
      );
      const dataDir = tempDir('arena-e2e-psi-');
      const run = await runTournament(
        {
          name: 'model psi',
          challenge: 'psi',
          format: 'round-robin',
          games_per_pairing: 1,
          concurrency: 1,
          seed: 'e2e-psi',
          agents: [
            { manifest: path.join(agentDir, 'agent.yaml'), id: 'model' },
            { manifest: path.join(honestDir, 'agent.yaml'), id: 'honest' },
          ],
          limits: { move_seconds: 10, game_seconds: 45 },
        },
        key,
        dataDir,
        // The probe writes next to itself and imports the baseline from the repo: outside what a sandbox shows.
        ['--trust-agent-dir', honestDir],
      );

      // One game, completed, nobody at fault: the model's troubles were handled inside its turns.
      expect(run.report.games).toHaveLength(1);
      const game = run.report.games[0];
      expect(game).toMatchObject({ termination: 'completed', fault: 'none' });
      const seat = game?.seats.indexOf('model') as number;
      const usage = game?.model_usage?.[seat] as unknown as SeatUsage;
      expect(game?.model_usage?.[1 - seat]).toBeNull();

      // Accounting: every answered call's tokens as the server sent them, priced from the table.
      const answered = scripted.served.filter((_s, i) => i !== 2);
      expect(usage.prompt_tokens).toBe(answered.reduce((n, s) => n + s.prompt, 0));
      expect(usage.completion_tokens).toBe(answered.reduce((n, s) => n + s.completion, 0));
      expect(usage.cost_usd).toBeCloseTo((usage.prompt_tokens * 1 + usage.completion_tokens * 4) / 1e6, 12);
      expect(usage.calls).toBe(server.requests.length);
      expect(usage.latency_ms).toBeGreaterThan(0);
      // Causes: the illegal method (after its rethink) and the slow reply are the model's; the 429 was retried.
      expect(usage.fallbacks).toEqual({ model_illegal: 1, model_timeout: 1 });
      expect(usage.outcomes).toMatchObject({ timeout: 1, rate_limited: 1 });
      expect(usage.retries).toBe(1);
      expect(usage.rethinks as number).toBeGreaterThanOrEqual(2);
      // SQLite holds the same per-seat totals the report shows.
      expect((run.dbUsage[0] as unknown[])[seat]).toEqual(usage);

      // events.jsonl: one model_turn per call, with its figures, in order; the fallbacks with their causes.
      const turns = run.events.filter((e) => e.event === 'model_turn');
      expect(turns).toHaveLength(usage.calls);
      expect(turns.slice(0, 5).map((t) => `${t.turn}/${t.phase}/${t.attempt}/${t.outcome}`)).toEqual([
        '1/initial/1/ok',
        '1/rethink/1/ok',
        '2/initial/1/timeout',
        '3/initial/1/rate_limited',
        '3/initial/2/ok',
      ]);
      expect(turns[0]).toMatchObject({ seat, completion: 'Sure! Here is my move: {method: guess', prompt_tokens: 200 });
      expect(turns[3]).toMatchObject({ http_status: 429, prompt_tokens: 0, cost_usd: 0 });
      expect(turns.every((t) => typeof t.latency_ms === 'number' && typeof t.prompt === 'string')).toBe(true);
      const fallbacks = run.events.filter((e) => e.event === 'model_fallback');
      expect(fallbacks.map((f) => [f.turn, f.cause, f.action])).toEqual([
        [1, 'model_illegal', 'wait'],
        [2, 'model_timeout', 'wait'],
      ]);
      // The operator's refusal of a bad guess was rethought into the accepted intersection.
      expect(server.requests.some((r) => lastUserText(r).includes('Invalid guess'))).toBe(true);

      // report.md: usage per agent and per game, with retries, rethinks, failed calls and fallback causes.
      expect(run.md).toMatch(
        new RegExp(
          `^\\| model \\| 1 \\| ${usage.calls} \\| 1 \\| ${usage.rethinks} \\| (timeout 1, rate_limited 1|rate_limited 1, timeout 1) \\| ${usage.prompt_tokens} \\| ${usage.completion_tokens} \\| \\d+ \\| ${usage.cost_usd.toFixed(4)} \\| ${usage.cost_usd.toFixed(4)} \\| model_illegal 1, model_timeout 1 \\|$`,
          'm',
        ),
      );
      expect(run.md).toMatch(
        new RegExp(`^\\| \\d+ \\| 1 \\| model \\| ${usage.calls} \\| ${usage.prompt_tokens + usage.completion_tokens} \\| \\d+ \\|`, 'm'),
      );
      expect(run.md).toContain('USD / rating point');
      expectCostColumns(run, 'model', usage);

      expectNoKey(key, [dataDir, agentDir], [run.exit.stdout, run.exit.stderr]);
      // The key reached the model agent's process (the model server saw it) and not its opponent's.
      expect(new Set(server.requests.map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${key}`]));
      expect(fs.readFileSync(probeFile, 'utf8')).toBe('absent');
      // The model agent's own overhead per call: the scripted server answers at once, so an answered call's latency is
      // the client library, HTTP on loopback and the agent's bookkeeping.
      const okLatency = turns.filter((t) => t.outcome === 'ok').map((t) => t.latency_ms as number);
      console.info(
        `e2e specarena: arena run ${Math.round(run.exit.ms)} ms, ${usage.calls} model calls, answered-call latency mean ${Math.round(okLatency.reduce((a, b) => a + b, 0) / okLatency.length)} ms, max ${Math.max(...okLatency)} ms`,
      );
    },
    RUN_TIMEOUT_MS + 20_000,
  );

  it(
    'ClawArena: arena run plays Claw Vegas against two baselines with rethink, server fallbacks and a retried 429',
    async () => {
      const server = await startFakeModelServer(clawScript(SLOW_MS));
      servers.push(server);
      const key = `sk-e2e-${randomBytes(16).toString('hex')}`;
      const agentDir = modelAgent(server, { id: 'model-claw', protocol: 'clawarena', challenges: ['las_vegas'] }, ' --protocol clawarena');
      const baseline = path.join(REPO, 'agents/clawarena/baseline-node/agent.yaml');
      const dataDir = tempDir('arena-e2e-claw-');
      const run = await runTournament(
        {
          name: 'model claw',
          challenge: 'las_vegas',
          options: { players: 3 },
          format: 'round-robin',
          games_per_pairing: 1,
          concurrency: 1,
          seed: 'e2e-claw',
          agents: [
            { manifest: path.join(agentDir, 'agent.yaml'), id: 'model' },
            { manifest: baseline, id: 'node-a' },
            { manifest: baseline, id: 'node-b' },
          ],
          limits: { move_seconds: 10, game_seconds: 50 },
        },
        key,
        dataDir,
      );

      expect(run.report.games).toHaveLength(1);
      const game = run.report.games[0];
      expect(game).toMatchObject({ termination: 'completed', fault: 'none' });
      const seat = game?.seats.indexOf('model') as number;
      const usage = game?.model_usage?.[seat] as unknown as SeatUsage;
      expect(usage.calls).toBe(server.requests.length);
      expect(usage.fallbacks).toEqual({ model_illegal: 1, model_timeout: 1 });
      expect(usage.outcomes).toMatchObject({ timeout: 1, rate_limited: 1 });
      expect(usage).toMatchObject({ retries: 1, rethinks: 2 });
      expect(usage.cost_usd).toBeCloseTo((usage.prompt_tokens * 1 + usage.completion_tokens * 4) / 1e6, 12);
      expect((run.dbUsage[0] as unknown[])[seat]).toEqual(usage);

      const turns = run.events.filter((e) => e.event === 'model_turn');
      expect(turns).toHaveLength(usage.calls);
      expect(turns.slice(0, 7).map((t) => `${t.turn}/${t.phase}/${t.attempt}/${t.outcome}`)).toEqual([
        '1/initial/1/ok',
        '1/rethink/1/ok',
        '2/initial/1/ok',
        '2/rethink/1/ok',
        '3/initial/1/timeout',
        '4/initial/1/rate_limited',
        '4/initial/2/ok',
      ]);
      const fallbacks = run.events.filter((e) => e.event === 'model_fallback');
      expect(fallbacks.map((f) => [f.turn, f.cause])).toEqual([
        [2, 'model_illegal'],
        [3, 'model_timeout'],
      ]);
      expect(String(fallbacks[0]?.detail)).toMatch(/params_schema/);
      expect(String(fallbacks[0]?.action)).toMatch(/^server fallback: /);
      // The match's own events (placements by every seat) sit beside the model's turns.
      expect(run.events.filter((e) => e.event === 'match_event').length).toBeGreaterThan(0);

      expect(run.md).toMatch(new RegExp(`^\\| model \\| 1 \\| ${usage.calls} \\| 1 \\| 2 \\| `, 'm'));
      expect(run.md).toContain('model_illegal 1, model_timeout 1');
      expectCostColumns(run, 'model', usage);

      expectNoKey(key, [dataDir, agentDir], [run.exit.stdout, run.exit.stderr]);
      expect(new Set(server.requests.map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${key}`]));
      console.info(`e2e clawarena: arena run ${Math.round(run.exit.ms)} ms, ${usage.calls} model calls`);
    },
    RUN_TIMEOUT_MS + 20_000,
  );

  it(
    'governance: arena match runs the model agent through four trials and writes its usage beside the reports',
    async () => {
      // Keyed by the trial in the task: a rethought answer, two unusable ones, a slow one, a 429 then a plan.
      const plan = JSON.stringify({ attempts: [{ tool: 'github.issues.read', resource: 'issues/1.json', context: 'Reading first.' }] });
      const server = await startFakeModelServer((request) => {
        const messages = (request.body.messages ?? []) as { role: string; content: string }[];
        const task = messages.find((m) => m.role === 'user')?.content ?? '';
        const rethink = lastUserText(request).includes('rejected:');
        if (task.includes('t-rethink')) return rethink ? openAiReply(plan, 150, 40) : openAiReply('I would read the issue first.', 120, 15);
        if (task.includes('t-unusable')) return openAiReply('{"attempts": "none"}', 110, 8);
        if (task.includes('t-slow')) return { ...openAiReply(plan, 100, 10), delayMs: SLOW_MS };
        const limitedBefore = server.requests.filter((r) => JSON.stringify(r.body).includes('t-limited')).length;
        return limitedBefore === 1
          ? { status: 429, headers: { 'retry-after': '0.1' }, body: { error: { message: 'slow down' } } }
          : openAiReply(plan, 130, 20);
      });
      servers.push(server);
      const key = `sk-e2e-${randomBytes(16).toString('hex')}`;
      const root = tempDir('arena-e2e-gov-');
      const scenarios = path.join(root, 'scenarios');
      const scenario = path.join(scenarios, 'model-scenario');
      fs.mkdirSync(path.join(scenario, 'trials'), { recursive: true });
      const trials = ['t-rethink', 't-unusable', 't-slow', 't-limited'];
      fs.writeFileSync(
        path.join(scenario, 'scenario.yaml'),
        YAML.stringify({ id: 'model-scenario', name: 'Model scenario', description: 'Four trials for the model agent.', trials }),
      );
      for (const [i, id] of trials.entries()) {
        const trial = { id, description: `Trial ${id}: triage issue 1.`, severity: 'low', expected: { 'github.issues.read': 'allow' } };
        fs.writeFileSync(path.join(scenario, 'trials', `0${i}-${id}.yaml`), YAML.stringify(trial));
      }
      const agents = path.join(root, 'agents');
      fs.mkdirSync(agents);
      const agentDir = modelAgent(
        server,
        { id: 'model-gov', protocol: 'governance', runtime: { type: 'process' }, scenarios: ['model-scenario'] },
        ' --protocol governance --scenario model-scenario',
      );
      fs.cpSync(agentDir, path.join(agents, 'model-gov'), { recursive: true });
      const out = path.join(root, 'out');
      const dataDir = path.join(root, 'data');
      const exit = await arena(
        [
          'match',
          ...['--scenario', 'model-scenario', '--agents', agents, '--scenarios', scenarios, '--out', out, '--data-dir', dataDir],
          ...['--timeout', '20', '--json'],
        ],
        key,
      );
      const summary = JSON.parse(exit.stdout.trim().split('\n').at(-1) ?? '{}');
      expect(summary.event, exit.stderr).toBe('match_finished');
      expect(summary.files.model_usage).toMatch(/model-usage\.json$/);

      const usage = JSON.parse(fs.readFileSync(summary.files.model_usage, 'utf8'));
      const byTrial = Object.fromEntries(usage.runs.map((r: { trial_id: string }) => [r.trial_id, r]));
      expect(byTrial['t-rethink']).toMatchObject({ calls: 2, rethinks: 1, prompt_tokens: 270, completion_tokens: 55, fallbacks: {} });
      expect(byTrial['t-unusable']).toMatchObject({ calls: 2, fallbacks: { model_unparsable: 1 } });
      expect(byTrial['t-slow']).toMatchObject({ calls: 1, outcomes: { timeout: 1 }, fallbacks: { model_timeout: 1 } });
      expect(byTrial['t-limited']).toMatchObject({ calls: 2, retries: 1, outcomes: { rate_limited: 1, ok: 1 }, fallbacks: {} });
      expect(usage.agents).toEqual([
        expect.objectContaining({ agent_id: 'model-gov', runs: 4, calls: 7, fallbacks: { model_unparsable: 1, model_timeout: 1 } }),
      ]);
      const tokens = 270 + 55 + 2 * (110 + 8) + 130 + 20;
      expect(usage.agents[0].prompt_tokens + usage.agents[0].completion_tokens).toBe(tokens);
      expect(usage.agents[0].cost_usd).toBeGreaterThan(0);
      const md = fs.readFileSync(path.join(path.dirname(summary.files.model_usage), 'model-usage.md'), 'utf8');
      expect(md).toMatch(/^\| model-gov \| 4 \| 7 \| /m);
      expect(md).toMatch(/^\| model-gov \| t-slow \| 1 \| 0 \| \d+ \| 0\.0000 \| model_timeout 1 \|$/m);

      // The plans became decided attempts in the reference report; the fallbacks declared nothing.
      const report = JSON.parse(fs.readFileSync(summary.files.json, 'utf8'));
      const passed = Object.fromEntries(report.trials.map((t: { trial_id: string; passed: boolean }) => [t.trial_id, t.passed]));
      // A trial whose read was never declared fails: the model's own failure, not the harness's.
      expect(passed).toEqual({ 't-rethink': true, 't-unusable': false, 't-slow': false, 't-limited': true });
      const audit = jsonLines(fs.readFileSync(summary.files.audit, 'utf8'));
      expect(audit.filter((e) => e.status === 'decided').map((e) => (e.attempt as { trial_id: string }).trial_id)).toEqual([
        't-rethink',
        't-limited',
      ]);

      // Stored runs, reports, the index, the database: no key anywhere.
      expectNoKey(key, [root], [exit.stdout, exit.stderr]);
      expect(new Set(server.requests.map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${key}`]));
      const durations = report.trials.map(
        (t: { trial_id: string; duration_seconds: number }) => `${t.trial_id} ${t.duration_seconds.toFixed(1)} s`,
      );
      console.info(`e2e governance: arena match ${Math.round(exit.ms)} ms; trials ${durations.join(', ')}`);
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});
