// Restarting the app continues an interrupted tournament: the engine stops mid-run (games in flight are dropped and
// the run stays 'running'), a new engine on the same data dir resumes it and the game set is complete, once each.
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { startEngine } from '../../../../engine/app.js';
import { engineIn, spec, tempDir } from './helpers.js';

const dir = tempDir();
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a tournament left running resumes when the app starts again', async () => {
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
    expect(second.store.tournaments.get(t.id)?.status).toBe('running');
    const before = second.store.tournaments.games(t.id).length;
    expect(before).toBeGreaterThanOrEqual(2);
    expect(before).toBeLessThan(8);
    await second.tournaments.settled(t.id);
    const games = second.store.tournaments.games(t.id);
    expect(second.store.tournaments.get(t.id)?.status).toBe('finished');
    expect(games).toHaveLength(8);
    expect(new Set(games.map((g) => g.gameKey)).size).toBe(8);
    expect(fs.existsSync(`${dir}/reports/${t.id}/report.json`)).toBe(true);
  } finally {
    await second.close();
  }
}, 90_000);
