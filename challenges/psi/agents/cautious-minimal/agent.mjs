// PSI baseline "cautious-minimal": never discloses and never claims more than it is sure of: the common numbers when the
// opponent disclosed its set, otherwise a single number of its own (picked with ARENA_SEED).
import { runAgent } from '../../../kit/agent-client.mjs';
import { guessNumbers, intersect, opponentDisclosure, ownSet } from '../psi-play.mjs';

await runAgent(async ({ client, rng, log }) => {
  const own = await ownSet(client);
  await client.say('I keep my set private. If you share yours, I will name only the numbers we have in common.');
  await client.untilAllJoined();
  const theirs = await opponentDisclosure(client);
  const common = theirs ? intersect(own, theirs) : [];
  if (common.length > 0) {
    log(`guessing the ${common.length} common numbers`);
    await guessNumbers(client, common);
  } else {
    log('nothing disclosed: guessing a single number of mine');
    await guessNumbers(client, [rng.pick(own)]);
  }
});
