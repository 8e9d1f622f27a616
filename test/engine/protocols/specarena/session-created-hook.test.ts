// createSession's onCreated hook runs inside the creating transaction: what a tournament records about its game's
// session (the run's mark) commits with the session, as one write transaction, and a hook that throws leaves neither.
// Commits are counted in the real WAL file: each one ends with a frame that carries the database size.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../../engine/db/store.js';
import { arenaEngineOn } from '../../../support/arena-engine.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** Commit frames in a WAL file (header 32 bytes; each frame a 24-byte header, then a page; commit frames name the db size). */
function walCommits(file: string): number {
  const wal = fs.readFileSync(`${file}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salt = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    // Frames left over from before the WAL was restarted carry the old salt: they are not part of this log.
    if (wal.readUInt32BE(at + 8) !== salt[0] || wal.readUInt32BE(at + 12) !== salt[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-created-hook-'));
  const file = path.join(dir, 'arena.sqlite');
  const store = openStore({ file });
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  const { engine } = await arenaEngineOn(store);
  return { file, store, engine };
}

describe('createSession onCreated', () => {
  it('runs inside the creating transaction: the session and what the hook writes are one commit', async () => {
    const { file, store, engine } = await setup();
    engine.createSession('psi');
    const before = walCommits(file);
    let seen: { inTransaction: boolean; stored: boolean } | null = null;
    const session = engine.createSession(
      'psi',
      {},
      {
        seatKeysRequired: true,
        onCreated: (id) => {
          seen = { inTransaction: store.inTransaction, stored: store.sessions.get(id) !== undefined };
          store.sessions.markTournamentSession(id, 'tournament-1');
        },
      },
    );
    expect(seen).toEqual({ inTransaction: true, stored: true });
    expect(store.sessions.tournamentsOf([session.id]).get(session.id)).toBe('tournament-1');
    expect(walCommits(file) - before).toBe(1);
    // The same two writes made one after the other, as the runner used to: two commits.
    const apart = engine.createSession('psi');
    store.sessions.markTournamentSession(apart.id, 'tournament-1');
    expect(walCommits(file) - before).toBe(3);
  });

  it('a hook that throws rolls the session back and the error reaches the caller', async () => {
    const { store, engine } = await setup();
    let created = '';
    expect(() =>
      engine.createSession(
        'psi',
        {},
        {
          onCreated: (id) => {
            created = id;
            store.sessions.markTournamentSession(id, 'tournament-1');
            throw new Error('the run could not record its game');
          },
        },
      ),
    ).toThrow('the run could not record its game');
    expect(created).not.toBe('');
    expect(store.sessions.get(created)).toBeUndefined();
    expect(store.sessions.tournamentsOf([created]).size).toBe(0);
  });
});
