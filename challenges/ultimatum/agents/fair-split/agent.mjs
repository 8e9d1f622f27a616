// Ultimatum baseline "fair-split": proposes an even split, accepts any offer worth at least its reservation value,
// and answers a worse offer with its even split again.
import { runAgent } from '../../../kit/agent-client.mjs';
import { ACCEPT, evenSplit, PASS, playTurns, propose } from '../table.mjs';

await runAgent(({ client, log }) =>
  playTurns(
    client,
    ({ table, me, reservation }) => {
      const offer = table.offer;
      if (offer && offer.by !== me && (offer.amounts[me] ?? 0) >= reservation) return ACCEPT;
      if (offer && offer.by === me) return PASS;
      return propose(evenSplit(table.total, table.players));
    },
    log,
  ),
);
