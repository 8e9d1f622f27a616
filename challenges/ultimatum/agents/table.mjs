// Ultimatum helpers shared by the baseline agents (a plain module next to the agent folders, not an agent itself):
// reads the table from the operator's broadcasts and acts once on each of this player's turns.
import { AgentError, ArenaHttpError } from '../../kit/agent-client.mjs';

/**
 * The table as the broadcasts describe it: parameters from the start broadcast, the offer on the table, and whose turn
 * it is. `turnSeq` counts turn announcements, so an agent acts at most once per announcement.
 */
export function readTable(broadcasts) {
  const table = { total: 100, players: 2, maxRounds: 10, turn: -1, round: 0, turnSeq: -1, offer: null };
  for (const text of broadcasts) {
    let match = /Total to split: (\d+)/.exec(text);
    if (match) table.total = Number(match[1]);
    match = /- Players: (\d+)/.exec(text);
    if (match) table.players = Number(match[1]);
    match = /Max rounds: (\d+)/.exec(text);
    if (match) table.maxRounds = Number(match[1]);
    match = /^Player (\d+) proposes: (.*)$/m.exec(text);
    if (match) {
      const amounts = [];
      for (const part of (match[2] ?? '').matchAll(/Player (\d+): (\d+)/g)) amounts[Number(part[1]) - 1] = Number(part[2]);
      table.offer = { by: Number(match[1]) - 1, amounts };
    } else if (/^Player \d+ rejects the offer/m.test(text)) {
      table.offer = null;
    }
    match = /Player (\d+)'s turn\. \(Round (\d+)\/\d+\)/.exec(text);
    if (match) {
      table.turn = Number(match[1]) - 1;
      table.round = Number(match[2]);
      table.turnSeq++;
    }
  }
  return table;
}

/** An even split; the remainder goes to the lowest player numbers. */
export function evenSplit(total, players) {
  const base = Math.floor(total / players);
  return Array.from({ length: players }, (_, i) => base + (i < total - base * players ? 1 : 0));
}

/** `mine` for player `me`, the rest shared evenly by the others. */
export function splitWith(total, players, me, mine) {
  const rest = evenSplit(total - mine, players - 1);
  return Array.from({ length: players }, (_, i) => (i === me ? mine : (rest[i < me ? i : i - 1] ?? 0)));
}

export const propose = (amounts) => ({ type: 'submit_offer', content: amounts.join(' ') });
export const ACCEPT = { type: 'accept', content: '' };
export const PASS = { type: 'pass', content: '' };

/**
 * Plays every turn of this player with `decide({table, me, reservation, myTurn})` (myTurn counts this player's turns
 * from 0) until the game ends (the client's waits then throw GameOver). A refused action falls back to a pass.
 */
export async function playTurns(client, decide, log) {
  const reservation = await client.until(() => {
    for (const dm of client.dms()) {
      const match = /reservation value is: (\d+(?:\.\d+)?)/.exec(dm);
      if (match) return Number(match[1]);
    }
    return undefined;
  });
  const order = await client.untilAllJoined();
  const me = order.indexOf(client.invite);
  if (me < 0) throw new AgentError('cannot tell my player number from the operator log');
  log(`I am Player ${me + 1}; reservation ${reservation}`);
  let handled = -1;
  for (let myTurn = 0; ; myTurn++) {
    const table = await client.until(() => {
      const t = readTable(client.broadcasts());
      return t.turnSeq > handled && t.turn === me ? t : undefined;
    });
    handled = table.turnSeq;
    const action = decide({ table, me, reservation, myTurn });
    try {
      await client.act(action.type, action.content);
    } catch (error) {
      if (!(error instanceof ArenaHttpError) || error.status !== 400 || action.type === 'pass') throw error;
      log(`${action.type} refused (${error.code ?? error.message}); passing instead`);
      await client.act(PASS.type, PASS.content);
    }
  }
}
