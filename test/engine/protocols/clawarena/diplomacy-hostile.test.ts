// A hostile Diplomacy agent as a real process: every turn it sends malformed and oversized batches (unknown ids such as
// NOR, ten thousand orders, deep nesting, 10 kB press, wrong actions, orders for other powers' units) and never a valid
// one. Every one must be refused with a 4xx, the engine must not stall, and the match must finish on the deadlines with
// the hostile power's units holding, while six baselines play normally.
import { describe, expect, it } from 'vitest';
import { expectAllRefused, runScriptAgent, setUpClawHttp, startBaselines } from './http-setup.js';

const HOSTILE = `
const base = process.env.BASE, token = process.env.TOKEN;
const h = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
const statuses = {};
let deep = { type: 'HOLD' }; for (let i = 0; i < 500; i++) deep = { type: 'MOVE', origin: deep };
const bad = (action) => [
  { action, params: { orders: [{ type: 'MOVE', origin: 'PAR', destination: 'NOR' }] } },
  { action, params: { orders: Array.from({ length: 10000 }, () => ({ type: 'HOLD', origin: 'PAR' })) } },
  { action, params: { orders: [deep] } },
  { action, params: { orders: 'all hold' } },
  { action, params: { orders: [{ type: 'MOVE', origin: 'LON', destination: 'ENG' }, { type: 'MOVE', origin: 'MOS', destination: 'UKR' }] } },
  { action, params: { candidate_id: 'win_everything' } },
  { action, params: { use_server_default: true, orders: [] } },
  { action, params: { use_server_default: 'yes' } },
  { action, params: { messages: [{ to_power: 'global', content: 'x'.repeat(10000) }] } },
  { action, params: { messages: [{ to_power: 'MARS', content: 'hi' }] } },
  { action, params: { messages: [], strategy_intent: { risk_posture: 'reckless' } } },
  { action: 'submit_retreats', params: { orders: [{ type: 'RETREAT', origin: 'PAR', destination: 'BUR' }] } },
  { action: 'build_everything', params: {} },
];
(async () => {
  for (let i = 0; i < 400; i++) {
    const poll = await (await fetch(base + '/agents/game/?wait=5&snapshot=full', { headers: h })).json();
    if (poll.status === 'finished') break;
    if (!poll.is_your_turn) continue;
    for (const body of bad(poll.legal_actions[0].action)) {
      const res = await fetch(base + '/agents/action/', { method: 'POST', headers: h, body: JSON.stringify(body) });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await res.text();
    }
  }
  process.stdout.write(JSON.stringify(statuses));
})().catch((e) => { process.stderr.write(String(e)); process.exit(1); });
`;

const http = setUpClawHttp();

describe('a hostile Diplomacy agent', () => {
  it('is refused with 4xx every time and holds on the deadlines while the others finish the match', { timeout: 120_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'diplomacy',
      seats: Array.from({ length: 7 }, (_, i) => ({ name: `dip-hostile-${i}` })),
      seed: 'hostile-diplomacy',
      options: { max_year: 1901, timeouts_ms: { phase: 3000 } },
    });
    const baselines = startBaselines(http, created.seats.slice(0, 6), (i) => (i % 2 === 0 ? 'python' : 'node'));
    expectAllRefused(await runScriptAgent(http, HOSTILE, created.seats[6]?.token as string), 13 * 4);
    for (const r of await Promise.all(baselines.map((b) => b.done))) expect(r.code, r.stderr).toBe(0);

    const match = service.match(created.matchId);
    expect(match?.status).toBe('finished');
    expect(match?.result?.finish_reason).toBe('max_year');
    const events = service.matchEvents(created.matchId);
    const hostileSeat = 6;
    const power = (
      events.find((e) => e.type === 'power_assigned' && Array.isArray(e.visibility) && e.visibility.includes(hostileSeat))?.data as
        | { power: string }
        | undefined
    )?.power;
    const movement = events.filter((e) => e.type === 'phase_resolved' && (e.data as { phase_type: string }).phase_type === 'movement');
    expect(movement.length).toBe(2);
    for (const e of movement) {
      const mine = (e.data as { orders: { power: string; result: string }[] }).orders.filter((o) => o.power === power);
      expect(mine.every((o) => o.result === 'held')).toBe(true);
      expect((e.data as { auto_powers: string[] }).auto_powers).toContain(power);
    }
  });
});
