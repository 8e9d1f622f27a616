// snapshot=slim over real HTTP: Mafia's chat logs and Clawpoly's table talk, recent events and opening deal follow the
// delta conventions of spec §6.6 per context_id (full on the first consuming read, then only new entries, nothing when
// nothing is new), while snapshot=full keeps them whole. Every response is checked against the published schemas.
import { describe, expect, it } from 'vitest';
import { fallbackMove, scheduledMatch, turnHolder } from './helpers.js';
import { setUpClawHttp } from './http-setup.js';

const http = setUpClawHttp({ expectValid: true });

type State = Record<string, unknown> & { chat_log?: unknown[]; chat_log_delta?: unknown[]; chat_log_mode?: string };

describe('snapshot=slim', () => {
  it('Mafia: chat_log full once per context, then chat_log_delta with only the new entries', { timeout: 60_000 }, async () => {
    const tokens = scheduledMatch(http.server.engine.clawarena, 'slim-mafia', 'mafia', 6, 'slim-mafia-seed');
    const [watcher] = tokens as [string];
    const slim = async (query: Record<string, string | number> = {}) =>
      (await http.client.poll({ snapshot: 'slim', consume_history: 1, context_id: 'ctx-a', ...query }, watcher)).body.state as State;
    const full = async () => (await http.client.poll({ snapshot: 'full' }, watcher)).body.state as State;

    const first = await slim();
    expect(first.chat_log_mode).toBe('full');
    expect(Array.isArray(first.chat_log)).toBe(true);
    const again = await slim();
    expect(again).not.toHaveProperty('chat_log');
    expect(again).not.toHaveProperty('chat_log_delta');
    expect(again).not.toHaveProperty('chat_log_mode');

    // Play default moves until someone has spoken.
    const before = (await full()).chat_log?.length ?? 0;
    for (let i = 0; i < 60 && ((await full()).chat_log?.length ?? 0) <= before; i++) {
      const holder = await turnHolder(http.client, tokens);
      if (!holder) break;
      const move = fallbackMove(holder.poll);
      if (move.action === 'speak' || move.action === 'chat') move.params.message = `hello ${i}`;
      await http.client.act(move, holder.token);
    }
    const complete = (await full()).chat_log ?? [];
    expect(complete.length).toBeGreaterThan(before);
    expect((await full()).chat_log_mode).toBeUndefined();

    // A peek shows the delta without consuming it; the consuming read shows it again and advances.
    const peek = await slim({ consume_history: 0 });
    expect(peek.chat_log_mode).toBe('delta');
    const delta = await slim();
    expect(delta).not.toHaveProperty('chat_log');
    expect(delta.chat_log_mode).toBe('delta');
    expect(delta.chat_log_delta).toEqual(complete.slice(before));
    expect(peek.chat_log_delta).toEqual(delta.chat_log_delta);
    expect(await slim()).not.toHaveProperty('chat_log_delta');

    // Another context starts from the full log; a resync restarts this one.
    const other = await slim({ context_id: 'ctx-b' });
    expect(other.chat_log).toEqual(complete);
    expect(other.chat_log_mode).toBe('full');
    const resynced = await slim({ resync: 1 });
    expect(resynced.chat_log_mode).toBe('full');
    expect(resynced.chat_log).toEqual(complete);
  });

  it('Clawpoly: chat_log, recent_events and opening_deal_events whole once per context, then only what is new', {
    timeout: 60_000,
  }, async () => {
    const created = http.server.engine.clawarena.createMatch({
      gameType: 'monopoly',
      seats: Array.from({ length: 4 }, (_, i) => ({ name: `slim-poly-${i}` })),
      seed: 'slim-poly-seed',
      // No deadline may move the game between the reads this test compares.
      options: { timeouts_ms: { routine: 600_000, tactical: 600_000, strategic: 600_000 } },
      waitForConnect: false,
    });
    const tokens = created.seats.map((s) => s.token);
    const [watcher] = tokens as [string];
    const LOGS = ['chat_log', 'recent_events', 'opening_deal_events'];
    const slim = async (query: Record<string, string | number> = {}) =>
      (await http.client.poll({ snapshot: 'slim', consume_history: 1, context_id: 'poly', ...query }, watcher)).body as unknown as {
        snapshot_mode: string;
        state: Record<string, unknown>;
      };
    const full = async () => (await http.client.poll({ snapshot: 'full' }, watcher)).body.state as Record<string, unknown[]>;

    const first = await slim();
    expect(first.snapshot_mode).toBe('slim');
    const whole = await full();
    for (const key of LOGS) {
      expect(first.state[`${key}_mode`], key).toBe('full');
      expect(first.state[key], key).toEqual(whole[key]);
    }
    expect((whole.opening_deal_events ?? []).length).toBeGreaterThan(0);
    const again = (await slim()).state;
    for (const key of LOGS) {
      for (const k of [key, `${key}_delta`, `${key}_mode`]) expect(again, k).not.toHaveProperty(k);
    }
    // The rest of the projection is the full one.
    expect(again.heuristic_advice).toEqual(whole.heuristic_advice);
    expect(again.players).toEqual(whole.players);

    // A few moves, one of them with table talk, add events and one chat entry.
    const before = await full();
    for (let i = 0; i < 4; i++) {
      const holder = await turnHolder(http.client, tokens);
      if (!holder) break;
      const move = fallbackMove(holder.poll);
      if (i === 0) move.params.message = 'slim hello';
      expect((await http.client.act(move, holder.token)).status).toBe(200);
    }
    const after = await full();
    const delta = (await slim()).state;
    const tail = (key: string) => (after[key] ?? []).slice((after[key] ?? []).length - (delta[`${key}_delta`] as unknown[]).length);
    expect(delta.chat_log_mode).toBe('delta');
    expect(delta.chat_log_delta).toEqual([expect.objectContaining({ message: 'slim hello' })]);
    expect(delta.recent_events_mode).toBe('delta');
    expect((delta.recent_events_delta as unknown[]).length).toBeGreaterThan(0);
    expect(delta.recent_events_delta).toEqual(tail('recent_events'));
    expect(after.recent_events).not.toEqual(before.recent_events);
    expect(delta).not.toHaveProperty('opening_deal_events');
    expect(delta).not.toHaveProperty('opening_deal_events_delta');
    for (const key of LOGS) expect(delta, key).not.toHaveProperty(key);

    // snapshot=full is unaffected; a resync starts over with the whole logs.
    expect(after.chat_log?.length).toBe((before.chat_log?.length ?? 0) + 1);
    const resynced = (await slim({ resync: 1 })).state;
    for (const key of LOGS) expect(resynced[key], key).toEqual(after[key]);
  });
});
