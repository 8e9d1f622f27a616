// Millionaire baseline "truthful": states its real wealth on the chat and guesses a value on the correct side of its own
// wealth (as given by the opponent's claim) while avoiding the claimed value itself, so as not to breach the opponent.
// When the wealths are equal the only correct answer is the exact value, which it then sends.
import { runAgent } from '../../../kit/agent-client.mjs';
import { blindGuess, directionGuess, opponentClaim, ownWealth } from '../millionaire-play.mjs';

await runAgent(async ({ client, log }) => {
  const own = await ownWealth(client);
  await client.say(`My wealth is $${own.wealth}M.`);
  await client.untilAllJoined();
  const claim = await opponentClaim(client, own.min, own.max);
  const guess = claim === undefined ? blindGuess(own) : directionGuess(own.wealth, claim, own.min, own.max);
  log(claim === undefined ? 'no claim from the opponent: blind guess' : `opponent claims $${claim}M`);
  await client.act('guess', String(guess));
});
