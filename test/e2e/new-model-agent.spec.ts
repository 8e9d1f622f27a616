// Issue 45: "New model agent" in a real browser against a real engine and a scripted OpenAI-compatible server on
// 127.0.0.1. The user adds a folder, opens the dialog, looks the server up by URL, picks its model and PSI, and creates
// the agent; it is listed, the builder offers it, and a short tournament against a shipped agent plays through it.
// The live view and the report page then show the server's calls, utilisation and queueing: the report's figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import YAML from 'yaml';
import { type FakeModelServer, startFakeModelServer } from '../model-agent/fake-model-server.js';
import { psiGuesser } from '../model-agent/scripted-models.js';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { watchConsole } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';
import { pickSeats } from './support/seats.js';

const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');

/** The whole page, or one part of it (the dialog). */
async function screenshot(page: Page | Locator, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  if ('goto' in page) await page.screenshot({ path: file, fullPage: true });
  else await page.screenshot({ path: file });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

let model: FakeModelServer;
let folder: string;

test.beforeAll(async () => {
  model = await startFakeModelServer(psiGuesser(), { models: ['scripted-model'] });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-e2e-model-agents-'));
});

test.afterAll(async () => {
  await model?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('create a model agent in the dialog, then play it against a shipped agent', async ({ page }) => {
  test.setTimeout(scaled(240_000));
  const errors = watchConsole(page);
  const { url, token } = engineFromEnv();
  await page.goto(`${url}/#/agents&token=${token}`);
  await new ArenaApp(page).waitLoaded();

  await page.getByLabel('Folder path').fill(folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByTestId('folder-added')).toBeVisible();

  await page.getByRole('button', { name: 'New model agent' }).click();
  const dialog = page.getByTestId('new-model-agent');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Server URL').fill(`${model.url}/v1`);
  await dialog.getByRole('button', { name: 'Look up' }).click();
  await expect(dialog.getByRole('radio', { name: new RegExp(model.url.replace(/[.:/]/g, '\\$&')) })).toBeChecked();
  await expect(dialog.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('scripted-model');
  await dialog.getByLabel('Temperature').fill('0.5');
  await dialog.getByLabel('Max tokens').fill('300');
  await dialog.getByLabel('Seed').fill('11');
  await dialog.getByRole('checkbox', { name: 'Private Set Intersection' }).check();
  await dialog.getByLabel('Name', { exact: true }).fill('Scripted PSI model');
  await expect(dialog.getByLabel('Agent id (folder name)')).toHaveValue('scripted-psi-model');
  await screenshot(dialog, 'new-model-agent-dialog');

  const listingsBefore = model.listings;
  await dialog.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByTestId('model-agent-created')).toHaveAttribute('data-agent-id', 'scripted-psi-model');
  await expect(dialog).toBeHidden();
  // One preflight call to the server, and the files say what the dialog said.
  expect(model.listings - listingsBefore).toBe(1);
  const config = YAML.parse(fs.readFileSync(path.join(folder, 'scripted-psi-model', 'model.yaml'), 'utf8'));
  expect(config).toMatchObject({ base_url: `${model.url}/v1`, model: 'scripted-model', temperature: 0.5, max_tokens: 300, seed: 11 });
  const listed = page.locator('[data-testid="agent"][data-agent-id="scripted-psi-model"]');
  await expect(listed).toHaveAttribute('data-ok', 'true');

  // The builder offers it; a short run against a shipped agent validates and plays.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tournaments' }).click();
  await page.getByRole('link', { name: 'New tournament' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New tournament' })).toBeVisible();
  await page.getByLabel('Tournament name').fill('Scripted model vs honest');
  await page.getByRole('checkbox', { name: 'Private Set Intersection' }).check();
  await pickSeats(page, ['Scripted PSI model', 'Honest exact']);
  await page.getByRole('radio', { name: /Round-robin/ }).check();
  await page.getByLabel('Games per pairing').fill('2');
  await page.getByLabel('Concurrency').fill('2');
  await page.getByLabel('Seed').fill('4545');
  await page.getByLabel('Move time limit (seconds)').fill('30');
  await page.getByLabel('Game time limit (seconds)').fill('90');
  await expect(page.getByTestId('validation-state')).toHaveAttribute('data-state', 'ok');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  const live = page.getByTestId('tournament-live');
  await expect(live).toHaveAttribute('data-status', 'finished', { timeout: scaled(180_000) });

  // Every call the server answered went through the engine for this run, and the panel shows them.
  const row = page.getByTestId('model-servers').locator(`tr[data-server="${new URL(model.url).host}"]`);
  await expect(row).toHaveAttribute('data-calls', String(model.requests.length));
  expect(model.requests.length).toBeGreaterThanOrEqual(2);
  expect(model.maxInFlight).toBeLessThanOrEqual(1);
  await expect(row).toHaveAttribute('data-capacity', '1');
  const utilisation = Number(await row.getAttribute('data-utilisation'));
  expect(utilisation).toBeGreaterThan(0);
  expect(utilisation).toBeLessThanOrEqual(1);
  const figures = await row.locator('td').allTextContents();
  await screenshot(page, 'new-model-agent-live');

  // The report page shows the same row.
  await page.getByRole('link', { name: 'Open report' }).click();
  const reported = page.getByTestId('model-servers').locator(`tr[data-server="${new URL(model.url).host}"]`);
  await expect(reported.locator('td')).toHaveText(figures);
  expect(errors).toEqual([]);
});
