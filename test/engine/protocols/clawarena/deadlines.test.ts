// Deadlines on the injected clock: a silent seat gets its deterministic default move (is_auto in events) and every
// game still finishes; a late submission is stale; scheduled matches start without a missing seat after a timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../../engine/core/clock.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { fallbackMove, type Poll, scheduledMatch, ValidatingClient, validationFailures } from './helpers.js';

const clock = createManualClock(Date.parse('2026-03-01T12:00:00.000Z'));
let server: TestServer;
let c: ValidatingClient;

beforeAll(async () => {
  server = await startTestServer({ clock });
  c = new ValidatingClient(`${server.url}/api/v1`);
});
afterAll(async () => {
  await server.close();
  expect(validationFailures).toEqual([]);
});

/** Advances past every open deadline until the match is over, optionally letting `active` seats play. */
async function runOut(tokens: string[], stepMs: number, active: string[] = [], limit = 3000): Promise<Poll> {
  const matchId = (await c.poll({}, tokens[0])).body.match_id as number;
  for (let i = 0; i < limit; i++) {
    for (const token of active) {
      const poll = (await c.poll({}, token)).body;
      if (poll.is_your_turn) expect((await c.act(fallbackMove(poll), token)).status).toBe(200);
    }
    if (server.engine.clawarena.match(matchId)?.status === 'finished') return (await c.poll({}, tokens[0])).body;
    clock.advance(stepMs);
    server.engine.clawarena.tick();
  }
  throw new Error('match did not finish');
}

describe("Liar's Dice deadlines", () => {
  it('gives the deadline 60 s after the window opened, on the injected clock', async () => {
    const [a, b] = scheduledMatch(server.engine.clawarena, 'ld-clock') as [string, string];
    const polls = [(await c.poll({}, a)).body, (await c.poll({}, b)).body];
    const mover = polls.find((p) => p.is_your_turn) as Poll;
    expect(mover.turn_deadline).toBe(new Date(clock.now() + 60_000).toISOString());
  });

  it('moves for a silent seat (challenge once a bid stands) and the match finishes', async () => {
    const tokens = scheduledMatch(server.engine.clawarena, 'ld-silent');
    const polls = await Promise.all(tokens.map(async (t) => ({ t, p: (await c.poll({}, t)).body })));
    const active = polls.find((x) => x.p.is_your_turn)?.t as string;
    const silent = tokens.find((t) => t !== active) as string;
    expect((await c.act({ action: 'bid', params: { quantity: 2, face: 5 } }, active)).status).toBe(200);
    const waiting = (await c.poll({}, silent)).body;
    expect(waiting.is_your_turn).toBe(true);
    clock.advance(59_000);
    server.engine.clawarena.tick();
    expect((await c.poll({}, silent)).body.is_your_turn).toBe(true);
    clock.advance(2_000);
    // No tick: the next request applies due deadlines itself.
    const done = (await c.poll({ since_seq: 0 }, active)).body;
    expect(done.status).toBe('finished');
    const challenge = done.events.find((e) => e.type === 'challenge');
    expect(challenge).toMatchObject({ is_auto: true, bid_quantity: 2, bid_face: 5 });
    expect(done.events.find((e) => e.type === 'bid')?.is_auto).toBe(false);
    // The silent seat wakes up too late: its window has closed.
    const late = await c.act({ action: 'bid', params: { quantity: 3, face: 5 }, action_window_id: waiting.action_window_id }, silent);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('no_active_match');
  });

  it('plays the opening default 1 x 2 for a silent first player, and a late action is stale', async () => {
    const tokens = scheduledMatch(server.engine.clawarena, 'ld-late');
    const polls = await Promise.all(tokens.map(async (t) => ({ t, p: (await c.poll({}, t)).body })));
    const first = polls.find((x) => x.p.is_your_turn) as { t: string; p: Poll };
    clock.advance(60_001);
    server.engine.clawarena.tick();
    const after = (await c.poll({ since_seq: 0 }, first.t)).body;
    expect(after.events.find((e) => e.type === 'bid')).toMatchObject({ is_auto: true, quantity: 1, face_value: 2 });
    const late = await c.act({ action: 'bid', params: { quantity: 2, face: 2 } }, first.t);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('stale_action_window');
  });
});

