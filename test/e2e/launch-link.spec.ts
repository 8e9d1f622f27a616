// The link `arena serve` prints, opened in a real browser: a one-time code (never the token) that the page trades
// for the admin token, a deep route that survives the trade, a reload that keeps working, and the same link refused
// in a second tab. Its own `arena serve` in human mode, so the link is exactly the one a researcher clicks.
import { expect, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { type HumanServe, startHumanServe } from './support/human-serve.js';

let serve: HumanServe | undefined;
let link = '';

test.beforeAll(async () => {
  serve = await startHumanServe('arena-e2e-link-');
  link = serve.link;
});

test.afterAll(async () => {
  await serve?.stop();
});

test('the printed one-time link opens the UI once, keeps its deep route and survives a reload', async ({ page, browser }) => {
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[A-Za-z0-9_-]+$/);
  const [origin, code] = link.split('/#code=') as [string, string];
  const app = new ArenaApp(page);
  await page.goto(`${origin}/#/challenges&code=${code}`);
  await app.waitLoaded();
  await expect(page.getByRole('heading', { level: 1, name: 'Challenges' })).toBeVisible();
  expect(page.url()).not.toContain('code=');
  expect(page.url()).toContain('#/challenges');
  await page.reload();
  await app.waitLoaded();
  await expect(page.getByRole('heading', { level: 1, name: 'Challenges' })).toBeVisible();

  // The same link in a fresh browser context (another profile, or the link from history): dead.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await second.goto(link);
    const alert = await new ArenaApp(second).waitBootError();
    await expect(alert).toContainText('This link no longer works');
    await expect(alert).toContainText('Open the link printed by arena serve');
    expect(second.url()).not.toContain('code=');
  } finally {
    await other.close();
  }
});
