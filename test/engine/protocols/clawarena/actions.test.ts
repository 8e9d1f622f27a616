// POST /agents/action/: idempotency (replay, key reuse), window conflicts, barrier submissions, and bad input that
// gets the documented error shape without changing any game state.
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../../engine/runtime/known-secrets.js';
import { type Exchange, fallbackMove, type Poll, scheduledMatch, turnHolder } from './helpers.js';
import { setUpClawHttp } from './http-setup.js';

const http = setUpClawHttp({ expectValid: true });

let counter = 0;
async function liarsMatch() {
  counter++;
  const tokens = scheduledMatch(http.server.engine.clawarena, `act-${counter}`);
  const holder = await turnHolder(http.client, tokens);
  if (!holder) throw new Error('no seat to move');
  return { mover: holder.token, moverPoll: holder.poll, other: tokens.find((t) => t !== holder.token) as string };
}

/** Everything the seats can observe about the match (cursors aside). */
async function observable(tokens: string[]) {
  const out: unknown[] = [];
  for (const t of tokens) {
    const p = (await http.client.poll({ since_seq: 0 }, t)).body;
    out.push({
      seq: p.seq,
      window: p.action_window_id,
      eventSeq: p.event_seq,
      state: p.state,
      legal: p.legal_actions,
      events: p.events.length,
    });
  }
  return out;
}

function expectError(res: Exchange, status: number, code: string) {
  expect({ status: res.status, code: res.body.code, shape: res.body.status }).toEqual({ status, code, shape: 'error' });
  expect(typeof res.body.message).toBe('string');
}

describe('secrets in what an agent says', () => {
  it('are scrubbed before the table, the record or the acknowledgement sees them', async () => {
    registerSecret('CLAW_TEST_KEY', 'sk-claw-secret-9a8b7c');
    const { mover, other } = await liarsMatch();
    const res = await http.client.act({ action: 'bid', params: { quantity: 1, face: 3, message: 'my key: sk-claw-secret-9a8b7c' } }, mover);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('sk-claw-secret');
    const seen = JSON.stringify((await http.client.poll({ since_seq: 0 }, other)).body);
    expect(seen).toContain('<secret:CLAW_TEST_KEY>');
    expect(seen).not.toContain('sk-claw-secret');
  });
});

describe('idempotency', () => {
  it('replays the stored response for the same key and payload, with no second move, even after the window moved on', async () => {
    const { mover, other } = await liarsMatch();
    const move = { action: 'bid', params: { quantity: 1, face: 3 }, idempotency_key: 'k-1' };
    const first = await http.client.act(move, mover);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'ok', ack_type: 'liars_dice_action_ack', action: 'bid' });
    const before = await observable([mover, other]);
    const replay = await http.client.act({ ...move, params: { face: 3, quantity: 1 }, memo: 'ignored and never hashed' }, mover);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await observable([mover, other])).toEqual(before);
    // The opponent moves on; the old key still replays.
    const turn = (await http.client.poll({}, other)).body;
    expect((await http.client.act(fallbackMove(turn), other)).status).toBe(200);
    const late = await http.client.act(move, mover);
    expect(late.status).toBe(200);
    expect(late.body).toEqual(first.body);
  });

  it('answers 409 idempotency_key_reused for the same key with another payload', async () => {
    const { mover } = await liarsMatch();
    expect((await http.client.act({ action: 'bid', params: { quantity: 1, face: 4 }, idempotency_key: 'k-2' }, mover)).status).toBe(200);
    expectError(
      await http.client.act({ action: 'bid', params: { quantity: 2, face: 4 }, idempotency_key: 'k-2' }, mover),
      409,
      'idempotency_key_reused',
    );
  });

  it('does not reserve a key on a 4xx', async () => {
    const { mover } = await liarsMatch();
    expectError(
      await http.client.act({ action: 'bid', params: { quantity: 99, face: 4 }, idempotency_key: 'k-3' }, mover),
      400,
      'invalid_bid',
    );
    expect((await http.client.act({ action: 'bid', params: { quantity: 2, face: 4 }, idempotency_key: 'k-3' }, mover)).status).toBe(200);
  });

  it('scopes keys per agent', async () => {
    const { mover, other } = await liarsMatch();
    expect((await http.client.act({ action: 'bid', params: { quantity: 1, face: 5 }, idempotency_key: 'shared' }, mover)).status).toBe(200);
    const poll = (await http.client.poll({}, other)).body;
    expect((await http.client.act({ ...fallbackMove(poll), idempotency_key: 'shared' }, other)).status).toBe(200);
  });
});

