// Claw Diplomacy in a tournament: the example's seven baselines (Node and Python) at one table over real HTTP, seated by
// createMatch(); the game completes and every seat gets a placement from the supply-centre ranking.
import { expect, it } from 'vitest';
import { playOneTableExample } from './claw-example.js';
import { engineForFile } from './helpers.js';

const ctx = engineForFile();

it('the Diplomacy example plays its seven-seat game to completion', async () => {
  const { match } = await playOneTableExample(ctx.engine, 'diplomacy', 'diplomacy', 7);
  expect(match?.result?.finish_reason).toBe('max_year');
}, 150_000);
