// Shared set-up for the tournament tests: an engine in a temp data dir and definitions built in code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type RunningEngine, startEngine } from '../../../engine/app.js';
import type { TournamentEvent } from '../../../engine/contract/tournament.js';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures/agents/tournament');
export const MILLIONAIRE = path.join(ROOT, 'challenges/millionaire/agents');

export function tempDir(prefix = 'arena-tournament-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function engineIn(dataDir: string): Promise<RunningEngine> {
  return startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
}

/**
 * One engine on a fresh data folder for a test file, started before its tests and closed and removed after them.
 * `ctx.engine` and `ctx.dir` are set once the file's tests run.
 */
export function engineForFile(setup?: (engine: RunningEngine) => void): { engine: RunningEngine; dir: string } {
  const ctx = {} as { engine: RunningEngine; dir: string };
  beforeAll(async () => {
    ctx.dir = tempDir();
    ctx.engine = await engineIn(ctx.dir);
    setup?.(ctx.engine);
  });
  afterAll(async () => {
    await ctx.engine?.close();
    if (ctx.dir) fs.rmSync(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}

export function spec(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'test',
    challenge: 'millionaire',
    format: 'round-robin',
    games_per_pairing: 2,
    concurrency: 2,
    seed: 7,
    agents: [
      { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
      { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'bluffer' },
    ],
    limits: { move_seconds: 5, game_seconds: 20 },
    ...overrides,
  };
}

/** Creates and plays a tournament to its end; returns its id and every event. */
export async function play(engine: RunningEngine, raw: Record<string, unknown>) {
  const t = engine.tournaments.create(raw, ROOT);
  const events: TournamentEvent[] = [];
  engine.tournaments.subscribe(t.id, (e) => events.push(e));
  const outcome = await engine.tournaments.start(t.id);
  return { id: t.id, outcome, events, games: engine.store.tournaments.games(t.id) };
}

import type { ScheduledGame } from '../../../engine/core/tournament/index.js';
import type { GameOutcome, GameRunners } from '../../../engine/tournaments/game-runner.js';

/** Scripted SpecArena games through the runner seam: `decide(game)` gives the placements (agent-index aware) or a termination. */
export function scripted(
  decide: (game: ScheduledGame) => { placements: number[] } | { termination: GameOutcome['termination']; faultedSeats?: number[] },
): GameRunners {
  return { specarena: { play: (_context, game) => scriptedGame(decide, game) } };
}

async function scriptedGame(
  decide: (game: ScheduledGame) => { placements: number[] } | { termination: GameOutcome['termination']; faultedSeats?: number[] },
  game: ScheduledGame,
): Promise<GameOutcome> {
  await new Promise((resolve) => setImmediate(resolve));
  const d = decide(game);
  const now = Date.now();
  const base = {
    sessionId: null,
    invites: game.seats.map((_, i) => `inv_${i}`),
    agentMs: 0,
    startedAt: now,
    endedAt: now,
    transcript: [],
  };
  if ('placements' in d) {
    return {
      ...base,
      termination: 'completed',
      faultedSeats: [],
      placements: d.placements,
      scores: d.placements.map((p) => ({ security: 1, utility: p === 1 ? 1 : -1 })),
      detail: 'scripted',
    };
  }
  return { ...base, termination: d.termination, faultedSeats: d.faultedSeats ?? [], placements: null, scores: null, detail: 'scripted' };
}

/** Lower agent index wins; the same agent twice is a draw. */
export const lowerIndexWins = (game: ScheduledGame) => {
  const best = Math.min(...game.seats);
  return { placements: game.seats.map((a) => (a === best ? 1 : 2)) };
};

export function manyAgents(n: number): Array<{ manifest: string; id: string }> {
  return Array.from({ length: n }, (_, i) => ({
    manifest: path.join(MILLIONAIRE, i % 2 ? 'bluffer/agent.yaml' : 'truthful/agent.yaml'),
    id: `a${i}`,
  }));
}

const WARM_BOT = path.join(FIXTURES, 'warm-bot/agent.mjs');

/** A warm-bot manifest (lifecycle: persistent) in its own folder under `dir`, with its pid log and misbehaviour. */
export function warmBotManifest(dir: string, name: string, mode: string, extra: string[] = []): { manifest: string; log: string } {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  const log = path.join(folder, 'pids.log');
  const yaml = [
    `id: ${name}`,
    'name: Warm bot',
    'framework: node',
    'entrypoint:',
    `  command: ["node", ${JSON.stringify(WARM_BOT)}]`,
    '  env:',
    `    PID_LOG: ${JSON.stringify(log)}`,
    `    MARK_FILE: ${JSON.stringify(path.join(folder, 'mark'))}`,
    `    WARM_MODE: ${JSON.stringify(mode)}`,
    'protocol: specarena',
    'challenges: [millionaire]',
    'lifecycle: persistent',
    ...extra,
  ].join('\n');
  fs.writeFileSync(path.join(folder, 'agent.yaml'), `${yaml}\n`);
  return { manifest: path.join(folder, 'agent.yaml'), log };
}

/** [pid, game number in that process] for every seat a warm bot took, in order. */
export function pidLog(file: string): Array<[number, number]> {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.split(' ').map(Number) as [number, number]);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
