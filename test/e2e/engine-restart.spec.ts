// Issue 48: a page that lost its engine finds it again after a restart, without a new link. A real `arena serve` of
// the spec's own (temporary data folder, no --port: it takes the port this folder's engine had last) is opened from
// the link it printed, then killed (SIGKILL) and started again, then stopped cleanly and started again: each time the
// same page, never reloaded by the test, says the engine is unreachable, then connected, and shows the sessions
// created on the new engine. No console errors beyond the failed requests of the outage.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { expect, type Page, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { screenshot } from './support/screenshots.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = '/admin/api/v1';

interface Engine {
  child: ChildProcess;
  url: string;
  token: string;
  ui: string;
  exited: Promise<unknown>;
}

let dataDir = '';
let engine: Engine | undefined;

test.beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-e2e-restart-'));
});
test.afterAll(async () => {
  if (engine && engine.child.exitCode === null && engine.child.signalCode === null) {
    engine.child.kill('SIGTERM');
    await engine.exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServe(): Promise<Engine> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'arena.js'), 'serve', '--json', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ARENA_DATA_DIR: '' },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = await new Promise<{ url: string; token: string; ui: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('arena serve did not say it was listening')), scaled(30_000));
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.includes('"listening"')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`arena serve exited with ${code}`)));
  });
  return { child, exited, ...ready };
}

async function createSession(e: Engine): Promise<string> {
  const res = await fetch(`${e.url}${ADMIN}/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ challengeType: 'psi' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

const status = (page: Page) => page.getByTestId('engine-status');

/** Stops the engine one way or the other; the page notices on its next refresh. */
async function stop(page: Page, e: Engine, signal: 'SIGKILL' | 'SIGTERM', shot: string): Promise<void> {
  e.child.kill(signal);
  await e.exited;
  await expect(status(page)).toHaveAttribute('data-status', 'unreachable', { timeout: scaled(30_000) });
  await expect(status(page)).toContainText('Engine unreachable');
  await screenshot(page, shot);
}

/** Starts the engine again on the same folder: same origin; the page reconnects and shows the new engine's data. */
async function restart(page: Page, previous: Engine, shot: string): Promise<Engine> {
  const next = await startServe();
  engine = next;
  expect(next.url).toBe(previous.url);
  const id = await createSession(next);
  await expect(status(page)).toHaveAttribute('data-status', 'connected', { timeout: scaled(30_000) });
  await expect(page.locator(`tr[data-session-id="${id}"]`)).toBeVisible({ timeout: scaled(15_000) });
  await expect(page.getByRole('alert')).toHaveCount(0);
  await screenshot(page, shot);
  return next;
}

test('the same page finds the engine again after a kill and after a clean stop, without a new link', async ({ page }) => {
  test.setTimeout(scaled(180_000));
  engine = await startServe();
  const first = await createSession(engine);
  const app = new ArenaApp(page);
  await page.goto(engine.ui);
  await app.waitLoaded();
  await app.openNav('Sessions');
  await expect(page.locator(`tr[data-session-id="${first}"]`)).toBeVisible();
  await expect(status(page)).toHaveAttribute('data-status', 'connected');
  // Set once: still there at the end means the test never reloaded the page (nor did the page itself).
  await page.evaluate(() => {
    (globalThis as { restartMarker?: number }).restartMarker = 48;
  });

  await stop(page, engine, 'SIGKILL', 'engine-restart-01-killed');
  engine = await restart(page, engine, 'engine-restart-02-back-after-kill');
  await stop(page, engine, 'SIGTERM', 'engine-restart-03-stopped');
  engine = await restart(page, engine, 'engine-restart-04-back-after-stop');

  await expect(page.locator(`tr[data-session-id="${first}"]`)).toBeVisible();
  expect(await page.evaluate(() => (globalThis as { restartMarker?: number }).restartMarker)).toBe(48);
  expect(page.url()).not.toContain('code=');
});
