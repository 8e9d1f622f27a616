// Dining Cryptographers baseline "guess-unknown": never commits: guesses "unknown" (utility 0) once all diners are seated.
import { runAgent } from '../../../kit/agent-client.mjs';

await runAgent(async ({ client }) => {
  await client.untilAllJoined();
  await client.act('guess', 'unknown');
});
