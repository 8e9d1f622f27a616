// GET /agents/game/: lobby seating, the envelope rules, long-poll blocking and waking, query parameters, cursors,
// one-shot guidance, and `finished` persisting until the next match.
import { describe, expect, it } from 'vitest';
import { fallbackMove, seatThroughLobby, turnHolder } from './helpers.js';
import { setUpClawHttp } from './http-setup.js';

const http = setUpClawHttp({ expectValid: true });

function pair(prefix: string, game = 'liars_dice') {
  return [0, 1].map((i) => http.server.engine.clawarena.createAgent({ name: `${prefix}-${i}`, preferredGameType: game }).token);
}

/** Plays the current match to its end with server fallbacks; no seat polls again after it has seen the result. */
async function playOut(tokens: string[]): Promise<void> {
  const done = new Set<string>();
  for (let i = 0; i < 500 && done.size < tokens.length; i++) {
    for (const token of tokens) {
      if (done.has(token)) continue;
      const poll = (await http.client.poll({}, token)).body;
      if (poll.status === 'finished') done.add(token);
      else if (poll.is_your_turn) expect((await http.client.act(fallbackMove(poll), token)).status).toBe(200);
    }
  }
  if (done.size < tokens.length) throw new Error('match did not end');
}

describe('lobby and envelope', () => {
  it('reports idle for an agent without a lobby game, waiting while queued, then seats two agents together', async () => {
    const { token: loner } = http.server.engine.clawarena.createAgent({ name: 'loner' });
    const idle = (await http.client.poll({}, loner)).body;
    expect(idle).toMatchObject({ status: 'idle', is_your_turn: false, legal_actions: [] });
    const [a, b] = pair('lobby') as [string, string];
    const waiting = (await http.client.poll({}, a)).body;
    expect(waiting).toMatchObject({ status: 'waiting', is_your_turn: false, game_type: 'liars_dice' });
    const seatedB = (await http.client.poll({}, b)).body;
    const seatedA = (await http.client.poll({}, a)).body;
    expect(seatedA.status).toBe('playing');
    expect(seatedA.match_id).toBe(seatedB.match_id);
    expect([seatedA.is_your_turn, seatedB.is_your_turn].sort()).toEqual([false, true]);
    const mover = seatedA.is_your_turn ? seatedA : seatedB;
    const other = seatedA.is_your_turn ? seatedB : seatedA;
    expect(mover.legal_actions.map((x) => x.action)).toEqual(['bid']);
    expect(other.legal_actions).toEqual([]);
    expect(mover.turn_deadline).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(mover.turn_deadline as string) - Date.now()).toBeGreaterThan(50_000);
    expect(mover.state.your_dice).not.toEqual(undefined);
    expect(JSON.stringify(mover)).not.toContain(JSON.stringify(other.state.your_dice));
    for (const poll of [mover, other]) {
      expect(poll.legal_actions.every((x) => x.hint.server_fallback && Array.isArray((x as { hints?: unknown[] }).hints))).toBe(true);
      expect(poll).toHaveProperty('game_rules_brief.title');
      expect(poll.agent_preferences).toMatchObject({ report_level: 'silent', strategy_self_learning_enabled: false });
    }
  });

  it('rejects malformed query parameters with 400 and accepts every documented form', async () => {
    const { token: a } = http.server.engine.clawarena.createAgent({ name: 'query-subject' });
    const badQueries: Record<string, string | number>[] = [
      { wait: 31 },
      { wait: 'soon' },
      { snapshot: 'huge' },
      { consume_history: 2 },
      { resync: 'yes' },
      { since_seq: -1 },
      { context_id: 'x'.repeat(129) },
    ];
    for (const query of badQueries) {
      const res = await http.client.call('GET', '/agents/game/', { query, token: a });
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'invalid_payload' });
    }
    const ok = await http.client.call<{ snapshot_mode: string }>('GET', '/agents/game/', {
      token: a,
      query: {
        wait: 0,
        snapshot: 'slim',
        consume_history: 0,
        consume_preferences: 0,
        resync: 0,
        context_id: 'k'.repeat(128),
        since_seq: 0,
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.snapshot_mode).toBe('slim');
    const bare = await http.client.call<{ snapshot_mode: string }>('GET', '/agents/game/', { token: a, query: { wait: 0 } });
    expect(bare.body.snapshot_mode).toBe('slim');
  });
});

