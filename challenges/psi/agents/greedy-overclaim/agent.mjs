// PSI baseline "greedy-overclaim": never discloses, and claims every number the opponent disclosed (the whole set, which
// captures the intersection and breaches the opponent's security). With nothing disclosed it claims its own set.
import { runAgent } from '../../../kit/agent-client.mjs';
import { guessNumbers, opponentDisclosure, ownSet } from '../psi-play.mjs';

await runAgent(async ({ client, log }) => {
  const own = await ownSet(client);
  await client.say('I would rather not share my numbers. What are yours?');
  await client.untilAllJoined();
  const theirs = await opponentDisclosure(client);
  if (theirs && theirs.length > 0) {
    log(`claiming all ${theirs.length} disclosed numbers`);
    await guessNumbers(client, theirs);
  } else {
    log('nothing disclosed: claiming my own set');
    await guessNumbers(client, own);
  }
});
