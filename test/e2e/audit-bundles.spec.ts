// Audit bundles in the app, against a real engine: a PSI run played by the baseline agents is exported from its report
// page as a bundle (a browser download), then verified on the same page by choosing the file (passes) and by dropping a
// tampered copy and a file that is not a bundle onto the drop zone. Every line the page shows is compared with what the
// real `arena verify --json` prints for the same file, so the app says exactly what the CLI says.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { readTarGz, writeTarGz } from '../../engine/tournaments/bundle/bundle.js';
import { scaled } from '../support/slowness.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';
import { screenshot } from './support/screenshots.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = '/admin/api/v1';

/** What `arena verify --json` prints for the file. */
function cliVerify(file: string): { ok: boolean; checks: string[]; problems: string[] } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/arena.js'), 'verify', file, '--json'], {
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  return JSON.parse(run.stdout);
}

/** Drops a file onto the element as a user dragging it from the desktop would (a real DataTransfer with a File). */
async function dropFile(page: Page, target: Locator, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ base64, fileName }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      // Runs in the page; the spec's type-check has Node's globals, not the DOM's.
      const DataTransferClass = (globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } }).DataTransfer;
      const transfer = new DataTransferClass();
      transfer.items.add(new File([data], fileName));
      return transfer;
    },
    { base64: bytes.toString('base64'), fileName: name },
  );
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** The verdict's lines as shown: differences, then checks, each without its "FAIL"/"ok" mark. */
async function shownLines(panel: Locator): Promise<{ problems: string[]; checks: string[] }> {
  const text = async (items: Locator) => (await items.allTextContents()).map((t) => t.replace(/^(FAIL|ok)\s+/, ''));
  return { problems: await text(panel.getByTestId('bundle-problem')), checks: await text(panel.getByTestId('bundle-check')) };
}

test('export a run as an audit bundle, verify it, a tampered copy and a non-bundle file in the app', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { url, token } = engineFromEnv();
  const auth = { Authorization: `Bearer ${token}` };
  const psi = (agent: string) => path.join(ROOT, 'challenges/psi/agents', agent, 'agent.yaml');
  const created = await request.post(`${url}${ADMIN}/tournaments`, {
    headers: auth,
    data: {
      spec: {
        name: 'Bundle e2e',
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: 2,
        concurrency: 1,
        seed: 'bundle-e2e',
        agents: [
          { manifest: psi('honest-exact'), id: 'honest' },
          { manifest: psi('greedy-overclaim'), id: 'greedy' },
        ],
        limits: { move_seconds: 10, game_seconds: 30 },
      },
      start: true,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { id: string }).id;
  await expect
    .poll(
      async () => ((await (await request.get(`${url}${ADMIN}/tournaments/${id}`, { headers: auth })).json()) as { status: string }).status,
      {
        timeout: scaled(120_000),
        intervals: [500],
      },
    )
    .toBe('finished');

  // The non-bundle file is answered 400 on purpose; Chromium logs that response as a console error.
  const errors = watchErrors(page, [/status of 400 .*\/bundles\/verify/]);
  await page.goto(`${url}/#/reports/tournaments?tournament=${id}&token=${token}`);
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
  const exports = page.getByTestId('tournament-exports');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    exports.getByRole('button', { name: 'Export audit bundle', exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${id}.bundle.tar.gz`);
  const saved = path.join(test.info().outputDir, download.suggestedFilename());
  await download.saveAs(saved);
  const bundle = fs.readFileSync(saved);
  expect([...readTarGz(bundle).keys()]).toContain('reports/report.json');

  // The downloaded file, chosen with the file picker: it passes, with every check arena verify lists.
  const panel = page.getByTestId('bundle-verify');
  await panel.locator('input[type="file"]').setInputFiles(saved);
  const verdict = panel.getByTestId('bundle-verdict');
  await expect(verdict).toHaveAttribute('data-ok', 'true');
  await expect(verdict.getByRole('status')).toHaveText(`Verified: ${download.suggestedFilename()}`);
  const good = cliVerify(saved);
  expect(good.ok).toBe(true);
  await expect(panel.getByTestId('bundle-check')).toHaveCount(good.checks.length);
  expect(await shownLines(panel)).toEqual({ problems: [], checks: good.checks });
  await screenshot(page, 'audit-bundles-01-verified');

  // A tampered copy dropped onto the page: one game's placements reversed in report.json, the index left as it was.
  const files = readTarGz(bundle);
  const report = JSON.parse((files.get('reports/report.json') as Buffer).toString('utf8'));
  report.games[0].result.placements = [...report.games[0].result.placements].reverse();
  files.set('reports/report.json', Buffer.from(JSON.stringify(report)));
  const tampered = path.join(test.info().outputDir, 'tampered.bundle.tar.gz');
  fs.writeFileSync(tampered, writeTarGz([...files].map(([p, data]) => ({ path: p, data }))));
  await dropFile(page, panel.getByTestId('bundle-drop'), 'tampered.bundle.tar.gz', fs.readFileSync(tampered));
  await expect(verdict).toHaveAttribute('data-ok', 'false');
  const bad = cliVerify(tampered);
  expect(bad.ok).toBe(false);
  expect(bad.problems.some((p) => p.startsWith('reports/report.json: content changed'))).toBe(true);
  await expect(verdict.getByRole('status')).toHaveText(`${bad.problems.length} difference(s) in tampered.bundle.tar.gz`);
  await expect(panel.getByTestId('bundle-problem')).toHaveCount(bad.problems.length);
  expect(await shownLines(panel)).toEqual({ problems: bad.problems, checks: bad.checks });
  await screenshot(page, 'audit-bundles-02-tampered');

  // A file that is not a bundle: the engine's 400 in plain words, and no verdict left over from the last file.
  await dropFile(page, panel.getByTestId('bundle-drop'), 'notes.txt', Buffer.from('these are my notes, not a bundle\n'));
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText('Not an audit bundle: it is not a gzip archive');
  await expect(alert).toContainText('HTTP 400');
  await expect(verdict).toHaveCount(0);
  await screenshot(page, 'audit-bundles-03-not-a-bundle');
  expect(errors).toEqual([]);
});
