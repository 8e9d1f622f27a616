// The Settings page against a real engine, in both modes: as `arena serve` serves it to a browser, and as the desktop
// app shows it (window.arena stood in for by an in-page fake of the preload API, since CI has no Electron binary).
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { engineFromEnv } from './support/global-setup.js';

const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');
const KEY = 'sk-e2e-never-shown-4c1d';

async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

/** Installs a fake `window.arena` before the app loads: the real engine connection, an in-memory keychain. */
async function fakeDesktopShell(page: Page, connection: { baseUrl: string; token: string }, available: boolean): Promise<void> {
  await page.addInitScript(
    ({ connection, available }) => {
      const names = new Set<string>();
      const calls: string[] = [];
      const list = async () => ({ available, names: [...names].sort() });
      (globalThis as unknown as { __calls: string[] }).__calls = calls;
      (globalThis as unknown as { arena: unknown }).arena = {
        connection: async () => connection,
        appVersion: async () => '9.8.7',
        openExternal: async () => {},
        revealInFolder: async () => {},
        saveFile: async () => ({ saved: false, path: null }),
        revealDataFolder: async () => {
          calls.push('revealDataFolder');
        },
        listSecrets: list,
        setSecret: async (name: string, value: string) => {
          calls.push(`set ${name} (${value.length} chars)`);
          names.add(name);
          return list();
        },
        deleteSecret: async (name: string) => {
          calls.push(`delete ${name}`);
          names.delete(name);
          return list();
        },
      };
    },
    { connection, available },
  );
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The browser asks for /favicon.ico on its own; the engine has none.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(message.text());
  });
  return errors;
}

test.describe('Settings', () => {
  const { url, token } = engineFromEnv();

  test('in a browser, explains that arena serve reads keys from its environment', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto(`${url}/#/settings&token=${token}`);
    await new ArenaApp(page).waitLoaded();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const keys = page.getByRole('region', { name: 'API keys' });
    await expect(keys).toContainText('reads API keys from the environment of the shell that started it');
    await expect(keys).toContainText('OPENAI_API_KEY=sk-… npx arena serve --open');
    await expect(page.getByRole('textbox')).toHaveCount(0);
    const about = page.getByRole('region', { name: 'About' });
    await expect(about).toContainText('Browser (arena serve)');
    await expect(about).toContainText('ARENA_DATA_DIR');
    await expect(page.getByRole('button', { name: 'Open data folder' })).toHaveCount(0);
    await screenshot(page, 'settings-browser');
    expect(errors).toEqual([]);
  });

  test('in the desktop app, stores, replaces and deletes keys without ever showing a value', async ({ page }) => {
    const errors = collectErrors(page);
    await fakeDesktopShell(page, { baseUrl: url, token }, true);
    await page.goto(`${url}/#/settings`);
    await new ArenaApp(page).waitLoaded();
    const keys = page.getByRole('region', { name: 'API keys' });
    await expect(keys).toContainText('Stored in the OS keychain');
    await expect(keys).toContainText('No keys stored.');

    const name = page.getByLabel('Variable name');
    const value = page.getByLabel('Key', { exact: true });
    await expect(value).toHaveAttribute('type', 'password');

    // A bad name is explained next to the form, and nothing is sent.
    await name.fill('openai key');
    await value.fill(KEY);
    await page.getByRole('button', { name: 'Save key' }).click();
    await expect(page.getByRole('alert')).toContainText('Not a usable name');

    await name.fill('OPENAI_API_KEY');
    await page.getByRole('button', { name: 'Save key' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved OPENAI_API_KEY.' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Stored API keys' });
    await expect(table.getByRole('row', { name: /OPENAI_API_KEY/ })).toContainText('stored, never shown');
    // The value field is cleared once the key is stored.
    await expect(value).toHaveValue('');

    // Typing a stored name turns the action into a replace.
    await name.fill('OPENAI_API_KEY');
    await value.fill(`${KEY}-2`);
    await page.getByRole('button', { name: 'Replace key' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Replaced OPENAI_API_KEY.' })).toBeVisible();
    await screenshot(page, 'settings-desktop');
    expect(await page.content()).not.toContain(KEY);

    await page.getByRole('button', { name: 'Delete OPENAI_API_KEY' }).click();
    await expect(keys).toContainText('No keys stored.');

    const about = page.getByRole('region', { name: 'About' });
    await expect(about).toContainText('9.8.7');
    await expect(about).toContainText('Desktop app');
    await page.getByRole('button', { name: 'Open data folder' }).click();
    const calls = await page.evaluate(() => (globalThis as unknown as { __calls: string[] }).__calls);
    expect(calls).toEqual([
      `set OPENAI_API_KEY (${KEY.length} chars)`,
      `set OPENAI_API_KEY (${KEY.length + 2} chars)`,
      'delete OPENAI_API_KEY',
      'revealDataFolder',
    ]);
    expect(errors).toEqual([]);
  });

  test('in the desktop app without a keychain, says so and offers no form', async ({ page }) => {
    await fakeDesktopShell(page, { baseUrl: url, token }, false);
    await page.goto(`${url}/#/settings`);
    await new ArenaApp(page).waitLoaded();
    await expect(page.getByRole('alert')).toContainText('Keychain unavailable');
    await expect(page.getByLabel('Variable name')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save key' })).toHaveCount(0);
    await screenshot(page, 'settings-no-keychain');
  });
});
