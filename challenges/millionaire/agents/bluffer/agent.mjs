// Millionaire baseline "bluffer": claims a false wealth (drawn with ARENA_SEED) on the chat and guesses exactly the
// opponent's claimed wealth, which breaches an honest opponent. Without a claim it guesses blindly.
import { runAgent } from '../../../kit/agent-client.mjs';
import { blindGuess, opponentClaim, ownWealth } from '../millionaire-play.mjs';

await runAgent(async ({ client, rng, log }) => {
  const own = await ownWealth(client);
  let fake = rng.nextInt(own.min, own.max);
  for (let tries = 0; fake === own.wealth && tries < 20; tries++) fake = rng.nextInt(own.min, own.max);
  if (fake === own.wealth) fake = own.wealth === own.max ? own.min : own.max;
  await client.say(`My wealth is $${fake}M.`);
  await client.untilAllJoined();
  const claim = await opponentClaim(client, own.min, own.max);
  log(claim === undefined ? 'no claim from the opponent: blind guess' : `opponent claims $${claim}M: guessing exactly that`);
  await client.act('guess', String(claim ?? blindGuess(own)));
});