describe('decision windows', () => {
  it('answers a second action in the same window with 409 action_already_queued', async () => {
    const { mover } = await liarsMatch();
    expect((await http.client.act({ action: 'bid', params: { quantity: 1, face: 6 } }, mover)).status).toBe(200);
    expectError(
      await http.client.act({ action: 'bid', params: { quantity: 3, face: 6 }, idempotency_key: 'fresh' }, mover),
      409,
      'action_already_queued',
    );
  });

  it('answers not_your_turn, stale_action_window and no_active_match', async () => {
    const { mover, other, moverPoll } = await liarsMatch();
    expectError(await http.client.act({ action: 'bid', params: { quantity: 1, face: 2 } }, other), 409, 'not_your_turn');
    expectError(
      await http.client.act({ action: 'bid', params: { quantity: 1, face: 2 }, action_window_id: '99999:1' }, mover),
      409,
      'stale_action_window',
    );
    expect(
      (await http.client.act({ action: 'bid', params: { quantity: 1, face: 2 }, action_window_id: moverPoll.action_window_id }, mover))
        .status,
    ).toBe(200);
    const next = (await http.client.poll({}, other)).body;
    expect(next.action_window_id).not.toBe(moverPoll.action_window_id);
    expectError(
      await http.client.act({ action: 'challenge', params: {}, action_window_id: moverPoll.action_window_id }, other),
      409,
      'stale_action_window',
    );
    const { token: idle } = http.server.engine.clawarena.createAgent({ name: 'no-match' });
    expectError(await http.client.act({ action: 'bid', params: { quantity: 1, face: 2 } }, idle), 409, 'no_active_match');
  });

  it('holds a barrier submission as action_pending with no legal actions, blocks its long-poll, and refuses a second vote', async () => {
    const created = http.server.engine.clawarena.createMatch({
      gameType: 'mafia',
      seats: Array.from({ length: 6 }, (_, i) => ({ name: `barrier-${i}` })),
      waitForConnect: false,
      seed: 'barrier-seed',
    });
    const polls: { token: string; poll: Poll }[] = [];
    for (const seat of created.seats) polls.push({ token: seat.token, poll: (await http.client.poll({}, seat.token)).body });
    const actors = polls.filter((p) => p.poll.is_your_turn);
    expect(actors.length).toBe(4);
    expect(polls.filter((p) => !p.poll.is_your_turn).every((p) => p.poll.legal_actions.length === 0 && !p.poll.action_pending)).toBe(true);
    const [first, second] = actors as [(typeof actors)[0], (typeof actors)[0]];
    const ack = await http.client.act(fallbackMove(first.poll), first.token);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ ack_type: 'mafia_action_ack', action_pending: true });
    const pending = (await http.client.poll({}, first.token)).body;
    expect(pending).toMatchObject({ is_your_turn: false, action_pending: true, legal_actions: [] });
    expect(pending.action_window_id).toBe(first.poll.action_window_id);
    const target = first.poll.legal_actions[0]?.hint.targets as { agent_id: number }[];
    expectError(
      await http.client.act({ action: 'night_action', params: { target_id: target[1]?.agent_id } }, first.token),
      409,
      'action_already_queued',
    );
    // An exact replay of the accepted submission (same key) is still a 200.
    const keyed = await http.client.act({ ...fallbackMove(second.poll), idempotency_key: 'night-1' }, second.token);
    expect(keyed.status).toBe(200);
    expect((await http.client.act({ ...fallbackMove(second.poll), idempotency_key: 'night-1' }, second.token)).body).toEqual(keyed.body);
    const started = Date.now();
    const parked = await http.client.poll({ wait: 1 }, first.token);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(parked.body.action_pending).toBe(true);
  });
});

