// The ClawArena service's domain functions take parsed input and return values or throw typed errors (kind + code),
// with no HTTP in between: a real SQLite store, a manual clock, no listener.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../../engine/core/clock.js';
import { openStore, type Store } from '../../../../engine/db/store.js';
import { ClawError } from '../../../../engine/protocols/clawarena/errors.js';
import { type ClawArenaService, createClawArenaService } from '../../../../engine/protocols/clawarena/service.js';

let dir: string;
let store: Store;
let service: ClawArenaService;
const clock = createManualClock(Date.parse('2026-03-01T12:00:00.000Z'));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-claw-domain-'));
  store = openStore({ file: path.join(dir, 'arena.db') });
  service = createClawArenaService({ store, clock, seed: (p) => `seed:${p}`, version: 'test', timers: false });
});
afterAll(() => {
  service.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function thrown(fn: () => unknown): ClawError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ClawError) return error;
    throw error;
  }
  throw new Error('expected a ClawError');
}

describe('ClawArena domain API', () => {
  it('provision returns the new agent; a taken name is a conflict', () => {
    const body = service.provision({ name: 'solo' });
    expect(body).toMatchObject({ agent_name: 'solo' });
    expect(typeof body.connection_token).toBe('string');
    const error = thrown(() => service.provision({ name: 'solo' }));
    expect(error).toMatchObject({ kind: 'conflict', code: 'name_taken' });
    expect(error.body).toMatchObject({ status: 'error', code: 'name_taken', field: 'name' });
  });

  it('a submission without a match is a conflict (no_active_match), not an HTTP reply', () => {
    const { token } = service.createAgent({ name: 'idle-one' });
    const auth = service.authenticate(`Bearer ${token}`);
    expect(auth).not.toBeNull();
    const error = thrown(() => service.submitAction(auth as NonNullable<typeof auth>, { action: 'bid', params: {} }));
    expect(error).toMatchObject({ kind: 'conflict', code: 'no_active_match' });
  });

  it('a scheduled match through the tournaments’ API: scoped tokens, a view, a finished announcement', async () => {
    const created = service.createMatch({ gameType: 'liars_dice', seats: [{ name: 'p1' }, { name: 'p2' }], waitForConnect: false });
    expect(created.seats).toHaveLength(2);
    expect(service.match(created.matchId)?.status).toBe('playing');
    const finished: number[] = [];
    const off = service.onMatchFinished((m) => finished.push(m.matchId));
    // Nobody plays: deadlines on the manual clock play default moves until the match ends.
    for (let i = 0; i < 5000 && service.match(created.matchId)?.status !== 'finished'; i++) {
      clock.advance(61_000);
      service.tick();
    }
    off();
    expect(service.match(created.matchId)?.status).toBe('finished');
    expect(finished).toEqual([created.matchId]);
    const bad = thrown(() => service.createMatch({ gameType: 'liars_dice', seats: [{ name: 'only' }] }));
    expect(bad).toMatchObject({ kind: 'invalid', code: 'invalid_payload' });
  });
});
