// Hostile agents in a real tournament through `arena run` (real child processes, real HTTP, real SQLite):
// forger-bot tries to speak as the operator and to write keyless in its seat-key session over REST and MCP, and
// leaky-bot spills its granted key into the chat and into a long last stderr line before crashing. Every forgery is
// refused, the honest opponent's game completes with correct scores and no fault, and the key is in nothing the
// harness stores or shows (report files, events, SQLite with its WAL), not even as the prefix a cut would leave.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { runNode } from '../../support/run-node.js';
import { FIXTURES, ROOT, tempDir } from './helpers.js';

const BIN = path.join(ROOT, 'bin/arena.js');
const PSI = path.join(ROOT, 'challenges/psi/agents');
// Distinctive, and long enough that its first 12 characters identify it anywhere.
const KEY = `sk-leaky-${'9f3b2c7d1e'.repeat(4)}`;
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/run/executor.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir('arena-hostile-');
}, 250_000);
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface GameRow {
  game_index: number;
  seats: string;
  termination: string;
  faulted_seats: string;
  scores: string | null;
  detail: string;
  transcript: string;
}

/** Every file under `root`, recursively. */
function filesUnder(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(root, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

it('refuses every forgery, completes the honest games and keeps the granted key out of everything stored', async () => {
  const specFile = path.join(dir, 'hostile.tournament.yaml');
  fs.writeFileSync(
    specFile,
    YAML.stringify({
      name: 'hostile',
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'hostile-1',
      agents: [
        { manifest: path.join(FIXTURES, 'forger-bot/agent.yaml'), id: 'forger' },
        { manifest: path.join(PSI, 'honest-exact/agent.yaml'), id: 'honest' },
        { manifest: path.join(FIXTURES, 'leaky-bot/agent.yaml'), id: 'leaky' },
      ],
      limits: { move_seconds: 10, game_seconds: 40 },
    }),
  );
  const dataDir = path.join(dir, 'data');
  const env = { PATH: process.env.PATH ?? '', HOME: dir, LEAKY_API_KEY: KEY };
  const run = await runNode([BIN, 'run', specFile, '--data-dir', dataDir, '--json'], { env, timeoutMs: 150_000 });
  expect(run.code, run.stderr).toBe(0);
  const events = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { event: string; tournament_id?: string; report_dir?: string });
  const finished = events.find((e) => e.event === 'finished');
  expect(finished?.report_dir).toBeTruthy();

  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  const games = db.prepare('SELECT * FROM tournament_games ORDER BY game_index, attempt').all() as GameRow[];
  db.close();
  // Seat ids in spec order: forger 0, honest 1, leaky 2.
  const between = (a: number, b: number) => games.filter((g) => [a, b].every((x) => (JSON.parse(g.seats) as number[]).includes(x)));

  // ---- forger vs honest: every forgery refused, the game itself complete and correct -------------------------
  const [duel] = between(0, 1);
  expect(duel, JSON.stringify(games.map((g) => [g.seats, g.termination, g.detail]))).toBeDefined();
  expect(duel?.termination).toBe('completed');
  expect(JSON.parse(duel?.faulted_seats ?? '[]')).toEqual([]);
  const seats = JSON.parse(duel?.seats ?? '[]') as number[];
  const honestSeat = seats.indexOf(1);
  const scores = JSON.parse(duel?.scores ?? 'null') as { security: number; utility: number }[];
  // Both disclosed honestly and guessed the exact intersection: full utility for the honest agent.
  expect(scores[honestSeat]?.utility).toBe(1);
  const transcript = JSON.parse(duel?.transcript ?? '[]') as { channel: string; from: string; content: string; to?: string }[];
  const reportLine = transcript.find((m) => m.content.startsWith('forgery-report '));
  expect(reportLine, 'the forger posted what it got').toBeDefined();
  const report = JSON.parse(reportLine?.content.slice('forgery-report '.length) ?? '{}') as Record<
    string,
    { status: number; result?: { code?: string; error?: string } } | number | null
  >;
  const status = (name: string) => (report[name] as { status: number }).status;
  expect(status('fakeSetDm')).toBe(403);
  expect(status('fakeGameEnded')).toBe(403);
  expect(status('operatorChannelAsMe')).toBe(401);
  expect(status('keylessChat')).toBe(401);
  expect(status('keylessAction')).toBe(401);
  expect(status('keylessRead')).toBe(401);
  expect(report.listedInvites).toBe(0);
  expect((report.mcpFakeEnd as { result: { code?: string } }).result).toMatchObject({ code: 'RESERVED_SENDER' });
  expect((report.mcpAsOperator as { result: { code?: string } }).result).toMatchObject({ code: 'RESERVED_SENDER' });
  expect((report.mcpKeylessAction as { result: { error?: string } }).result).toEqual({ error: 'Authentication required' });
  // Nothing forged reached the record: the operator channel holds only the operator and the players' own actions,
  // and exactly one "Game ended." (the real one).
  const operatorLines = transcript.filter((m) => m.channel === 'operator');
  expect(operatorLines.every((m) => m.from === 'operator' || m.to === 'operator')).toBe(true);
  expect(operatorLines.filter((m) => m.content.startsWith('Game ended.'))).toHaveLength(1);
  expect(transcript.some((m) => m.from === 'mallory')).toBe(false);

  // ---- leaky: crashed and blamed, but its key is nowhere --------------------------------------------------
  const leakyGames = games.filter((g) => (JSON.parse(g.seats) as number[]).includes(2));
  expect(leakyGames.length).toBeGreaterThan(0);
  for (const g of leakyGames) {
    expect(g.termination).toBe('agent_crash');
    expect(g.detail).toContain('exited with code 3');
    expect(g.detail).toContain('<secret');
  }
  const leakyChat = leakyGames
    .flatMap((g) => JSON.parse(g.transcript) as { content: string }[])
    .find((m) => m.content.startsWith('my key is'));
  expect(leakyChat?.content).toBe('my key is <secret:LEAKY_API_KEY>');

  const prefix = KEY.slice(0, 12);
  const stored = [...filesUnder(dataDir).filter((f) => !f.includes(`${path.sep}work${path.sep}`)), specFile];
  expect(stored.some((f) => f.endsWith('arena.sqlite'))).toBe(true);
  expect(stored.some((f) => f.endsWith('report.json'))).toBe(true);
  for (const file of stored) {
    const bytes = fs.readFileSync(file).toString('latin1');
    expect(bytes.includes(prefix), file).toBe(false);
  }
  expect(run.stdout.includes(prefix)).toBe(false);
  expect(run.stderr.includes(prefix)).toBe(false);
}, 200_000);
