// Preflight and blame by cause, through the real CLI (`arena` as a child process on freshly compiled sources) with
// the model agent in its OS sandbox talking to a real local HTTP model server:
// - a model agent pointed at a closed port is refused before the first game (exit 2, naming 127.0.0.1:PORT), and so is
//   an agent whose command names a program this machine lacks (`ruby`); nothing is stored;
// - a model server that dies mid-run: the games it breaks are void (harness, never rated), the run pauses by itself
//   with a message naming the server and the fix, and once the server is back `--resume` finishes the run.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type CompiledApp, compileApp } from '../../model-agent/compiled-app.js';
import { type FakeModelServer, openAiReply, startFakeModelServer } from '../../model-agent/fake-model-server.js';
import { runNode } from '../../support/run-node.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const HONEST = path.join(REPO, 'challenges/psi/agents/honest-exact/agent.yaml');
const RUN_TIMEOUT_MS = 120_000;

let app: CompiledApp;
const temps: string[] = [];
const servers: FakeModelServer[] = [];
const children: ChildProcess[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const env = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir() });

beforeAll(() => {
  app = compileApp();
}, 180_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const s of servers) await s.close();
  app?.remove();
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A model agent's folder: the shipped model agent by name, its model.yaml pointing at `port`. */
function modelAgent(port: number, id = 'model'): string {
  const dir = tempDir('arena-preflight-model-');
  fs.writeFileSync(
    path.join(dir, 'model.yaml'),
    YAML.stringify({
      provider: 'openai-compatible',
      base_url: `http://127.0.0.1:${port}/v1`,
      model: 'fake-model',
      timeouts: { turn_seconds: 2, request_seconds: 2 },
      retry: { max_retries: 1, base_delay_ms: 20, max_delay_ms: 50 },
      idle_reask_seconds: 0.3,
      max_turns: 50,
      game_seconds: 30,
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'agent.yaml'),
    YAML.stringify({
      id,
      name: 'Model agent (preflight test)',
      framework: 'node',
      protocol: 'specarena',
      entrypoint: { command: 'arena-agent model --config model.yaml' },
      network: { allow: [`127.0.0.1:${port}`] },
    }),
  );
  return dir;
}

function specFile(agents: Array<{ manifest: string; id: string }>, games = 1): string {
  const file = path.join(tempDir('arena-preflight-spec-'), 'tournament.yaml');
  fs.writeFileSync(
    file,
    YAML.stringify({
      name: 'preflight',
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: games,
      concurrency: 1,
      seed: 'preflight-1',
      agents,
      limits: { move_seconds: 2, game_seconds: 20 },
    }),
  );
  return file;
}

function storedTournaments(dataDir: string): number {
  const file = path.join(dataDir, 'arena.sqlite');
  if (!fs.existsSync(file)) return 0;
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM tournaments').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('preflight before a run', () => {
  it('refuses a model agent whose server does not answer, naming host:port and the fix, before any game', async () => {
    const port = await closedPort();
    const dataDir = tempDir('arena-preflight-data-');
    const spec = specFile([
      { manifest: path.join(modelAgent(port), 'agent.yaml'), id: 'model' },
      { manifest: HONEST, id: 'honest' },
    ]);
    const exit = await runNode([app.arena, 'run', spec, '--data-dir', dataDir], { env: env(), timeoutMs: RUN_TIMEOUT_MS });
    expect(exit.code, exit.stderr).toBe(2);
    expect(exit.stderr).toContain(`127.0.0.1:${port}`);
    expect(exit.stderr).toMatch(/agent model: its model server 127\.0\.0\.1:\d+ did not answer \(ECONNREFUSED\); start it/);
    expect(storedTournaments(dataDir)).toBe(0);
  }, 150_000);

  it('refuses a model agent whose server does not serve the configured model', async () => {
    const server = await startFakeModelServer(() => openAiReply('{"wait": true}'), { models: ['other-model:latest'] });
    servers.push(server);
    const dataDir = tempDir('arena-preflight-data-');
    const spec = specFile([
      { manifest: path.join(modelAgent(Number(new URL(server.url).port)), 'agent.yaml'), id: 'model' },
      { manifest: HONEST, id: 'honest' },
    ]);
    const exit = await runNode([app.arena, 'run', spec, '--data-dir', dataDir], { env: env(), timeoutMs: RUN_TIMEOUT_MS });
    expect(exit.code, exit.stderr).toBe(2);
    expect(exit.stderr).toContain(`does not serve model "fake-model" (it lists "other-model:latest"); pull it`);
    expect(server.listings).toBe(1);
    expect(server.requests).toHaveLength(0);
  }, 150_000);

  it('refuses an agent whose program is not installed here, naming the program', async () => {
    const dir = tempDir('arena-preflight-ruby-');
    fs.writeFileSync(path.join(dir, 'agent.rb'), 'puts "hi"\n');
    fs.writeFileSync(
      path.join(dir, 'agent.yaml'),
      YAML.stringify({
        id: 'rubyist',
        name: 'Ruby agent',
        framework: 'other',
        protocol: 'specarena',
        entrypoint: { command: ['ruby', 'agent.rb'] },
      }),
    );
    const dataDir = tempDir('arena-preflight-data-');
    const spec = specFile([
      { manifest: path.join(dir, 'agent.yaml'), id: 'rubyist' },
      { manifest: HONEST, id: 'honest' },
    ]);
    // A PATH without Ruby, whatever this machine has installed.
    const noRuby = { ...env(), PATH: path.dirname(process.execPath) };
    const exit = await runNode([app.arena, 'run', spec, '--data-dir', dataDir], { env: noRuby, timeoutMs: RUN_TIMEOUT_MS });
    expect(exit.code, exit.stderr).toBe(2);
    expect(exit.stderr).toContain('agent rubyist cannot start here: `ruby` not found');
    expect(exit.stderr).toContain('change entrypoint.command');
    expect(storedTournaments(dataDir)).toBe(0);
  }, 150_000);
});

