// Issue 48: a multi-seat table is built by clicking, one picker per seat, the same agent in several seats. A 7-seat
// Diplomacy and a 6-seat Mafia: the exported YAML is what the engine accepts (POST /tournaments/validate, the parser
// of `arena run`), and Start seats every seat at one real game.
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import YAML from 'yaml';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { watchConsole } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';
import { screenshot } from './support/screenshots.js';
import { expectSeats, pickSeats, seat } from './support/seats.js';

const NODE = 'ClawArena baseline (Node)';
const PYTHON = 'ClawArena baseline (Python)';

interface Admin {
  url: string;
  token: string;
}

async function adminJson<T>(admin: Admin, route: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${admin.url}/admin/api/v1${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${admin.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function openBuilder(page: Page, admin: Admin): Promise<void> {
  await page.goto(`${admin.url}/#/tournaments/new&token=${admin.token}`);
  await new ArenaApp(page).waitLoaded();
  await expect(page.getByRole('heading', { level: 1, name: 'New tournament' })).toBeVisible();
}

/** Short game options typed into the Advanced section, so the started game ends quickly. */
async function setOptions(page: Page, options: Record<string, unknown>): Promise<void> {
  const advanced = page.getByTestId('builder-advanced');
  if ((await advanced.getAttribute('open')) === null) await advanced.locator('summary').click();
  await page.getByLabel('Challenge options (JSON)').fill(JSON.stringify(options));
}

/** The YAML the builder would export: valid for the engine, with one agents entry per seat. */
async function exportedDefinition(page: Page, admin: Admin, seats: number): Promise<Record<string, unknown>> {
  const text = (await page.getByTestId('yaml-preview').textContent()) ?? '';
  const spec = YAML.parse(text) as Record<string, unknown> & { agents: { manifest: string; id: string }[] };
  expect(spec.agents).toHaveLength(seats);
  expect(new Set(spec.agents.map((a) => a.id)).size).toBe(seats);
  const catalog = await adminJson<{ base_dir: string }>(admin, '/tournaments/catalog');
  const checked = await adminJson<{ agents: string[]; planned_games: number }>(admin, '/tournaments/validate', {
    spec,
    base_dir: catalog.json.base_dir,
  });
  expect(checked.status, JSON.stringify(checked.json)).toBe(200);
  expect(checked.json.agents).toHaveLength(seats);
  expect(checked.json.planned_games).toBe(1);
  return spec;
}

/** Start, then the run's page; returns the tournament id from the URL. */
async function startRun(page: Page): Promise<string> {
  await expect(page.getByTestId('validation-state')).toHaveAttribute('data-state', 'ok', { timeout: scaled(20_000) });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.waitForURL(/#\/tournaments\/t-[^/&]+/);
  const id = /#\/tournaments\/(t-[^/&?]+)/.exec(page.url())?.[1];
  if (!id) throw new Error(`no tournament id in ${page.url()}`);
  return id;
}

test.describe('builder by seats', () => {
  const admin = engineFromEnv();

  test('a 7-seat Diplomacy by clicking: seven pickers, the same agent in four seats, valid, started at one table', async ({ page }) => {
    test.setTimeout(scaled(180_000));
    const errors = watchConsole(page);
    await openBuilder(page, admin);
    await page.getByLabel('Tournament name').fill('Seven seats');
    await page.getByRole('checkbox', { name: 'Claw Diplomacy', exact: true }).check();
    // One empty picker per seat of the table.
    await expect(page.locator('[data-testid="seat"][data-filled="false"]')).toHaveCount(7);
    await pickSeats(page, [NODE, PYTHON, NODE, PYTHON]);
    // A table not yet full is said in the page (the engine is not asked until it is).
    await expect(page.getByText('4 of 7 seats chosen: each game seats 7 players; choose 3 more')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeDisabled();
    for (const [n, label] of [
      [5, NODE],
      [6, PYTHON],
      [7, NODE],
    ] as const)
      await seat(page, n).selectOption({ label });
    await expect(page.getByRole('heading', { name: 'Seats (7 chosen)' })).toBeVisible();
    // Each seat is its own entrant: the same manifest under distinct ids.
    await expect(page.getByTestId('seat-id')).toHaveText([
      'clawarena-baseline-node',
      'clawarena-baseline-python',
      'clawarena-baseline-node-2',
      'clawarena-baseline-python-2',
      'clawarena-baseline-node-3',
      'clawarena-baseline-python-3',
      'clawarena-baseline-node-4',
    ]);
    // A full table offers one more picker, for another entrant.
    await expect(seat(page, 8).locator('option:checked')).toHaveText('— add another entrant —');
    await page.getByLabel('Games per pairing').fill('1');
    await page.getByLabel('Concurrency').fill('1');
    await page.getByLabel('Move time limit (seconds)').fill('30');
    await page.getByLabel('Game time limit (seconds)').fill('120');
    await setOptions(page, { max_year: 1901, timeouts_ms: { phase: 20000 } });
    await expect(page.getByTestId('validation-state')).toHaveText('Valid: 7 agents, diplomacy', { timeout: scaled(20_000) });
    await expect(page.getByTestId('planned-games')).toContainText('1 planned games');
    const spec = await exportedDefinition(page, admin, 7);
    expect(spec.challenge).toBe('diplomacy');
    await screenshot(page, 'builder-seats-diplomacy');

    const id = await startRun(page);
    // The one game seats all seven entrants, in seat order.
    await expect
      .poll(
        async () => {
          const running = await adminJson<{ games: { seats: string[] }[] }>(admin, `/tournaments/${id}/running`);
          const done = await adminJson<{ games: { seat_agents: string[] }[] }>(admin, `/tournaments/${id}/games`);
          return running.json.games[0]?.seats ?? done.json.games[0]?.seat_agents ?? null;
        },
        { timeout: scaled(60_000) },
      )
      .toEqual((spec.agents as { id: string }[]).map((a) => a.id));
    await adminJson(admin, `/tournaments/${id}/cancel`, {});
    expect(errors).toEqual([]);
  });

  test('a 6-seat Mafia: "fill every seat", one seat changed, played to the end with six placements', async ({ page }) => {
    test.setTimeout(scaled(180_000));
    const errors = watchConsole(page);
    await openBuilder(page, admin);
    await page.getByLabel('Tournament name').fill('Six seats');
    await page.getByRole('checkbox', { name: 'Mafia', exact: true }).check();
    await expect(page.locator('[data-testid="seat"]')).toHaveCount(6);
    await page.getByLabel('Fill every seat with').selectOption({ label: PYTHON });
    await page.getByRole('button', { name: 'Fill 6 seats' }).click();
    await expect(page.getByRole('heading', { name: 'Seats (6 chosen)' })).toBeVisible();
    await seat(page, 2).selectOption({ label: NODE });
    await seat(page, 5).selectOption({ label: NODE });
    // Seat 5's own lifecycle: a fresh process for it alone.
    await page.getByRole('combobox', { name: 'Lifecycle of Seat 5 (clawarena-baseline-node-2)' }).selectOption('per-game');
    await page.getByLabel('Games per pairing').fill('1');
    await page.getByLabel('Concurrency').fill('1');
    await page.getByLabel('Move time limit (seconds)').fill('30');
    await page.getByLabel('Game time limit (seconds)').fill('180');
    await expect(page.getByTestId('validation-state')).toHaveText('Valid: 6 agents, mafia', { timeout: scaled(20_000) });
    const spec = await exportedDefinition(page, admin, 6);
    expect(spec.agents).toEqual([
      { manifest: expect.stringMatching(/baseline-python\/agent\.yaml$/), id: 'clawarena-baseline-python' },
      { manifest: expect.stringMatching(/baseline-node\/agent\.yaml$/), id: 'clawarena-baseline-node' },
      { manifest: expect.stringMatching(/baseline-python\/agent\.yaml$/), id: 'clawarena-baseline-python-3' },
      { manifest: expect.stringMatching(/baseline-python\/agent\.yaml$/), id: 'clawarena-baseline-python-4' },
      { manifest: expect.stringMatching(/baseline-node\/agent\.yaml$/), id: 'clawarena-baseline-node-2', lifecycle: 'per-game' },
      { manifest: expect.stringMatching(/baseline-python\/agent\.yaml$/), id: 'clawarena-baseline-python-6' },
    ]);
    await screenshot(page, 'builder-seats-mafia');

    const id = await startRun(page);
    await expect
      .poll(async () => (await adminJson<{ status: string }>(admin, `/tournaments/${id}`)).json.status, { timeout: scaled(150_000) })
      .toBe('finished');
    const games = await adminJson<{ games: { seat_agents: string[]; placements: number[] | null; termination: string }[] }>(
      admin,
      `/tournaments/${id}/games`,
    );
    expect(games.json.games).toHaveLength(1);
    expect(games.json.games[0]?.termination).toBe('completed');
    expect(games.json.games[0]?.seat_agents).toEqual((spec.agents as { id: string }[]).map((a) => a.id));
    expect(games.json.games[0]?.placements).toHaveLength(6);
    expect(errors).toEqual([]);
  });

  test('an imported example with the same shipped agent in several seats: every seat recognised as that agent', async ({ page }) => {
    const errors = watchConsole(page);
    await openBuilder(page, admin);
    const example = path.resolve('examples/diplomacy.tournament.yaml');
    await page.getByLabel('Import YAML file').setInputFiles({
      name: 'diplomacy.tournament.yaml',
      mimeType: 'application/yaml',
      buffer: fs.readFileSync(example),
    });
    await expect(page.getByText('Loaded diplomacy.tournament.yaml.')).toBeVisible();
    await expectSeats(page, [NODE, PYTHON, NODE, PYTHON, NODE, PYTHON, NODE]);
    await expect(page.getByText('not in your agent folders')).toHaveCount(0);
    await expect(page.getByTestId('seat-id')).toHaveText(['node-1', 'python-1', 'node-2', 'python-2', 'node-3', 'python-3', 'node-4']);
    await expect(page.getByTestId('validation-state')).toHaveText('Valid: 7 agents, diplomacy', { timeout: scaled(20_000) });
    expect(errors).toEqual([]);
  });
});
