// The executor plays every game through the runner of its playable's protocol: a fake runner injected through the
// seam plays ClawArena games (no match is created), and a protocol without a runner fails the run with a clear error.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import type { ScheduledGame } from '../../../engine/core/tournament/index.js';
import type { GameContext, GameOutcome } from '../../../engine/tournaments/run/game-runner.js';
import { engineForFile, ROOT, scripted, spec } from './helpers.js';

const ctx = engineForFile();
const EXAMPLE = path.join(ROOT, 'examples/clawarena.tournament.yaml');

it('a fake ClawArena runner plays the ClawArena games, and the SpecArena runner is not asked', async () => {
  const seen: Array<{ context: GameContext; game: ScheduledGame }> = [];
  let specArenaCalls = 0;
  ctx.engine.tournaments.overrides.runners = {
    clawarena: {
      async play(context, game) {
        seen.push({ context, game });
        const now = context.clock.now();
        const outcome: GameOutcome = {
          sessionId: `fake:${game.gameIndex}`,
          invites: [],
          termination: 'completed',
          faultedSeats: [],
          placements: game.seats.map((_, seat) => (seat === 0 ? 1 : 2)),
          scores: null,
          detail: 'fake runner',
          agentMs: 0,
          startedAt: now,
          endedAt: now,
          transcript: [],
        };
        return outcome;
      },
    },
    specarena: {
      play: async () => {
        specArenaCalls++;
        throw new Error('not a SpecArena game');
      },
    },
  };
  try {
    const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
    const t = ctx.engine.tournaments.create(raw, path.dirname(EXAMPLE));
    const outcome = await ctx.engine.tournaments.start(t.id);
    expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
    expect(seen).toHaveLength(4);
    expect(specArenaCalls).toBe(0);
    // The context carries the definition's limits and agents, whatever the protocol.
    expect(seen[0]?.context.moveMs).toBe(10_000);
    expect(seen[0]?.context.gameMs).toBe(40_000);
    expect(seen[0]?.context.agents.map((a) => a.id)).toEqual(['baseline-node', 'baseline-python']);
    const games = ctx.engine.store.tournaments.games(t.id);
    expect(games.map((g) => g.detail)).toEqual(['fake runner', 'fake runner', 'fake runner', 'fake runner']);
    expect(games.every((g) => g.sessionId?.startsWith('fake:'))).toBe(true);
    // Nothing reached the real ClawArena service.
    expect(ctx.engine.clawarena.match(1)).toBeUndefined();
  } finally {
    ctx.engine.tournaments.overrides.runners = {};
  }
}, 30_000);

it('a protocol with no runner fails the run and says which', async () => {
  const service = ctx.engine.tournaments;
  // The engine's own SpecArena runner masked by an explicit undefined: no runner plays millionaire.
  service.overrides.runners = { ...scripted(() => ({ placements: [1, 2] })), specarena: undefined };
  try {
    const t = service.create(spec(), ROOT);
    const outcome = await service.start(t.id);
    expect(outcome.status).toBe('failed');
    expect(outcome.status === 'failed' && outcome.error).toBe('no game runner for the specarena protocol (challenge millionaire)');
  } finally {
    service.overrides.runners = {};
  }
});

it('the executor names no protocol: it reaches games only through the runners', () => {
  const source = fs.readFileSync(path.join(ROOT, 'engine/tournaments/run/executor.ts'), 'utf8');
  expect(source).not.toMatch(/clawarena|specarena|ClawArena|SpecArena/);
});
