// Claw Diplomacy in a tournament: the example's seven baselines (Node and Python) at one table over real HTTP, seated by
// createMatch(); the game completes and every seat gets a placement from the supply-centre ranking.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { engineForFile, ROOT } from './helpers.js';

const ctx = engineForFile();
const EXAMPLE = path.join(ROOT, 'examples/diplomacy.tournament.yaml');

it('the Diplomacy example plays its seven-seat game to completion', async () => {
  const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
  const t = ctx.engine.tournaments.create(raw, path.dirname(EXAMPLE));
  expect(t.plannedGames).toBe(1);
  const outcome = await ctx.engine.tournaments.start(t.id);
  expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
  const games = ctx.engine.store.tournaments.games(t.id);
  expect(games).toHaveLength(1);
  const game = games[0];
  expect(game?.challenge).toBe('diplomacy');
  expect(game?.termination, game?.detail).toBe('completed');
  expect(game?.placements).toHaveLength(7);
  expect(game?.placements).toContain(1);
  const match = ctx.engine.clawarena.match(Number(game?.sessionId?.replace('clawarena:', '')));
  expect(match?.result?.finish_reason).toBe('max_year');
  expect(match?.seats.map((s) => s.placement)).toEqual(game?.placements);
}, 150_000);
