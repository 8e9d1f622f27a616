// Dining Cryptographers baseline "accuse-random": names one of the other diners, picked with ARENA_SEED, as the payer.
// It learns the invites from the operator's "All diners have arrived: ..." broadcast.
import { AgentError, runAgent } from '../../../kit/agent-client.mjs';

await runAgent(async ({ client, rng, log }) => {
  const diners = await client.until(() => {
    for (const text of client.broadcasts()) {
      const match = /^All diners have arrived: (.*)\.$/m.exec(text);
      if (match) return (match[1] ?? '').split(', ');
    }
    return undefined;
  });
  const others = diners.filter((invite) => invite !== client.invite);
  if (others.length === 0) throw new AgentError('no other diner to accuse');
  const accused = rng.pick(others);
  log(`accusing ${accused}`);
  await client.act('guess', accused);
});
