// snapshot=slim over real HTTP: Mafia's chat logs follow the delta conventions of spec §6.6 per context_id (full on
// the first consuming read, then only new entries, nothing when nothing is new), while snapshot=full keeps them whole.
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
});
