// A tournament `arena run` plays on the app's data folder, seen in the app: it reads "Running elsewhere" (naming the
// pid) with no control that the engine would refuse; once that process is killed with -9 it reads "Interrupted", and
// Resume in the app plays the rest of it to the end.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import YAML from 'yaml';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { watchConsole } from './support/console-errors.js';
import { ENGINE_DATA_DIR_ENV, engineFromEnv } from './support/global-setup.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `arena run` of a slow PSI round-robin on the data folder; resolves with the run's id once its first game started. */
function startRun(dataDir: string, specFile: string): Promise<{ child: ChildProcessWithoutNullStreams; id: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/arena.js'), 'run', specFile, '--data-dir', dataDir, '--json']);
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const event = JSON.parse(buffer.slice(0, nl)) as { event: string; tournament_id: string };
        buffer = buffer.slice(nl + 1);
        if (event.event === 'game_started') resolve({ child, id: event.tournament_id });
      }
    });
    child.once('exit', (code) => reject(new Error(`arena run exited with ${code} before its first game`)));
  });
}

test('a run another process plays is shown as running elsewhere; after kill -9 it is resumed from the app', async ({ page }) => {
  test.setTimeout(120_000);
  const dataDir = process.env[ENGINE_DATA_DIR_ENV];
  if (!dataDir) throw new Error('the engine data folder is not set: run the specs through playwright.config.ts');
  const { url, token } = engineFromEnv();
  const errors = watchConsole(page);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-e2e-elsewhere-'));
  const specFile = path.join(scratch, 'elsewhere.tournament.yaml');
  fs.writeFileSync(
    specFile,
    YAML.stringify({
      name: 'Played elsewhere',
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: 4,
      concurrency: 1,
      seed: 'elsewhere',
      agents: [
        { manifest: path.join(ROOT, 'test/fixtures/agents/tournament/slow-honest/agent.yaml'), id: 'slow-honest' },
        { manifest: path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml'), id: 'honest-exact' },
      ],
      limits: { move_seconds: 10, game_seconds: 30 },
    }),
  );
  const run = await startRun(dataDir, specFile);
  try {
    const app = new ArenaApp(page);
    await page.goto(`${url}/#/tournaments&token=${token}`);
    await app.waitLoaded();
    const row = page.locator(`tr[data-tournament-id="${run.id}"]`);
    await expect(row.locator('.badge')).toHaveText('Running elsewhere');
    await expect(row.locator('.badge')).toHaveAttribute('title', new RegExp(`pid ${run.child.pid}\\b`));
    await expect(row.getByRole('button')).toHaveCount(0);

    await row.getByRole('link', { name: 'Played elsewhere' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Played elsewhere' })).toBeVisible();
    await expect(page.locator('.badge').first()).toHaveText('Running elsewhere');
    for (const name of ['Pause', 'Resume', 'Cancel']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);

    run.child.kill('SIGKILL');
    await new Promise((resolve) => run.child.once('close', resolve));
    await page.reload();
    await app.waitLoaded();
    await expect(page.locator('.badge').first()).toHaveText('Interrupted');
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect(page.locator('.badge').first()).toHaveText('Finished', { timeout: scaled(60_000) });
    await expect(page.getByTestId('games-done')).toHaveAttribute('data-games-done', '4');
    expect(errors).toEqual([]);
  } finally {
    run.child.kill('SIGKILL');
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