describe('every game finishes when seats go silent', () => {
  it('Claw Vegas: the most-rolled face is placed for silent seats until the last round settles', async () => {
    const tokens = scheduledMatch(server.engine.clawarena, 'vegas-silent', 'las_vegas', 4);
    const done = await runOut(tokens, 90_001, [tokens[0] as string]);
    expect(done.result?.placements.map((p) => p.placement).sort()).toEqual([1, 2, 3, 4]);
    // The poll carries the latest 100 public events; the full log is kept per match.
    expect((await c.poll({ since_seq: 0 }, tokens[1])).body.events.length).toBeLessThanOrEqual(100);
    const log = server.engine.clawarena.matchEvents(done.match_id as number);
    const places = log.filter((e) => e.type === 'place');
    expect(places.some((e) => e.isAuto)).toBe(true);
    expect(places.some((e) => !e.isAuto)).toBe(true);
    expect(log.filter((e) => e.type === 'round_settled')).toHaveLength(4);
    expect(log.map((e) => e.eventSeq)).toEqual(log.map((_, i) => i + 1));
  });

  it('Mafia: silence skips chat, abstains and does nothing at night, and the day limit ends the match', async () => {
    const created = server.engine.clawarena.createMatch({
      gameType: 'mafia',
      seats: Array.from({ length: 6 }, (_, i) => ({ name: `mafia-silent-${i}` })),
      waitForConnect: false,
      options: { max_days: 2 },
    });
    const tokens = created.seats.map((s) => s.token);
    const done = await runOut(tokens, 60_001);
    expect(done.result?.finish_reason).toBe('day_limit');
    const events = (await c.poll({ since_seq: 0 }, tokens[0])).body.events;
    expect(events.filter((e) => e.type === 'chat_skipped').every((e) => e.is_auto === true)).toBe(true);
    expect(events.some((e) => e.type === 'chat_skipped')).toBe(true);
    const votes = events.find((e) => e.type === 'vote_result') as { events: { type: string; is_auto?: boolean; target_id?: unknown }[] };
    expect(votes.events.filter((v) => v.type === 'vote').every((v) => v.is_auto === true && v.target_id === null)).toBe(true);
  });

  it('applies per-match deadline overrides from the match options', async () => {
    const created = server.engine.clawarena.createMatch({
      gameType: 'liars_dice',
      seats: [{ name: 'fast-0' }, { name: 'fast-1' }],
      waitForConnect: false,
      options: { timeouts_ms: { turn: 5_000 } },
    });
    const poll = (await c.poll({}, created.seats[0]?.token)).body;
    expect(Date.parse(poll.turn_deadline as string) - clock.now()).toBe(5_000);
  });
});

describe('scheduled match start', () => {
  it('waits for every seat to connect, but starts after the start timeout without the missing one', async () => {
    const created = server.engine.clawarena.createMatch({
      gameType: 'liars_dice',
      seats: [{ name: 'start-0' }, { name: 'start-1' }],
      startTimeoutMs: 30_000,
    });
    const [present, absent] = created.seats.map((s) => s.token) as [string, string];
    const matched = (await c.poll({}, present)).body;
    expect(matched).toMatchObject({ status: 'matched', is_your_turn: false, match_id: created.matchId });
    clock.advance(30_001);
    server.engine.clawarena.tick();
    const started = (await c.poll({}, present)).body;
    expect(started.status).toBe('playing');
    const done = await runOut([present, absent], 60_001);
    expect(done.status).toBe('finished');
  });

  it('starts as soon as every seat has connected', async () => {
    const created = server.engine.clawarena.createMatch({ gameType: 'liars_dice', seats: [{ name: 'both-0' }, { name: 'both-1' }] });
    const [a, b] = created.seats.map((s) => s.token) as [string, string];
    expect((await c.poll({}, a)).body.status).toBe('matched');
    expect((await c.poll({}, b)).body.status).toBe('playing');
    expect((await c.poll({}, a)).body.status).toBe('playing');
  });
});
