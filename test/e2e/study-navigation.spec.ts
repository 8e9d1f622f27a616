// What a long study needs from the app (issue 16), against a real engine playing real PSI games: one game exported
// (JSON, JSONL) and re-run from the match viewer, the tournaments list searched, archived and deleted, the standings
// at 1024 px with the interval column in view and its rank legend, and the empty builder quiet until touched.
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { watchConsole } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';
import { pickSeats } from './support/seats.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PSI = path.join(ROOT, 'challenges/psi/agents');
const ADMIN = '/admin/api/v1';

test.describe('a long study in the browser', () => {
  const { url, token } = engineFromEnv();
  const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${ADMIN}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const summary = (id: string) => api<{ id: string; name: string; status: string; games_done: number }>('GET', `/tournaments/${id}`);
  /** A finished PSI run of three baselines (6 games), made through the API. */
  const played = async (name: string): Promise<string> => {
    const created = await api<{ id: string }>('POST', '/tournaments', {
      spec: {
        name,
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: 2,
        concurrency: 2,
        seed: `nav-${name}`,
        agents: [
          { manifest: path.join(PSI, 'honest-exact/agent.yaml'), id: 'honest' },
          { manifest: path.join(PSI, 'greedy-overclaim/agent.yaml'), id: 'greedy' },
          { manifest: path.join(PSI, 'cautious-minimal/agent.yaml'), id: 'cautious' },
        ],
        limits: { move_seconds: 20, game_seconds: 60 },
      },
      start: true,
    });
    await expect.poll(async () => (await summary(created.id)).status, { timeout: scaled(90_000) }).toBe('finished');
    return created.id;
  };
  const open = async (page: Page, hash: string) => {
    await page.goto(`${url}/${hash}&token=${token}`);
    await new ArenaApp(page).waitLoaded();
  };

  test('one game: export it as JSON and JSONL, then re-run it as a one-game tournament', async ({ page }) => {
    test.setTimeout(180_000);
    const errors = watchConsole(page);
    const id = await played('Navigation study');
    await open(page, `#/tournaments/${id}/games/1`);
    const actions = page.getByTestId('game-actions');
    await expect(actions).toBeVisible();

    const [json] = await Promise.all([
      page.waitForEvent('download'),
      actions.getByRole('button', { name: 'Export JSON', exact: true }).click(),
    ]);
    expect(json.suggestedFilename()).toBe(`${id}-game-1.json`);
    const doc = JSON.parse(fs.readFileSync(await json.path(), 'utf8')) as { game: { game_index: number; seed: string; seats: string[] } };
    expect(doc.game.game_index).toBe(1);
    const [jsonl] = await Promise.all([page.waitForEvent('download'), actions.getByRole('button', { name: 'Export JSONL' }).click()]);
    expect(jsonl.suggestedFilename()).toBe(`${id}-game-1.jsonl`);
    const lines = fs
      .readFileSync(await jsonl.path(), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; seed?: string });
    expect(lines.map((l) => l.event).slice(0, 2)).toEqual(['manifest', 'game_started']);
    expect(lines[1]?.seed).toBe(doc.game.seed);
    expect(lines.at(-1)?.event).toBe('game_ended');

    await actions.getByRole('button', { name: 'Re-run this game' }).click();
    await expect(page).toHaveURL(/#\/tournaments\/t-[^/]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Navigation study · game 1 again' })).toBeVisible();
    const rerun = (await page.getByTestId('tournament-live').getAttribute('data-tournament-id')) as string;
    expect(rerun).not.toBe(id);
    await expect.poll(async () => (await summary(rerun)).status, { timeout: scaled(60_000) }).toBe('finished');
    const again = await api<{ game: { seed: string; seat_agents: string[] } }>('GET', `/tournaments/${rerun}/games/0`);
    expect(again.game.seed).toBe(doc.game.seed);
    expect(again.game.seat_agents).toEqual(doc.game.seats);
    expect(errors).toEqual([]);
  });

  test('tournaments list: search, archive and delete with a confirmation', async ({ page }) => {
    test.setTimeout(180_000);
    const errors = watchConsole(page);
    const keep = await played('Keeper run');
    const doomed = await played('Doomed run');
    await open(page, '#/tournaments');
    const table = page.getByTestId('tournaments-table');
    await page.getByLabel('Search').fill('doomed');
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.locator(`tr[data-tournament-id="${doomed}"]`)).toBeVisible();

    // Archive: out of the current list, into the archive.
    await page.getByRole('button', { name: 'Archive Doomed run' }).click();
    await expect(page.getByText('No tournament matches these filters.')).toBeVisible();
    await page.getByLabel('Show').selectOption('only');
    await expect(table.locator(`tr[data-tournament-id="${doomed}"]`)).toBeVisible();
    await expect(table.locator(`tr[data-tournament-id="${doomed}"]`)).toContainText('archived');

    // Delete asks first; Keep backs out, Delete for good removes the run and its reports.
    await page.getByRole('button', { name: 'Delete Doomed run' }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    await expect(page.getByRole('button', { name: 'Delete Doomed run' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete Doomed run' }).click();
    await expect(page.getByText('Delete this run, its games and its reports?')).toBeVisible();
    await page.getByRole('button', { name: 'Delete Doomed run for good' }).click();
    await expect(table).toHaveCount(0);
    const gone = await fetch(`${url}${ADMIN}/tournaments/${doomed}`, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(404);

    // The status filter and an empty search bring the other run back.
    await page.getByLabel('Show').selectOption('exclude');
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Status').selectOption('finished');
    await expect(page.getByTestId('tournaments-table').locator(`tr[data-tournament-id="${keep}"]`)).toBeVisible();
    await expect(page.getByTestId('tournaments-table').locator(`tr[data-tournament-id="${doomed}"]`)).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('standings at 1024 px: the interval column is in view, ranks read as ranges with a legend', async ({ page }) => {
    test.setTimeout(120_000);
    const errors = watchConsole(page);
    const id = await played('Narrow standings');
    await page.setViewportSize({ width: 1024, height: 800 });
    await open(page, `#/tournaments/${id}`);
    const table = page.getByTestId('standings-table');
    await expect(table.locator('tbody tr')).toHaveCount(3);
    const wrap = table.locator('xpath=..');
    // No horizontal scroll: the old column widths overflowed this table by 160 px at 1024 px.
    const overflow = await wrap.evaluate((el) => {
      const box = el as unknown as { scrollWidth: number; clientWidth: number };
      return box.scrollWidth - box.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    const head = table.locator('th.t-interval-head');
    const box = await head.boundingBox();
    const wrapBox = await wrap.boundingBox();
    expect(box && wrapBox && box.x + box.width <= wrapBox.x + wrapBox.width + 1).toBe(true);
    await expect(table.locator('.t-interval').first()).toBeInViewport();
    // Ranks read like report.md; the legend says what the range means; the chart is the standings' model.
    for (const text of await page.getByTestId('standing-rank').allTextContents()) expect(text).toMatch(/^\d+( \(\d+–\d+\))?$/);
    await expect(page.getByTestId('rank-legend')).toContainText('every place the games allow at 95%');
    await expect(page.getByTestId('rating-chart')).toContainText("The standings' Bradley–Terry rating");
    await expect(page.getByTestId('rating-chart')).not.toContainText('Fixed-K');
    expect(errors).toEqual([]);
  });

  test('the empty builder shows no errors until a control is touched, then each once', async ({ page }) => {
    const errors = watchConsole(page);
    await open(page, '#/tournaments/new');
    await expect(page.getByRole('heading', { level: 1, name: 'New tournament' })).toBeVisible();
    await expect(page.getByTestId('validation-state')).toHaveText('Choose challenges and agents to begin.');
    await expect(page.locator('.field-error')).toHaveCount(0);

    // Touching the agents (one of two needed) shows the agents' problem, once, and only there.
    await pickSeats(page, ['Honest exact']);
    await expect(page.getByText('agents must list at least 2 agents')).toHaveCount(1);
    await expect(page.getByText(/pick at least one challenge|challenges must list/)).toHaveCount(0);
    // Touching the challenges and leaving none chosen: one message, not two wordings of it.
    await page.getByRole('checkbox', { name: 'Private Set Intersection' }).check();
    await page.getByRole('checkbox', { name: 'Private Set Intersection' }).uncheck();
    await expect(page.getByText(/pick at least one challenge|challenges must list/)).toHaveCount(1);
    // The summary counts what is shown.
    await expect(page.getByTestId('validation-state')).toHaveText('2 problems to fix');

    // A pasted definition with problems says how many it brought, and shows them all at once.
    await page.getByText('Paste YAML').click();
    await page
      .getByLabel('Tournament definition to load')
      .fill('name: pasted\nchallenge: psi\nformat: round-robin\nseed: 1\nagents: []\nlimits: {move_seconds: 0, game_seconds: 30}\n');
    await page.getByRole('button', { name: 'Load pasted YAML' }).click();
    const loaded = page.getByText(/^Loaded the pasted definition, but it is not valid: \d+ problems? \(/);
    await expect(loaded).toBeVisible();
    const count = Number(/not valid: (\d+) problem/.exec((await loaded.textContent()) ?? '')?.[1]);
    expect(count).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId('validation-state')).toHaveText(`${count} problems to fix`);
    expect(errors).toEqual([]);
  });
});
