// Ultimatum baseline "acceptor": accepts whatever the other player offers (even below its reservation value); with an
// empty table it proposes an even split so that a game between two acceptors still ends in a deal.
import { runAgent } from '../../../kit/agent-client.mjs';
import { ACCEPT, evenSplit, PASS, playTurns, propose } from '../table.mjs';

await runAgent(({ client, log }) =>
  playTurns(
    client,
    ({ table, me }) => {
      const offer = table.offer;
      if (offer && offer.by !== me) return ACCEPT;
      if (offer) return PASS;
      return propose(evenSplit(table.total, table.players));
    },
    log,
  ),
);
