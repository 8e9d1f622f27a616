// A governance run from the UI decided by a real source: a bad policy file is refused with the engine's reason before
// anything runs; the scenario's reference policy uploaded from disk decides the match; the list and the report say
// which client decided and what that means, the banner says why the match was won or lost, and at 1440 px the list's
// time column is in view.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const POLICY = path.join(ROOT, 'scenarios', 'github-maintainer-dungeon', 'policy.yaml');

test('a policy file chosen in the Run scenario form decides the match, and the report says so', async ({ page }) => {
  test.setTimeout(120_000);
  const { url, token } = engineFromEnv();
  // The refused bad file is a 400 the browser logs as a failed resource; nothing else may be logged.
  const errors = watchErrors(page, [/status of 400 .*\/governance\/matches/]);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`${url}/#/reports/governance&token=${token}`);
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();

  const form = page.getByRole('region', { name: 'Run scenario' });
  await expect(
    form.getByRole('radio', { name: /Scenario's expected decisions \(self-check, proves nothing about a policy\)/ }),
  ).toBeChecked();
  // One agent keeps the run short.
  const agents = form.getByRole('group', { name: 'Agents' });
  for (const box of await agents.getByRole('checkbox').all()) await box.uncheck();
  await agents.getByRole('checkbox', { name: 'maintainer-bot-node' }).check();
  await form.getByRole('radio', { name: 'Policy file' }).check();

  // A file that is not a valid policy: the engine's reason, and no match started.
  await form.getByLabel('Policy file (YAML)').setInputFiles({
    name: 'broken.yaml',
    mimeType: 'application/yaml',
    buffer: Buffer.from('version: 1\nrules:\n  - tool: "*"\n    effect: maybe\n'),
  });
  await expect(form.getByTestId('policy-chosen')).toContainText('broken.yaml');
  await form.getByRole('button', { name: 'Run scenario' }).click();
  await expect(form.getByRole('alert')).toContainText('client.yaml: broken.yaml');
  await expect(form.getByRole('alert')).toContainText('rules.0.effect');

  // The scenario's reference policy, from disk.
  await form.getByLabel('Policy file (YAML)').setInputFiles(POLICY);
  await expect(form.getByTestId('policy-chosen')).toContainText('policy.yaml');
  await form.getByRole('button', { name: 'Run scenario' }).click();
  const status = page.getByTestId('run-status');
  await expect(status).toHaveAttribute('data-phase', 'stored', { timeout: scaled(90_000) });

  const row = page.getByTestId('governance-matches').locator('tbody tr').first();
  await expect(row.getByTestId('match-client')).toHaveText(/^policy file policy\.yaml \(sha256 [0-9a-f]{12}\)$/);
  // 1440 px: the whole table fits its card, the time column included.
  const wrap = page.getByTestId('governance-matches').locator('xpath=..');
  const fits = await wrap.evaluate((el) => {
    const box = el as unknown as { scrollWidth: number; clientWidth: number };
    return box.scrollWidth <= box.clientWidth;
  });
  expect(fits).toBe(true);
  const wrapBox = await wrap.boundingBox();
  const timeBox = await row.getByTestId('match-time').boundingBox();
  expect(wrapBox && timeBox && timeBox.x + timeBox.width <= wrapBox.x + wrapBox.width + 0.5).toBe(true);

  await status.getByRole('link', { name: 'Open report' }).click();
  const outcome = page.getByTestId('outcome');
  await expect(outcome).toBeVisible();
  await expect(page.getByTestId('outcome-client')).toHaveAttribute('data-client', /^policy:policy\.yaml@sha256:[0-9a-f]{12}$/);
  await expect(page.getByTestId('outcome-client')).toContainText('rules of this policy file');
  await expect(page.getByTestId('outcome-client')).not.toContainText('self-check');
  await expect(page.getByTestId('outcome-llm-mode')).toContainText('LLM mode mock: agents that use a language model got canned answers');
  const reasons = page.getByTestId('outcome-reasons');
  await expect(reasons).toContainText(/^(Won: every count stayed within|Lost on )/);
  // Decisions in the trial cards give the file's own reasons.
  await expect(page.getByTestId('governance-report')).toContainText("Publishing a release waits for a maintainer's approval.");
  expect(errors).toEqual([]);
});
