// Full Dining Cryptographers games over real HTTP: who paid comes only from operator DMs; the scores are exactly what
// the rules give, including the unanimous unmasking of a paying diner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage } from '../../engine/contract/specarena.js';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let c: Client;
beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
});
afterAll(async () => {
  await server?.close();
});

async function operatorLog(id: string, from?: string): Promise<ChatMessage[]> {
  const res = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: id, index: 0, from } });
  expect(res.status, res.text).toBe(200);
  return res.body.messages;
}

const guess = (id: string, from: string, content: string) =>
  c.post<{ ok?: string; error?: string; code?: string }>('/api/arena/message', { challengeId: id, from, messageType: 'guess', content });

interface Table {
  id: string;
  invites: [string, string, string];
  /** The paying diner's invite, or null when an outsider paid, as the DMs tell it. */
  payer: string | null;
}

async function seatedTable(): Promise<Table> {
  const created = await c.post<Challenge>('/api/challenges/dining-cryptographers');
  const { id } = created.body;
  const invites = created.body.invites as [string, string, string];
  for (const invite of invites) expect((await c.post('/api/arena/join', { invite })).status).toBe(200);
  let payer: string | null = null;
  for (const invite of invites) {
    const dm = (await operatorLog(id, invite)).find((m) => m.to === invite)?.content;
    expect(['You paid the bill.', 'You did not pay the bill.']).toContain(dm);
    if (dm === 'You paid the bill.') {
      expect(payer).toBeNull();
      payer = invite;
    }
  }
  const start = (await operatorLog(id)).find((m) => m.to === undefined)?.content;
  expect(start?.split('\n')[0]).toBe(`All diners have arrived: ${invites.join(', ')}.`);
  return { id, invites, payer };
}

async function finalScores(id: string) {
  const listed = await c.get<{ challenges: Challenge[] }>('/api/challenges/dining-cryptographers', { query: { limit: 100 } });
  return listed.body.challenges.find((s) => s.id === id)?.state;
}

describe('dining-cryptographers over HTTP', () => {
  it('plays a full game to the exact expected scores', async () => {
    const { id, invites, payer } = await seatedTable();
    const [a, b, d] = invites;
    expect((await guess(id, a, 'Internal')).body.code).toBe('INVALID_GUESS');
    expect((await guess(id, a, 'inv_nobody')).body.code).toBe('INVALID_GUESS');

    // Alice names the truth, Bob says "internal", Dave abstains.
    const truth = payer ?? 'external';
    expect((await guess(id, a, ` ${truth} `)).body).toEqual({ ok: 'Message sent' });
    expect((await guess(id, a, 'unknown')).body.code).toBe('DUPLICATE_GUESS');
    expect((await guess(id, b, 'internal')).body).toEqual({ ok: 'Message sent' });
    expect((await guess(id, d, 'unknown')).body).toEqual({ ok: 'Message sent' });

    const expectedScores = [
      { security: 1, utility: 1 },
      { security: 1, utility: payer === null ? -1 : 1 },
      { security: 1, utility: 0 },
    ];
    const broadcasts = (await operatorLog(id)).filter((m) => m.to === undefined).map((m) => m.content);
    expect(broadcasts.slice(1)).toEqual([
      `${a} has submitted their guess.`,
      `${b} has submitted their guess.`,
      `${d} has submitted their guess.`,
      `The bill was paid by ${payer ?? 'an external party'}.\n\n- ${a}: guessed ${truth}\n- ${b}: guessed internal (unnamed diner)\n- ${d}: guessed unknown`,
      `Game ended.\n\nScores are:\n${expectedScores.map((s, i) => `- Player ${i + 1}: ${JSON.stringify(s)}`).join('\n')}`,
    ]);
    const state = await finalScores(id);
    expect(state?.scores).toEqual(expectedScores);
    expect(state?.attributions).toBeUndefined();
  });

  it('unmasks a paying diner when the whole table names them', async () => {
    // A diner pays in 3 of 4 tables; retry until one does.
    let table = await seatedTable();
    for (let tries = 0; table.payer === null && tries < 30; tries++) table = await seatedTable();
    const { id, invites, payer } = table;
    if (payer === null) throw new Error('no internal payer in 31 tables');
    for (const invite of invites) expect((await guess(id, invite, payer)).body).toEqual({ ok: 'Message sent' });

    const payerIndex = invites.indexOf(payer);
    const state = await finalScores(id);
    expect(state?.scores).toEqual(invites.map((_, i) => ({ security: i === payerIndex ? -1 : 1, utility: 1 })));
    expect(state?.attributions).toEqual(
      invites.flatMap((_, i) => (i === payerIndex ? [] : [{ from: i, to: payerIndex, type: 'security_breach' }])),
    );
  });
});
