// A hostile Clawpoly agent as a real process: every decision it sends malformed, oversized and out-of-turn submissions
// (unknown spaces, other players' deeds, 10 000-operation batches, deep nesting, cash it does not have, trades with
// itself, malformed trade answers, 10 kB chat) and never a valid one. Each must be refused with a 4xx, the
// engine must not stall, and the match must finish on the deadlines with the advisor playing the hostile seat, while
// three baselines play normally.
import { describe, expect, it } from 'vitest';
import { expectAllRefused, runScriptAgent, setUpClawHttp, startBaselines } from './http-setup.js';

const HOSTILE = `
const base = process.env.BASE, token = process.env.TOKEN;
const h = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
const statuses = {};
let deep = { action: 'mortgage', space_id: 1 }; for (let i = 0; i < 500; i++) deep = { action: 'build_house', space_id: deep };
const bad = (me, other, theirs) => [
  { action: 'build_house', params: { space_id: 99 } },
  { action: 'build_house', params: { space_id: 'Copper Row', count: 1000 } },
  { action: 'mortgage', params: { space_id: theirs } },
  { action: 'sell_house', params: { space_id: -1 } },
  { action: 'manage_batch', params: { operations: Array.from({ length: 10000 }, () => ({ action: 'mortgage', space_id: 1 })) } },
  { action: 'manage_batch', params: { operations: [deep] } },
  { action: 'manage_batch', params: { operations: [{ action: 'roll' }] } },
  { action: 'propose_trade', params: { to_agent_id: me, offer_cash: 10 } },
  { action: 'propose_trade', params: { to_agent_id: other, offer_cash: 1e12 } },
  { action: 'propose_trade', params: { to_agent_id: other, offer_space_ids: [theirs] } },
  { action: 'propose_trade', params: { to_agent_id: 'everyone', request_cash: -5 } },
  { action: 'accept_trade', params: { message: 5 } },
  { action: 'reject_trade_for_turn', params: { forever: true } },
  { action: 'buy_property', params: { space_id: 39 } },
  { action: 'chat', params: { message: 'x'.repeat(10000) } },
  { action: 'win_the_game', params: {} },
  { action: 'roll', params: 'now' },
];
(async () => {
  for (let i = 0; i < 600; i++) {
    const poll = await (await fetch(base + '/agents/game/?wait=5&snapshot=full', { headers: h })).json();
    if (poll.status === 'finished') break;
    if (!poll.is_your_turn) continue;
    const s = poll.state;
    const other = s.players.find((p) => p.agent_id !== s.your_agent_id).agent_id;
    const theirs = s.asset_summary.find((a) => a.agent_id === other).owned_assets[0]?.space_id ?? 39;
    for (const body of bad(s.your_agent_id, other, theirs)) {
      const res = await fetch(base + '/agents/action/', { method: 'POST', headers: h, body: JSON.stringify(body) });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await res.text();
    }
  }
  process.stdout.write(JSON.stringify(statuses));
})().catch((e) => { process.stderr.write(String(e)); process.exit(1); });
`;

const http = setUpClawHttp();

describe('a hostile Clawpoly agent', () => {
  it('is refused with 4xx every time and the advisor plays its seat on the deadlines', { timeout: 150_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'monopoly',
      seats: Array.from({ length: 4 }, (_, i) => ({ name: `poly-hostile-${i}` })),
      seed: 'hostile-clawpoly',
      options: { max_turns: 12, timeouts_ms: { routine: 1500, tactical: 1500, strategic: 1500 } },
    });
    const baselines = startBaselines(http, created.seats.slice(0, 3), (i) => (i % 2 === 0 ? 'node' : 'python'));
    const hostile = created.seats[3] as { token: string; agentId: number };
    expectAllRefused(await runScriptAgent(http, HOSTILE, hostile.token), 17 * 3);
    for (const r of await Promise.all(baselines.map((b) => b.done))) expect(r.code, r.stderr).toBe(0);

    const match = service.match(created.matchId);
    expect(match?.status).toBe('finished');
    expect(['turn_limit', 'last_solvent_player']).toContain(match?.result?.finish_reason);
    const events = service.matchEvents(created.matchId);
    const hostileRolls = events.filter((e) => e.type === 'roll' && (e.data as { agent_id: number }).agent_id === hostile.agentId);
    expect(hostileRolls.length).toBeGreaterThanOrEqual(2);
    expect(hostileRolls.every((e) => e.isAuto)).toBe(true);
    // Nothing the hostile seat sent was applied: no chat of 10 kB, no trade it proposed.
    expect(events.some((e) => e.type === 'trade_proposed' && (e.data as { from_agent_id: number }).from_agent_id === hostile.agentId)).toBe(
      false,
    );
  });
});
