// One count of rated games in the app (issue 43 item 4): a seat-swapped run of the shipped Millionaire agents, paused
// with one pair half played, shows in the live page's header the games finished and how many are rated, and above the
// standings "N − 1 of N finished games rated (1 incomplete set)" with the rule, while each agent's row counts N − 1.
// Cancelled, the page says the same.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { engineFromEnv } from './support/global-setup.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('the header and the standings show the same rated count and say why a finished game is not rated', async ({ page }) => {
  test.setTimeout(180_000);
  const { url, token } = engineFromEnv();
  const admin = async <T>(p: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${url}/admin/api/v1${p}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.status, p).toBe(200);
    return (await res.json()) as T;
  };
  const spec = {
    name: 'rated counts',
    challenge: 'millionaire',
    format: 'round-robin',
    games_per_pairing: 12,
    concurrency: 1,
    seed: 'rated-counts-e2e',
    agents: [
      { manifest: path.join(ROOT, 'challenges/millionaire/agents/truthful/agent.yaml'), id: 'truthful' },
      { manifest: path.join(ROOT, 'challenges/millionaire/agents/bluffer/agent.yaml'), id: 'bluffer' },
    ],
    limits: { move_seconds: 5, game_seconds: 20 },
  };
  const { id } = await admin<{ id: string }>('/tournaments', {
    method: 'POST',
    body: JSON.stringify({ spec, base_dir: ROOT, start: true }),
  });
  type Summary = { status: string; games_done: number; active: boolean };
  const summary = () => admin<Summary>(`/tournaments/${id}`);

  // A pause lets the game in flight finish (one at a time here): asked for while an even number is done, it leaves an
  // odd number, one pair half played. Should two games end meanwhile, the count is even: resume and try again.
  let done = 0;
  for (let attempt = 0; attempt < 6 && done % 2 === 0; attempt++) {
    await expect
      .poll(
        async () => {
          const s = await summary();
          return s.status !== 'running' || (s.games_done >= 2 && s.games_done % 2 === 0) ? s.status : 'waiting';
        },
        { timeout: scaled(60_000), intervals: [20] },
      )
      .toBe('running');
    await admin(`/tournaments/${id}/pause`, { method: 'POST' });
    // Paused and let go by its executor (a resume before then would be refused as still running).
    await expect
      .poll(async () => `${(await summary()).status} ${(await summary()).active}`, { timeout: scaled(30_000) })
      .toBe('paused false');
    done = (await summary()).games_done;
    if (done % 2 === 0) await admin(`/tournaments/${id}/resume`, { method: 'POST' });
  }
  expect(done % 2).toBe(1);
  expect(done).toBeLessThan(12);

  const app = new ArenaApp(page);
  await page.goto(`${url}/#/tournaments/${id}&token=${token}`);
  await app.waitLoaded();
  const check = async () => {
    await expect(page.getByTestId('games-done')).toHaveAttribute('data-games-done', String(done));
    await expect(page.getByTestId('games-done')).toContainText(`${done} / 12`);
    await expect(page.getByTestId('games-rated')).toHaveText(`${done - 1} rated`);
    const note = page.getByTestId('rated-games-note');
    await expect(note).toContainText(`${done - 1} of ${done} finished games rated (1 incomplete set).`);
    await expect(note).toContainText('A seat-swapped pair or seat-rotation set is rated only once every one of its games has finished');
    await expect(note).toHaveAttribute('data-finished', String(done));
    await expect(note).toHaveAttribute('data-rated', String(done - 1));
    const games = page.getByTestId('standing-games');
    await expect(games).toHaveCount(2);
    await expect(games).toHaveText([String(done - 1), String(done - 1)]);
  };
  await check();

  await admin(`/tournaments/${id}/cancel`, { method: 'POST' });
  await page.reload();
  await app.waitLoaded();
  await expect(page.getByTestId('tournament-live')).toHaveAttribute('data-status', 'cancelled');
  await check();
});
