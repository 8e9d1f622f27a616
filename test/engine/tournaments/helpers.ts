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
import { commitGame } from '../../../engine/tournaments/results/game-commit.js';
import type { GameOutcome, GameRunners } from '../../../engine/tournaments/run/game-runner.js';

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

/**
 * A warm-bot fixture manifest (test/fixtures/agents/tournament/warm-bot/<name>.yaml, lifecycle: persistent) and the
 * tag its processes carry on their command line. The manifests are static because the sandbox shows an agent its own
 * folder, not a test's temp folder.
 */
export function warmBot(name: string): { manifest: string; tag: string } {
  return { manifest: path.join(FIXTURES, 'warm-bot', `${name}.yaml`), tag: `warm-bot-fixture:${name}` };
}

const PROC = /\[proc ([0-9a-f]+) game (\d+)\]/;

/** [process id, game number in that process] the warm bot named in each game's chat, in game order (null: none). */
export function procLog(
  games: ReadonlyArray<{ seq: number; gameIndex: number; seats: number[] }>,
  transcript: (seq: number) => unknown[],
  agent = 0,
): Array<[string, number] | null> {
  return [...games]
    .sort((a, b) => a.gameIndex - b.gameIndex)
    .map((g) => {
      const seat = g.seats.indexOf(agent);
      for (const e of transcript(g.seq) as Array<{ channel: string; from: unknown; content: string }>) {
        const m = e.channel === 'chat' && e.from === seat ? PROC.exec(e.content) : null;
        if (m) return [m[1] as string, Number(m[2])] as [string, number];
      }
      return null;
    });
}

/** Host pids of live processes whose command line contains `tag` (zombies excluded). */
export function processesWith(tag: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(tag)) continue;
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * A played run's committed rows as the template of a larger synthetic run: `copy(tournamentId, k, limit)` commits the
 * k-th copy through the real commit path (keys, game indices and pair links shifted past the copies before it),
 * at most `limit` rows of it, and returns how many it committed.
 */
export function runTemplate(engine: RunningEngine, sourceId: string) {
  const rows = engine.store.tournaments
    .games(sourceId)
    .map((r) => ({ ...r, transcript: engine.store.tournaments.transcript(sourceId, r.seq) }));
  const span = Math.max(...rows.map((r) => r.gameIndex)) + 1;
  return {
    rows,
    span,
    copy(tournamentId: string, k: number, limit = rows.length): number {
      let n = 0;
      for (const { seq: _seq, ...row } of rows) {
        if (n >= limit) break;
        commitGame(engine.store, {
          ...row,
          tournamentId,
          gameKey: `${row.gameKey}#${k}`,
          gameIndex: row.gameIndex + k * span,
          swapOf: row.swapOf === null ? null : row.swapOf + k * span,
        });
        n++;
      }
      return n;
    },
  };
}
