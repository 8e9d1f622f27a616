import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GLOBAL_KEY, openStore, type Store } from '../../../engine/db/store.js';
import type { ArenaEngine } from '../../../engine/protocols/specarena/arena-engine.js';
import { createScoringReader, recomputeScores } from '../../../engine/protocols/specarena/scoring-service.js';
import { arenaEngineOn } from '../../support/arena-engine.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-scoring-'));
  dirs.push(dir);
  const store = openStore({ file: path.join(dir, 'arena.sqlite') });
  const { engine, clock } = await arenaEngineOn(store);
  return { store, engine, clock };
}

function privateNumbers(engine: ArenaEngine, sessionId: string, invite: string): number[] {
  const dm = engine.sync(`challenge_${sessionId}`, 0, invite).find((m) => m.to === invite && m.content.startsWith('Your'));
  return (dm?.content.match(/\d+/g) ?? []).map(Number);
}

function snapshot(store: Store, types: string[]) {
  const reader = createScoringReader(store);
  return {
    global: reader.global(),
    byType: Object.fromEntries(types.map((t) => [t, reader.byType(t)])),
    participants: store.scoring.globalParticipants(),
  };
}

describe('scoring recompute', () => {
  it('rebuilds exactly the numbers the incremental updates produced, self-play and anonymous games included', async () => {
    const { store, engine, clock } = await setup();
    const users = ['alice', 'bob', 'carol', undefined];
    for (let game = 0; game < 24; game++) {
      const type = game % 2 === 0 ? 'psi' : 'millionaire';
      const session = engine.createSession(type);
      const [a, b] = session.invites as [string, string];
      const userA = users[game % 4];
      const userB = game % 5 === 0 ? userA : users[(game + 1) % 4]; // some self-play
      engine.join(a, userA);
      engine.join(b, userB);
      clock.advance(1000);
      if (type === 'psi') {
        const setA = privateNumbers(engine, session.id, a);
        const setB = privateNumbers(engine, session.id, b);
        const overlap = setA.filter((x) => setB.includes(x));
        // Alternate honest and over-claiming guesses so breaches and wrong guesses occur.
        // Over-claims stay within the size of B's set (a larger guess is refused as GUESS_TOO_LARGE).
        engine.message(session.id, a, 'guess', (game % 4 === 0 ? setA.slice(0, setB.length) : overlap).join(' '));
        engine.message(session.id, b, 'guess', overlap.join(' '));
      } else {
        const [wealthB] = privateNumbers(engine, session.id, b);
        engine.message(session.id, a, 'guess', String(game % 3 === 0 ? wealthB : 50));
        engine.message(session.id, b, 'guess', String(10 + game));
      }
    }
    const incremental = snapshot(store, ['psi', 'millionaire']);
    expect(incremental.global.length).toBeGreaterThanOrEqual(3);
    expect(incremental.byType.psi?.['red-team']?.length).toBeGreaterThan(0);
    expect(engine.stats().challenges.psi?.gamesPlayed).toBe(12);

    const { games } = recomputeScores(store);
    expect(games).toBe(24);
    expect(snapshot(store, ['psi', 'millionaire'])).toEqual(incremental);
    store.close();
  });

  it('skips self-play entirely but still counts it in /api/stats', async () => {
    const { store, engine } = await setup();
    const session = engine.createSession('millionaire');
    const [a, b] = session.invites as [string, string];
    engine.join(a, 'same-user');
    engine.join(b, 'same-user');
    engine.message(session.id, a, 'guess', '10');
    engine.message(session.id, b, 'guess', '90');
    expect(engine.session(session.id)?.status).toBe('ended');
    expect(store.scoring.list(GLOBAL_KEY, GLOBAL_KEY)).toEqual([]);
    expect(store.scoring.list('millionaire', 'average')).toEqual([]);
    expect(engine.stats().challenges.millionaire?.gamesPlayed).toBe(1);
    store.close();
  });
});
