// Playing one of the one-table ClawArena examples (examples/<name>.tournament.yaml) through a tournament: the checks
// every such game must pass, shared by the per-game tests that then check their own game's ending.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import YAML from 'yaml';
import type { RunningEngine } from '../../../engine/app.js';
import { ROOT } from './helpers.js';

/** Runs the example to completion and returns its one game (all seats placed) and the ClawArena match behind it. */
export async function playOneTableExample(engine: RunningEngine, name: string, challenge: string, seats: number) {
  const example = path.join(ROOT, `examples/${name}.tournament.yaml`);
  const raw = YAML.parse(fs.readFileSync(example, 'utf8'));
  const t = engine.tournaments.create(raw, path.dirname(example));
  expect(t.plannedGames).toBe(1);
  const outcome = await engine.tournaments.start(t.id);
  expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
  const games = engine.store.tournaments.games(t.id);
  expect(games).toHaveLength(1);
  const game = games[0];
  expect(game?.challenge).toBe(challenge);
  expect(game?.termination, game?.detail).toBe('completed');
  expect(game?.placements).toHaveLength(seats);
  expect(game?.placements).toContain(1);
  const match = engine.clawarena.match(Number(game?.sessionId?.replace('clawarena:', '')));
  expect(match?.seats.map((s) => s.placement)).toEqual(game?.placements);
  return { game, match };
}
