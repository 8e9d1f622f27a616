// PSI baseline "honest-exact": discloses its whole set on the chat and guesses exactly the common numbers.
// Against a silent or secretive opponent it can only guess its own set (finds the intersection, but with wrong numbers).
import { runAgent } from '../../../kit/agent-client.mjs';
import { guessNumbers, intersect, opponentDisclosure, ownSet } from '../psi-play.mjs';

await runAgent(async ({ client, log }) => {
  const own = await ownSet(client);
  await client.say(`My private set is: ${own.join(', ')}. Share yours and we can both name the exact intersection.`);
  await client.untilAllJoined();
  const theirs = await opponentDisclosure(client);
  const common = theirs ? intersect(own, theirs) : [];
  if (common.length > 0) {
    log(`guessing the exact intersection (${common.length} numbers)`);
    await guessNumbers(client, common);
  } else {
    log(theirs === undefined ? 'opponent stayed silent: guessing my own set' : 'opponent did not share: guessing my own set');
    await guessNumbers(client, own);
  }
});
