// The adaptive format's live panel during a real run (issue 46): three Dining Cryptographers diners of known strength
// (test fixtures: perfect > unknown > wrong, real sandboxed processes) at a three-seat table. The page is open before
// the run starts; while it plays, the panel shows the adjacent pairs gaining units with the stop still to come and
// the budget used; once every pair is decided it shows ranking_decided, and its pairs, stop and budget line are the
// numbers report.json and report.md give.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { engineFromEnv } from './support/global-setup.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DINERS = path.join(ROOT, 'test/fixtures/agents/diners');

type Pair = { place: number; upper: string; lower: string; units: number; decided: boolean; mean_score: number | null };

test('the live adaptive panel follows the run to its stop and agrees with the report', async ({ page }) => {
  test.setTimeout(scaled(400_000));
  const { url, token } = engineFromEnv();
  const admin = async <T>(p: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${url}/admin/api/v1${p}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.status, p).toBe(200);
    return (res.headers.get('content-type') ?? '').includes('json') ? ((await res.json()) as T) : ((await res.text()) as T);
  };
  const spec = {
    name: 'adaptive panel',
    challenge: 'dining-cryptographers',
    format: { kind: 'adaptive', confidence: 0.8 },
    budget: { games: 45 },
    games_per_pairing: 3,
    concurrency: 3,
    seed: 'adaptive-panel-e2e',
    agents: ['wrong', 'perfect', 'unknown'].map((strategy) => ({ manifest: path.join(DINERS, `${strategy}.yaml`), id: strategy })),
    limits: { move_seconds: 20, game_seconds: 60 },
  };
  const { id } = await admin<{ id: string }>('/tournaments', {
    method: 'POST',
    body: JSON.stringify({ spec, base_dir: ROOT, start: false }),
  });

  const app = new ArenaApp(page);
  await page.goto(`${url}/#/tournaments/${id}&token=${token}`);
  await app.waitLoaded();
  const panel = page.getByTestId('adaptive-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('adaptive-budget')).toHaveText('0 of 45 games');
  await admin(`/tournaments/${id}/start`, { method: 'POST' });

  // Mid-run: after the first set of three games the pairs have units, the stop is still to come.
  const rows = page.getByTestId('adaptive-pair');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).not.toHaveAttribute('data-units', '0', { timeout: scaled(120_000) });
  const midway = await page.getByTestId('adaptive-stop').textContent();
  const midBudget = await page.getByTestId('adaptive-budget').textContent();
  expect(midBudget).toMatch(/^(\d+) of 45 games$/);

  // The end: every adjacent pair decided, in the known order.
  await expect(page.getByTestId('adaptive-stop')).toHaveText('ranking_decided', { timeout: scaled(300_000) });
  await expect(page.getByTestId('adaptive-decided')).toHaveAttribute('data-decided', '2');
  await expect
    .poll(async () => (await admin<{ status: string }>(`/tournaments/${id}`)).status, { timeout: scaled(60_000) })
    .toBe('finished');

  const report = await admin<{ ratings: { format: { stop_reason: string; pairs: Pair[]; budget: { games_done: number } } } }>(
    `/tournaments/${id}/exports/report.json`,
  );
  const summary = report.ratings.format;
  expect(summary.stop_reason).toBe('ranking_decided');
  expect(summary.pairs.map((p) => [p.upper, p.lower, p.decided])).toEqual([
    ['perfect', 'unknown', true],
    ['unknown', 'wrong', true],
  ]);
  const done = summary.budget.games_done;
  expect(done).toBeLessThan(45);
  // What was seen mid-run was before the stop, with fewer games than the end.
  expect(midway).toBe('not yet: undecided pairs get the next games');
  expect(Number(midBudget?.split(' ')[0])).toBeLessThan(done);

  // The panel's numbers are the report's: the budget line, and each pair's agents, units, score and decision.
  await expect(page.getByTestId('adaptive-budget')).toHaveText(`${done} of 45 games`);
  const md = await admin<string>(`/tournaments/${id}/exports/report.md`);
  expect(md).toContain(`- Budget used: ${done} of 45 games`);
  expect(md).toContain('- Stop: ranking_decided');
  await expect(rows).toHaveCount(summary.pairs.length);
  for (const [i, p] of summary.pairs.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute('data-units', String(p.units));
    await expect(row).toHaveAttribute('data-decided', 'true');
    const score = p.mean_score === null ? '—' : `${(100 * p.mean_score).toFixed(1)}%`;
    await expect(row.locator('td')).toHaveText([String(p.place), p.upper, p.lower, String(p.units), score, 'yes']);
  }
});
