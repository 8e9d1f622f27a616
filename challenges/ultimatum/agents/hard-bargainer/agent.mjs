// Ultimatum baseline "hard-bargainer": demands 80% of the total, conceding 5% per own turn down to a floor of 60%
// (or its reservation value if higher). It accepts only offers that meet its current demand and otherwise re-proposes.
import { runAgent } from '../../../kit/agent-client.mjs';
import { ACCEPT, PASS, playTurns, propose, splitWith } from '../table.mjs';

await runAgent(({ client, log }) =>
  playTurns(
    client,
    ({ table, me, reservation, myTurn }) => {
      const { total, players } = table;
      const demand = Math.min(total, Math.max(Math.round(total * (0.8 - 0.05 * myTurn)), Math.round(total * 0.6), Math.ceil(reservation)));
      const offer = table.offer;
      if (offer && offer.by !== me && (offer.amounts[me] ?? 0) >= demand) return ACCEPT;
      if (offer && offer.by === me && offer.amounts[me] === demand) return PASS;
      return propose(splitWith(total, players, me, demand));
    },
    log,
  ),
);
