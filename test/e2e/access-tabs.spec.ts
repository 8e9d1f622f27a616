// Access that survives tabs, in a real browser against its own `arena serve` (human mode, so the link is the printed
// one): a tab on a deep route without access says so; the link pasted into that same tab gets in without Retry and
// returns to the route; a second tab then enters on its own deep link through the session cookie, which page scripts
// cannot read, and can change things (a session is created through the cookie). No console errors on the way.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { expect, type Page, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess;
let dataDir: string;
let link = '';

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-e2e-tabs-'));
  child = spawn(process.execPath, [path.join(ROOT, 'bin', 'arena.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('arena serve printed no link')), 20_000);
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.includes('#code=')) return;
      clearTimeout(timer);
      resolve(line.trim());
    });
  });
});

test.afterAll(async () => {
  child?.kill('SIGTERM');
  await new Promise((resolve) => child?.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('a pasted link lets a waiting tab in on its route, and a second tab enters without any link', async ({ context }) => {
  const origin = link.split('/#code=')[0] as string;

  // A tab opened on a deep link before any access: it says what is missing.
  const first = await context.newPage();
  const firstErrors = consoleErrors(first);
  await first.goto(`${origin}/#/settings`);
  const alert = await new ArenaApp(first).waitBootError();
  await expect(alert).toContainText('No admin token');

  // The printed link pasted into that same tab (only the fragment changes, no reload): in, on the page it asked for.
  await first.goto(link);
  await new ArenaApp(first).waitLoaded();
  await expect(first.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  expect(first.url()).toBe(`${origin}/#/settings`);

  // A second tab of the same browser on another deep link: no link, no token, straight in.
  const second = await context.newPage();
  const secondErrors = consoleErrors(second);
  await second.goto(`${origin}/#/sessions`);
  const app = new ArenaApp(second);
  await app.waitLoaded();
  await expect(second.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  // It holds no token, and the session cookie is invisible to page scripts (HttpOnly).
  expect(await second.evaluate("sessionStorage.getItem('local-arena.admin-token')")).toBeNull();
  expect(await second.evaluate('document.cookie')).not.toContain('arena_admin');
  const cookies = await context.cookies(`${origin}/admin/api/v1/overview`);
  const session = cookies.find((c) => c.name.startsWith('arena_admin_'));
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin/api/v1' });

  // Writes work through the cookie too (same origin): a session created from this tab.
  const created = await app.createSession('psi');
  expect(created.invites).toHaveLength(2);

  // A reload of the cookie-only tab stays in.
  await second.reload();
  await app.waitLoaded();
  await expect(second.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();

  expect(firstErrors).toEqual([]);
  expect(secondErrors).toEqual([]);
});
