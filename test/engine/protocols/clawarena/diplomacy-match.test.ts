// A full 7-seat Claw Diplomacy match over real HTTP: six baseline agents (Python and Node) and one seat driven by this
// test through the validating client, silent in the first movement phase (its units hold on the deadline); every poll's
// state and legal action is compared with the shape of the published Diplomacy fixtures. A second test drives all seven
// seats itself to pin down sealed submissions, press visibility and the slim projection.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, type Poll, ValidatingClient, validationFailures } from './helpers.js';
import { expectBaselinesClean, setUpClawHttp, shapeProblems, startBaselines } from './http-setup.js';

const fixture = (phase: string) =>
  JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'fixtures', `diplomacy_${phase}.json`), 'utf8')) as {
    state: Record<string, unknown>;
    legal_actions: { action: string; params: Record<string, unknown>; hint: Record<string, unknown> }[];
  };
const FIXTURES: Record<string, ReturnType<typeof fixture>> = {
  negotiation: fixture('negotiation'),
  movement: fixture('movement'),
  retreat: fixture('retreat'),
  adjustment: fixture('adjustment'),
};

const http = setUpClawHttp();

describe('Claw Diplomacy over HTTP', () => {
  it('six baselines and one test-driven seat play a whole match to the final year', { timeout: 240_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'diplomacy',
      seats: Array.from({ length: 7 }, (_, i) => ({ name: `dip-${i < 6 ? (i % 2 === 0 ? 'py' : 'node') : 'test'}-${i}` })),
      seed: 'full-diplomacy',
      options: { max_year: 1902, timeouts_ms: { phase: 4000 } },
    });
    const agents = startBaselines(http, created.seats.slice(0, 6), (i) => (i % 2 === 0 ? 'python' : 'node'));
    const mine = created.seats[6] as { token: string };
    const client = new ValidatingClient(service.agentEnvironment(mine.token).CLAWARENA_BASE_URL as string, mine.token);

    const problems: string[] = [];
    const phasesSeen = new Set<string>();
    let myPower = '';
    let unitsBefore: unknown[] = [];
    let silentDone = false;
    let last: Poll | null = null;
    for (let i = 0; i < 2000; i++) {
      const poll = (await client.poll({ wait: 10, snapshot: 'full' })).body as Poll & { state: Record<string, unknown> };
      last = poll;
      if (poll.status === 'finished') break;
      if (poll.status !== 'playing' || !poll.is_your_turn) continue;
      const state = poll.state;
      const phase = state.phase_type as string;
      phasesSeen.add(phase);
      myPower = state.power as string;
      const ref = FIXTURES[phase];
      if (ref) {
        problems.push(...shapeProblems(state, ref.state, `${phase}.state`));
        const action = poll.legal_actions[0] as unknown as {
          action: string;
          params: Record<string, unknown>;
          hint: Record<string, unknown>;
        };
        const theirs = ref.legal_actions[0] as (typeof ref.legal_actions)[0];
        expect(action.action).toBe(theirs.action);
        problems.push(...shapeProblems(action.params, theirs.params, `${phase}.params`));
        problems.push(...shapeProblems(action.hint, theirs.hint, `${phase}.hint`));
      }
      if (phase === 'movement' && !silentDone) {
        // Stay silent: the deadline seals the default (everything holds).
        silentDone = true;
        unitsBefore = state.your_units as unknown[];
        const started = Date.now();
        let next = poll;
        while (next.state.phase_key === state.phase_key && Date.now() - started < 20_000) {
          next = (await client.poll({ wait: 5, snapshot: 'full' })).body as typeof poll;
        }
        const history = (next.state.public_history ?? []) as { phase_id: string; orders: { power: string; result: string }[] }[];
        const mineResolved = history.find((h) => h.phase_id === state.phase_id)?.orders.filter((o) => o.power === myPower) ?? [];
        expect(mineResolved.length).toBeGreaterThan(0);
        expect(mineResolved.every((o) => o.result === 'held')).toBe(true);
        continue;
      }
      const action = poll.legal_actions[0] as Poll['legal_actions'][0];
      let params: Record<string, unknown> = { ...action.hint.server_fallback.params };
      if (phase === 'negotiation' && state.negotiation_round === 1) {
        params = {
          messages: [{ to_power: 'global', content: `${myPower} wants a quiet year.` }],
          strategy_intent: { risk_posture: 'balanced' },
        };
      }
      const body = { action: action.action, params, idempotency_key: `${poll.seq}-test` };
      const reply = await client.act(body);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    expect(last?.status).toBe('finished');
    await expectBaselinesClean(agents);

    expect(problems).toEqual([]);
    expect(validationFailures).toEqual([]);
    expect(unitsBefore.length).toBeGreaterThan(0);
    expect([...phasesSeen]).toEqual(expect.arrayContaining(['negotiation', 'movement']));
    const match = service.match(created.matchId);
    expect(match?.status).toBe('finished');
    expect(match?.result?.finish_reason).toBe('max_year');
    const placements = ((match?.result?.placements ?? []) as { placement: number }[]).map((p) => p.placement);
    expect(placements).toHaveLength(7);
    expect(placements).toContain(1);
    const events = service.matchEvents(created.matchId);
    expect(events.filter((e) => e.type === 'phase_resolved').length).toBeGreaterThanOrEqual(4);
    expect(events.some((e) => e.type === 'phase_submission' && e.isAuto)).toBe(true);
    expect(events.some((e) => e.type === 'press_delivered')).toBe(true);
    expect(match?.summary?.supply_center_counts).toBeTypeOf('object');
  });

  it('seals batches, delivers press after the barrier and serves the slim projection', { timeout: 60_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'diplomacy',
      seats: Array.from({ length: 7 }, (_, i) => ({ name: `dip-seal-${i}` })),
      seed: 'sealed-diplomacy',
      waitForConnect: false,
    });
    const base = service.agentEnvironment(created.seats[0]?.token as string).CLAWARENA_BASE_URL as string;
    const clients = created.seats.map((s) => new ValidatingClient(base, s.token));
    const polls = async () =>
      Promise.all(
        clients.map(async (c) => (await c.poll({ wait: 0, snapshot: 'full' })).body as Poll & { state: Record<string, unknown> }),
      );
    let now = await polls();
    const powerOf = now.map((p) => p.state.power as string);
    const first = clients[0] as ValidatingClient;
    const to = powerOf[1] as string;
    // Round 1: seat 0 writes to seat 1; nobody sees it before the round closes.
    // The wrong action for the phase is a conflict with a code, not a 400 that would blacklist the action.
    const early = await first.act({ action: 'submit_orders', params: { orders: [] }, idempotency_key: 'too-early' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('stale_phase');
    const press = { action: 'send_press', params: { messages: [{ to_power: to, content: 'Let us split the Balkans.' }] } };
    expect((await first.act({ ...press, idempotency_key: 'press-1' })).status).toBe(200);
    now = await polls();
    expect(now[1]?.state.messages_received).toEqual([]);
    expect(now[0]?.action_pending).toBe(true);
    for (const [i, c] of clients.entries()) {
      if (i > 0) expect((await c.act({ action: 'send_press', params: { messages: [] }, idempotency_key: `p1-${i}` })).status).toBe(200);
    }
    now = await polls();
    expect(now[1]?.state.phase_key).toBe('S1901M-N2');
    expect(now[1]?.state.messages_received).toEqual([
      expect.objectContaining({ from_power: powerOf[0], content: 'Let us split the Balkans.' }),
    ]);
    expect(now[2]?.state.messages_received).toEqual([]);
    for (const [i, c] of clients.entries()) await c.act({ action: 'send_press', params: { messages: [] }, idempotency_key: `p2-${i}` });
    now = await polls();
    expect(now[0]?.state.phase_type).toBe('movement');
    // Sealed batches: an exact replay (new key) is 200 again, a different batch is 409 phase_submission_sealed.
    const batch = { action: 'submit_orders', params: { use_server_default: true } };
    expect((await first.act({ ...batch, idempotency_key: 'm-1' })).status).toBe(200);
    const replay = await first.act({ ...batch, idempotency_key: 'm-2' });
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    const other = await first.act({ action: 'submit_orders', params: { orders: [] }, idempotency_key: 'm-3' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('phase_submission_sealed');
    const bad = await (clients[1] as ValidatingClient).act({
      action: 'submit_orders',
      params: { orders: [{ type: 'MOVE', origin: 'XYZ', destination: 'NWY' }] },
      idempotency_key: 'm-bad',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('unknown_diplomacy_province');
    const slim = (await first.poll({ wait: 0, snapshot: 'slim' })).body as Poll & { state: Record<string, unknown>; snapshot_mode: string };
    expect(slim.snapshot_mode).toBe('slim');
    expect(slim.state).not.toHaveProperty('public_history');
    expect(slim.state.decision_context_epoch).toBe('S1901M');
    expect((await first.poll({ wait: 0, snapshot: 'full' })).body.state).toHaveProperty('public_history');
    expect(validationFailures).toEqual([]);
  });
});
