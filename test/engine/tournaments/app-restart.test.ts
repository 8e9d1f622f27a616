// Closing the app pauses a running tournament: the engine stops mid-run (games in flight are dropped), the run is left
// 'paused', a new engine on the same data dir lists it as paused, and resuming completes the game set, once each.
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { startEngine } from '../../../engine/app.js';
import { engineIn, spec, tempDir } from './helpers.js';

const dir = tempDir();
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a tournament the app closed on is paused and resumes to a complete game set', async () => {
  const first = await engineIn(dir);
  const t = first.tournaments.create(spec({ games_per_pairing: 8, concurrency: 2 }), '/');
  let ended = 0;
  const stopped = new Promise<void>((resolve) => {
    first.tournaments.subscribe(t.id, (e) => {
      if (e.event === 'game_ended' && ++ended === 2) resolve();
    });
  });
  void first.tournaments.start(t.id);
  await stopped;
  await first.close();

  const second = await startEngine({ dataDir: dir, port: 0, logLevel: 'silent', rendererDir: null });
  try {
    expect(second.store.tournaments.get(t.id)?.status).toBe('paused');
    expect(second.tournaments.summary(t.id).active).toBe(false);
    const before = second.store.tournaments.games(t.id).length;
    expect(before).toBeGreaterThanOrEqual(2);
    expect(before).toBeLessThan(8);
    await second.tournaments.start(t.id);
    const games = second.store.tournaments.games(t.id);
    expect(second.store.tournaments.get(t.id)?.status).toBe('finished');
    expect(games).toHaveLength(8);
    expect(new Set(games.map((g) => g.gameKey)).size).toBe(8);
    expect(fs.existsSync(`${dir}/reports/${t.id}/report.json`)).toBe(true);
  } finally {
    await second.close();
  }
}, 90_000);
