// Clawpoly in a tournament: the example's four baselines (Node and Python) at one table over real HTTP, seated by
// createMatch(); the game completes at the turn limit (or a last solvent player) and every seat gets a placement.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { engineForFile, ROOT } from './helpers.js';

const ctx = engineForFile();
const EXAMPLE = path.join(ROOT, 'examples/clawpoly.tournament.yaml');

it('the Clawpoly example plays its four-seat game to completion', async () => {
  const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  const t = ctx.engine.tournaments.create(raw, path.dirname(EXAMPLE));
  expect(t.plannedGames).toBe(1);
  const outcome = await ctx.engine.tournaments.start(t.id);
  expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
  const games = ctx.engine.store.tournaments.games(t.id);
  expect(games).toHaveLength(1);
  const game = games[0];
  expect(game?.challenge).toBe('monopoly');
  expect(game?.termination, game?.detail).toBe('completed');
  expect(game?.placements).toHaveLength(4);
  expect(game?.placements).toContain(1);
  const match = ctx.engine.clawarena.match(Number(game?.sessionId?.replace('clawarena:', '')));
  expect(['turn_limit', 'last_solvent_player']).toContain(match?.result?.finish_reason);
  expect(match?.seats.map((s) => s.placement)).toEqual(game?.placements);
  expect(match?.summary?.net_worth).toBeTypeOf('object');
}, 150_000);
