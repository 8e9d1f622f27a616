// A full 4-seat Clawpoly match over real HTTP: three baseline agents (Python and Node) and one seat driven by this test
// through the validating client (ajv against the published schemas and OpenAPI on every response). The test seat
// compares every poll with the shape of the published monopoly_turn fixture, stays silent on one decision (the
// deadline applies the advisor's recommended_action, flagged is_auto), and otherwise plays the advisor's move.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MonopolyStateSchema } from '../../../../engine/contract/clawarena.js';
import { CONFORMANCE, type Poll, ValidatingClient, validationFailures } from './helpers.js';
import { expectBaselinesClean, setUpClawHttp, shapeProblems, startBaselines } from './http-setup.js';

interface FixtureAction {
  action: string;
  params: Record<string, unknown>;
  hint: Record<string, unknown>;
}
const FIXTURE = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'fixtures', 'monopoly_turn.json'), 'utf8')) as {
  state: Record<string, unknown>;
  legal_actions: FixtureAction[];
};

const http = setUpClawHttp();

describe('Clawpoly over HTTP', () => {
  it('three baselines and one test-driven seat play a whole match to the turn limit', { timeout: 180_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'monopoly',
      seats: Array.from({ length: 4 }, (_, i) => ({ name: `poly-${i < 3 ? (i % 2 === 0 ? 'py' : 'node') : 'test'}-${i}` })),
      seed: 'full-clawpoly',
      options: { max_turns: 32, timeouts_ms: { routine: 2500, tactical: 2500, strategic: 2500 } },
    });
    const agents = startBaselines(http, created.seats.slice(0, 3), (i) => (i % 2 === 0 ? 'python' : 'node'));
    const mine = created.seats[3] as { token: string };
    const client = new ValidatingClient(service.agentEnvironment(mine.token).CLAWARENA_BASE_URL as string, mine.token);

    const problems: string[] = [];
    const phases = new Set<string>();
    const tiers = new Set<string>();
    let silent: { window: string; recommended: Record<string, unknown>; agentId: number } | null = null;
    let fixtureCompared = 0;
    let last: (Poll & { state: Record<string, unknown> }) | null = null;
    for (let i = 0; i < 3000; i++) {
      const poll = (await client.poll({ wait: 10, snapshot: 'full' })).body as Poll & { state: Record<string, unknown> };
      last = poll;
      if (poll.status === 'finished') break;
      if (poll.status !== 'playing' || !poll.is_your_turn) continue;
      const state = poll.state;
      phases.add(state.turn_phase as string);
      const advice = state.heuristic_advice as { recommended_action: Record<string, unknown>; confidence: { tier: string } };
      tiers.add(advice.confidence.tier);
      // The advisor's recommendation is always one of the legal actions.
      expect(poll.legal_actions.map((a) => a.action)).toContain(advice.recommended_action.action);
      problems.push(...shapeProblems(state, FIXTURE.state, 'state'));
      const read = MonopolyStateSchema.safeParse(state);
      if (!read.success) problems.push(`state reader: ${read.error.message}`);
      if (state.turn_phase === 'turn' && state.has_rolled_this_turn === false) {
        fixtureCompared++;
        problems.push(
          ...shapeProblems(
            state.roll_outlook as Record<string, unknown>,
            FIXTURE.state.roll_outlook as Record<string, unknown>,
            'roll_outlook',
          ),
        );
        problems.push(...shapeProblems(advice, FIXTURE.state.heuristic_advice as Record<string, unknown>, 'heuristic_advice'));
      }
      for (const ours of poll.legal_actions as unknown as FixtureAction[]) {
        const theirs = FIXTURE.legal_actions.find((a) => a.action === ours.action);
        if (!theirs) continue;
        problems.push(...shapeProblems(ours.params, theirs.params, `${ours.action}.params`));
        problems.push(...shapeProblems(ours.hint, theirs.hint, `${ours.action}.hint`));
      }
      if (!silent && state.turn_phase === 'turn' && (state.completed_turns as number) >= 4) {
        // Stay silent: the deadline applies the advisor's move for us.
        silent = {
          window: poll.action_window_id as string,
          recommended: advice.recommended_action,
          agentId: state.your_agent_id as number,
        };
        const started = Date.now();
        let next = poll;
        while (next.action_window_id === silent.window && Date.now() - started < 15_000) {
          next = (await client.poll({ wait: 5, snapshot: 'full' })).body as typeof poll;
        }
        expect(next.action_window_id).not.toBe(silent.window);
        continue;
      }
      const { action, ...params } = advice.recommended_action;
      const reply = await client.act({ action, params, idempotency_key: `${poll.seq}-test` });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    expect(last?.status).toBe('finished');
    await expectBaselinesClean(agents);

    expect(problems).toEqual([]);
    expect(validationFailures).toEqual([]);
    expect(fixtureCompared).toBeGreaterThan(0);
    expect(phases.has('turn')).toBe(true);
    expect(tiers.has('routine')).toBe(true);
    const match = service.match(created.matchId);
    expect(match?.status).toBe('finished');
    expect(['turn_limit', 'last_solvent_player']).toContain(match?.result?.finish_reason);
    const placements = ((match?.result?.placements ?? []) as { placement: number }[]).map((p) => p.placement);
    expect(placements.sort()).toEqual([1, 2, 3, 4]);
    const events = service.matchEvents(created.matchId);
    expect(events.filter((e) => e.type === 'end_turn').length).toBeGreaterThanOrEqual(20);
    // The silent seat's move was the advisor's, applied by the server.
    const auto = events.filter((e) => e.isAuto && (e.data as { agent_id?: number }).agent_id === silent?.agentId);
    expect(auto.length).toBeGreaterThan(0);
    const recommended = silent?.recommended.action as string;
    const typeOf: Record<string, string> = {
      roll: 'roll',
      end_turn: 'end_turn',
      manage_batch: 'management',
      buy_property: 'property_bought',
    };
    expect(auto[0]?.type).toBe(typeOf[recommended] ?? auto[0]?.type);
    expect(match?.summary?.net_worth).toBeTypeOf('object');
    expect(match?.summary?.property_changes).toBeInstanceOf(Array);
  });

  it('sets each deadline from the advisor tier: routine short, strategic 60 s for a trade response', { timeout: 60_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'monopoly',
      seats: Array.from({ length: 4 }, (_, i) => ({ name: `poly-tier-${i}` })),
      seed: 'tiers-clawpoly',
      // Routine is 1 s by default; 5 s here so that a loaded machine cannot miss the first window.
      options: { timeouts_ms: { routine: 5000 } },
      waitForConnect: false,
    });
    const base = service.agentEnvironment(created.seats[0]?.token as string).CLAWARENA_BASE_URL as string;
    const clients = created.seats.map((s) => new ValidatingClient(base, s.token));
    const remaining = (poll: Poll) => Date.parse(poll.turn_deadline as string) - Date.now();
    const first = (await (clients[0] as ValidatingClient).poll()).body as Poll & { state: Record<string, unknown> };
    expect(first.is_your_turn).toBe(true);
    const advice = first.state.heuristic_advice as { recommended_action: { action: string }; confidence: { tier: string } };
    expect(advice.recommended_action.action).toBe('roll');
    expect(advice.confidence.tier).toBe('routine');
    expect(remaining(first)).toBeLessThanOrEqual(5_000);
    // A trade offer puts the recipient on a strategic decision: 60 s.
    const target = (first.state.players as { agent_id: number }[])[1]?.agent_id as number;
    const theirs = (first.state.asset_summary as { agent_id: number; owned_assets: { space_id: number }[] }[]).find(
      (a) => a.agent_id === target,
    )?.owned_assets[0]?.space_id as number;
    const offer = await (clients[0] as ValidatingClient).act({
      action: 'propose_trade',
      params: { to_agent_id: target, offer_cash: 10, request_space_ids: [theirs] },
      idempotency_key: 'tier-trade',
    });
    expect(offer.status, JSON.stringify(offer.body)).toBe(200);
    const responder = (await (clients[1] as ValidatingClient).poll()).body as Poll & { state: Record<string, unknown> };
    expect(responder.is_your_turn).toBe(true);
    expect(responder.state.turn_phase).toBe('trade_response');
    expect((responder.state.heuristic_advice as { confidence: { tier: string } }).confidence.tier).toBe('strategic');
    expect(remaining(responder)).toBeGreaterThan(55_000);
    expect(remaining(responder)).toBeLessThanOrEqual(60_000);
    expect(responder.state.pending_trade).toMatchObject({ request_space_ids: [theirs], offer_cash: 10 });
    // The recipient's silence would mean the advisor's answer: a $10 bid for a deed is not worth it.
    expect((responder.state.heuristic_advice as { recommended_action: { action: string } }).recommended_action.action).toBe('reject_trade');
    expect(validationFailures).toEqual([]);
  });
});