describe('long-poll', () => {
  it('blocks a seat that is not actionable and wakes it as soon as its turn comes', async () => {
    const tokens = pair('wake');
    await seatThroughLobby(http.client, tokens);
    const holder = await turnHolder(http.client, tokens);
    if (!holder) throw new Error('nobody to move');
    const waiter = tokens.find((t) => t !== holder.token) as string;
    await http.client.poll({}, waiter);
    const started = Date.now();
    const parked = http.client.poll({ wait: 20 }, waiter);
    await new Promise((r) => setTimeout(r, 300));
    expect(http.server.engine.clawarena.waitingPolls()).toBe(1);
    expect((await http.client.act(fallbackMove(holder.poll), holder.token)).status).toBe(200);
    const woke = (await parked).body;
    expect(woke.is_your_turn).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(5000);
    // An actionable seat is answered at once even with a long wait; wait=0 never blocks.
    const fast = Date.now();
    expect((await http.client.poll({ wait: 20 }, waiter)).body.is_your_turn).toBe(true);
    expect((await http.client.poll({ wait: 0 }, holder.token)).body.is_your_turn).toBe(false);
    expect(Date.now() - fast).toBeLessThan(1000);
  });

  it('releases a parked poll when the client hangs up', async () => {
    const [lonely] = pair('hangup', 'mafia') as [string, string];
    await http.client.poll({}, lonely);
    const abort = new AbortController();
    const parked = fetch(`${http.server.url}/api/v1/agents/game/?wait=20`, {
      headers: { authorization: `Bearer ${lonely}` },
      signal: abort.signal,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(http.server.engine.clawarena.waitingPolls()).toBe(1);
    abort.abort();
    await expect(parked).rejects.toThrow();
    for (let i = 0; i < 50 && http.server.engine.clawarena.waitingPolls() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(http.server.engine.clawarena.waitingPolls()).toBe(0);
  });

  it('returns when the wait elapses with nothing new', async () => {
    const [lonely] = pair('elapsed', 'mafia') as [string, string];
    await http.client.poll({}, lonely);
    const started = Date.now();
    const res = (await http.client.poll({ wait: 1 }, lonely)).body;
    expect(res.status).toBe('waiting');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

describe('cursors, events and guidance', () => {
  it('advances the event cursor only with consume_history=1 and honours since_seq', async () => {
    const tokens = pair('cursor');
    await seatThroughLobby(http.client, tokens);
    const t = tokens[0] as string;
    const peek1 = (await http.client.poll({ consume_history: 0 }, t)).body;
    const peek2 = (await http.client.poll({ consume_history: 0 }, t)).body;
    expect(peek1.events.length).toBeGreaterThan(0);
    expect(peek2.events).toEqual(peek1.events);
    await http.client.poll({ consume_history: 1 }, t);
    expect((await http.client.poll({ consume_history: 0 }, t)).body.events).toEqual([]);
    const since = (await http.client.poll({ since_seq: 0 }, t)).body.events;
    expect(since.map((e) => e.event_seq)).toEqual(peek1.events.map((e) => e.event_seq));
    expect(since.every((e) => typeof e.is_auto === 'boolean' && typeof e.type === 'string')).toBe(true);
  });

  it('delivers owner guidance once per match when opted in, and again after a resync', async () => {
    const tokens = pair('guided');
    const agent = http.server.engine.clawarena.agentByName('guided-0');
    http.server.engine.clawarena.updateAgent(agent?.agentId as number, {
      preferences: { strategy_hint: 'Bluff early.', risk_profile: 'aggressive' },
    });
    await seatThroughLobby(http.client, tokens);
    const t = tokens[0] as string;
    expect((await http.client.poll({}, t)).body.agent_preferences).not.toHaveProperty('current_strategy_hint');
    const first = (await http.client.poll({ consume_preferences: 1 }, t)).body.agent_preferences;
    expect(first).toMatchObject({ current_strategy_hint: 'Bluff early.', current_risk_profile: 'aggressive' });
    expect((await http.client.poll({ consume_preferences: 1 }, t)).body.agent_preferences).not.toHaveProperty('current_strategy_hint');
    const resync = (await http.client.poll({ consume_preferences: 1, resync: 1, context_id: 'ctx-a' }, t)).body;
    expect(resync.resynced).toBe(true);
    expect(resync.agent_preferences).toHaveProperty('current_strategy_hint', 'Bluff early.');
    http.server.engine.clawarena.updateAgent(agent?.agentId as number, { preferences: { strategy_hint: '', risk_profile: '' } });
    expect((await http.client.poll({ consume_preferences: 1 }, t)).body.agent_preferences).toHaveProperty(
      'current_strategy_hint_cleared',
      true,
    );
  });
});

describe('finished matches', () => {
  it('keep answering finished with the result until the agent is seated again', async () => {
    const tokens = pair('finish');
    const [a, b] = tokens as [string, string];
    const [first] = await seatThroughLobby(http.client, tokens);
    await playOut(tokens);
    // Repeated peeks keep the finished projection (the watcher's background peek must not consume it).
    for (let i = 0; i < 3; i++) {
      const done = (await http.client.poll({ wait: 0, consume_history: 0, consume_preferences: 0 }, a)).body;
      expect(done.status).toBe('finished');
      expect(done.match_id).toBe(first?.match_id);
      expect(done.is_your_turn).toBe(false);
      expect(done.legal_actions).toEqual([]);
      expect(done.result?.placements.map((p) => p.placement).sort()).toEqual([1, 2]);
      expect(done.state.revealed_dice).toBeTypeOf('object');
      expect(done.summary).toHaveProperty('challenge');
    }
    // Polling again after seeing the result re-enters the lobby; once both are back, a new match starts.
    const next = (await http.client.poll({}, b)).body;
    expect(next.status).toBe('playing');
    expect(next.match_id).toBeGreaterThan(first?.match_id as number);
    expect((await http.client.poll({}, a)).body.match_id).toBe(next.match_id);
  });

  it('do not requeue an agent that never came back after seeing the result', async () => {
    const tokens = pair('oneshot');
    await seatThroughLobby(http.client, tokens);
    await playOut(tokens);
    // Only the first agent sees the result (twice); the second one "exited" before its last poll.
    const [a] = tokens as [string, string];
    await http.client.poll({}, a);
    const still = (await http.client.poll({}, a)).body;
    expect(still.status).toBe('finished');
    expect(still).toHaveProperty('result');
  });
});
