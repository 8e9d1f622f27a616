// Issue 48 item 1: the shipped Diplomacy example seats two shipped agents seven times, written relative to the examples
// folder. Imported into the builder, no seat is called "from the imported definition; not in your agent folders": each
// repeated seat says it ships with the app.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');

test('importing the shipped Diplomacy example names its agents as shipped', async ({ page }) => {
  const { url, token } = engineFromEnv();
  const errors = watchErrors(page);
  await page.goto(`${url}/#/tournaments/new&token=${token}`);
  await new ArenaApp(page).waitLoaded();
  const text = fs.readFileSync(path.join(ROOT, 'examples/diplomacy.tournament.yaml'));
  await page
    .getByLabel('Import YAML file')
    .setInputFiles({ name: 'diplomacy.tournament.yaml', mimeType: 'application/yaml', buffer: text });
  await expect(page.getByText(/^Loaded diplomacy\.tournament\.yaml/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Seats (7 chosen)' })).toBeVisible();
  await expect(page.getByText('not in your agent folders')).toHaveCount(0);
  // Every seat says where its agent comes from, the repeated ones included.
  const notes = page.getByTestId('agent-origin');
  await expect(notes).toHaveCount(7);
  for (const note of await notes.all()) await expect(note).toHaveText('shipped with the app');
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'builder-shipped-agents.png'), fullPage: true });
  expect(errors).toEqual([]);
});
