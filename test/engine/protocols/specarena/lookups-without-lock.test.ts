// The lookups every agent request makes (seat-key seats, players, sessions, syncs, stream snapshots) read without a
// transaction of their own: another engine on the same file holding its write lock does not hold them up (they used
// to begin IMMEDIATE and wait out the busy timeout), and a stale session they find is still deleted with its channels.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../../engine/db/store.js';
import { arenaEngineOn } from '../../../support/arena-engine.js';

const STALE_AFTER_MS = 60_000;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-lookups-'));
  const file = path.join(dir, 'arena.sqlite');
  // A short busy timeout: a lookup that waits for the lock fails within the test instead of after 5 s.
  const store = openStore({ file, busyTimeoutMs: 300 });
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  const { engine, clock } = await arenaEngineOn(store, { staleAfterMs: STALE_AFTER_MS });
  return { file, engine, clock };
}

/** A second connection, as another engine on the same data directory, holding the write lock until released. */
function holdWriteLock(file: string): () => void {
  const other = new Database(file);
  other.pragma('busy_timeout = 0');
  other.exec('BEGIN IMMEDIATE');
  other.prepare("INSERT INTO chat_messages (channel, idx, sender, content, timestamp) VALUES ('elsewhere', 1, 'x', 'y', 0)").run();
  const release = () => {
    if (other.inTransaction) other.exec('COMMIT');
    if (other.open) other.close();
  };
  cleanups.push(release);
  return release;
}

describe('session lookups take no lock of their own', () => {
  it('answer while another connection holds the write lock', async () => {
    const { file, engine } = await setup();
    const session = engine.createSession('psi');
    const [a, b] = session.invites as [string, string];
    engine.join(a, 'alice');
    engine.join(b, 'bob');
    const operator = `challenge_${session.id}`;
    const release = holdWriteLock(file);
    const started = performance.now();
    expect(engine.seats({ id: session.id })?.invites).toEqual([a, b]);
    expect(engine.seats({ invite: b })?.id).toBe(session.id);
    expect(engine.players(session.id)).toEqual([a, b]);
    expect(engine.session(session.id)?.status).toBe('active');
    expect(engine.sessionByInvite(a)?.id).toBe(session.id);
    expect(engine.sync(operator, 0, a).some((m) => m.to === a && m.content.startsWith('Your private set'))).toBe(true);
    expect(engine.snapshot(operator, 0, b).messages.length).toBeGreaterThan(0);
    // Each lookup above would have waited out the 300 ms busy timeout and thrown had it asked for the lock.
    expect(performance.now() - started).toBeLessThan(250);
    // Writes still need the lock: an action waits for it, and fails when the other engine keeps it.
    expect(() => engine.chatSend(session.id, a, 'hello')).toThrow(/locked|busy/i);
    release();
    expect(engine.chatSend(session.id, a, 'hello').index).toBe(1);
  });

  it('still delete a stale session they find, with both its channels', async () => {
    const { engine, clock } = await setup();
    const session = engine.createSession('psi');
    const [a] = session.invites as [string, string];
    engine.join(a, 'alice');
    engine.chatSend(session.id, a, 'anyone there?');
    clock.advance(STALE_AFTER_MS + 1);
    expect(engine.seats({ id: session.id })).toBeUndefined();
    // Gone for every other lookup too: deleted, not only hidden from that one.
    expect(engine.adminList({ limit: 10, offset: 0 }).items.map((s) => s.id)).not.toContain(session.id);
    expect(engine.transcript(session.id)).toEqual([]);
    expect(engine.transcript(`challenge_${session.id}`)).toEqual([]);

    const second = engine.createSession('psi');
    clock.advance(STALE_AFTER_MS + 1);
    expect(engine.players(second.id)).toEqual([]);
    expect(engine.adminList({ limit: 10, offset: 0 }).items.map((s) => s.id)).not.toContain(second.id);
  });
});
