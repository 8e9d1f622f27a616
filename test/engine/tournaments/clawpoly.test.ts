// Clawpoly in a tournament: the example's four baselines (Node and Python) at one table over real HTTP, seated by
// createMatch(); the game completes at the turn limit (or a last solvent player) and every seat gets a placement.
import { expect, it } from 'vitest';
import { playOneTableExample } from './claw-example.js';
import { engineForFile } from './helpers.js';

const ctx = engineForFile();

it('the Clawpoly example plays its four-seat game to completion', async () => {
  const { match } = await playOneTableExample(ctx.engine, 'clawpoly', 'monopoly', 4);
  expect(['turn_limit', 'last_solvent_player']).toContain(match?.result?.finish_reason);
  expect(match?.summary?.net_worth).toBeTypeOf('object');
}, 150_000);