describe('blame by cause during a run', () => {
  it('a model server dying mid-run voids its games, pauses the run with the fix, and resume finishes it', async () => {
    // The models only ever wait: each game ends on a model's move clock (its own fault, rated) while the server answers.
    const waiting = () => openAiReply('{"wait": true}');
    const server = await startFakeModelServer(waiting);
    servers.push(server);
    const port = Number(new URL(server.url).port);
    const dataDir = tempDir('arena-preflight-data-');
    // Two model agents on the one server: every game needs it, and no scripted opponent's behaviour is involved.
    const spec = specFile(
      [
        { manifest: path.join(modelAgent(port, 'model-a'), 'agent.yaml'), id: 'model-a' },
        { manifest: path.join(modelAgent(port, 'model-b'), 'agent.yaml'), id: 'model-b' },
      ],
      4,
    );
    const child = spawn(process.execPath, [app.arena, 'run', spec, '--data-dir', dataDir, '--json'], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // The server goes away as soon as the first game has ended.
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (!killed && stdout.includes('"event":"game_ended"')) {
        killed = true;
        void server.close();
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, `${stderr}\n${stdout}`).toBe(1);
    const events = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const ended = events.filter((e) => e.event === 'game_ended');
    expect(ended[0]).toMatchObject({ termination: 'agent_timeout', replay: false });
    const voids = ended.slice(1);
    expect(voids.length).toBeGreaterThanOrEqual(2);
    for (const v of voids) expect(v).toMatchObject({ termination: 'harness_error', fault: 'harness', replay: true, faulted_seats: [] });
    const paused = events.at(-1) as Record<string, unknown>;
    expect(paused.event).toBe('paused');
    expect(String(paused.reason)).toContain(`could not reach its model server 127.0.0.1:${port}`);
    expect(String(paused.reason)).toContain("fix base_url in the agent's model.yaml");
    expect(stderr).toContain(`127.0.0.1:${port}`);
    expect(stderr).toContain('continue with: arena run --resume');

    const id = String(events[0]?.tournament_id);
    const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
    const rows = db
      .prepare('SELECT termination, fault, detail FROM tournament_games WHERE tournament_id = ? ORDER BY seq')
      .all(id) as Array<{
      termination: string;
      fault: string;
      detail: string;
    }>;
    const status = db.prepare('SELECT status, stop_reason FROM tournaments WHERE id = ?').get(id) as {
      status: string;
      stop_reason: string;
    };
    db.close();
    expect(status.status).toBe('paused');
    expect(status.stop_reason).toContain(`127.0.0.1:${port}`);
    // Exactly one rated game (before the server died); every later attempt is void with the endpoint in its detail.
    expect(rows.filter((r) => r.termination !== 'harness_error')).toHaveLength(1);
    for (const r of rows.slice(1)) expect(r.detail).toContain(`model server 127.0.0.1:${port}`);

    // Resume while the server is still down: refused by preflight, nothing played.
    const refused = await runNode([app.arena, 'run', '--resume', id, '--data-dir', dataDir], { env: env(), timeoutMs: RUN_TIMEOUT_MS });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`127.0.0.1:${port}`);

    // The server back on the same port: the run finishes, the void games replayed and rated, never the voids.
    const again = await startFakeModelServer(waiting, { port });
    servers.push(again);
    const resumed = await runNode([app.arena, 'run', '--resume', id, '--data-dir', dataDir], { env: env(), timeoutMs: RUN_TIMEOUT_MS });
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(dataDir, 'reports', id, 'report.json'), 'utf8')) as {
      games: Array<{ termination: string }>;
    };
    const rated = report.games.filter((g) => g.termination !== 'harness_error');
    expect(rated).toHaveLength(4);
    expect(rated.every((g) => g.termination === 'agent_timeout')).toBe(true);
  }, 300_000);
});