describe('bad input', () => {
  it('gets the documented error shape, never 401/403, and never changes the game state', async () => {
    const { mover, other } = await liarsMatch();
    const before = await observable([mover, other]);
    const cases: [string, { raw?: string; body?: unknown }, number, string][] = [
      ['unknown action', { body: { action: 'fold', params: {} } }, 400, 'unknown_action'],
      ['internal action name', { body: { action: 'skip_chat', params: {} } }, 400, 'unknown_action'],
      ['params of the wrong type', { body: { action: 'bid', params: { quantity: 'three', face: 2 } } }, 400, 'invalid_params'],
      ['missing param', { body: { action: 'bid', params: { face: 2 } } }, 400, 'invalid_params'],
      ['fractional quantity', { body: { action: 'bid', params: { quantity: 1.5, face: 2 } } }, 400, 'invalid_params'],
      ['quantity out of range', { body: { action: 'bid', params: { quantity: 11, face: 2 } } }, 400, 'invalid_bid'],
      ['face out of range', { body: { action: 'bid', params: { quantity: 2, face: 0 } } }, 400, 'invalid_bid'],
      ['message too long', { body: { action: 'bid', params: { quantity: 2, face: 2, message: 'm'.repeat(141) } } }, 400, 'invalid_params'],
      ['challenge before any bid', { body: { action: 'challenge', params: {} } }, 400, 'nothing_to_challenge'],
      ['invalid JSON', { raw: '{"action": "bid",' }, 400, 'invalid_payload'],
      ['array body', { body: [1, 2] }, 400, 'invalid_payload'],
      ['missing action', { body: { params: {} } }, 400, 'invalid_payload'],
      ['empty action', { body: { action: '', params: {} } }, 400, 'invalid_payload'],
      ['params not an object', { body: { action: 'bid', params: [1, 2] } }, 400, 'invalid_payload'],
      [
        'key too long',
        { body: { action: 'bid', params: { quantity: 1, face: 2 }, idempotency_key: 'k'.repeat(161) } },
        400,
        'invalid_payload',
      ],
      ['stale window', { body: { action: 'bid', params: { quantity: 1, face: 2 }, action_window_id: '1:0' } }, 409, 'stale_action_window'],
    ];
    for (const [label, input, status, code] of cases) {
      const res = await http.client.call('POST', '/agents/action/', { token: mover, body: input.body, rawBody: input.raw });
      expect({ label, status: res.status, code: res.body.code }).toEqual({ label, status, code });
      expect([401, 403]).not.toContain(res.status);
    }
    const bid = (await http.client.act({ action: 'bid', params: { quantity: 3, face: 4 } }, mover)).status;
    expect(bid).toBe(200);
    const lower = await http.client.act({ action: 'bid', params: { quantity: 2, face: 6 } }, other);
    expectError(lower, 400, 'bid_not_higher');
    const after = await observable([mover, other]);
    expect(after).not.toEqual(before);
    // Only the one legal bid changed the game: replaying the same rejected inputs changes nothing further.
    for (const [label, input] of cases) {
      if (label === 'challenge before any bid') continue;
      const res = await http.client.call('POST', '/agents/action/', { token: other, body: input.body, rawBody: input.raw });
      expect(res.status, label).toBeGreaterThanOrEqual(400);
    }
    expect(await observable([mover, other])).toEqual(after);
  });

  it('accepts integral numbers sent as strings, as LLM clients often do', async () => {
    const { mover } = await liarsMatch();
    expect((await http.client.act({ action: 'bid', params: { quantity: '2', face: '3' } }, mover)).status).toBe(200);
  });
});
