// Issue 43: the builder reads a pasted or imported definition by the same rule as `arena run`. A typo'd format is not
// loaded as a valid round-robin, two typos are both named on their fields, Start stays off, nothing is replaced by a
// default — through "Paste YAML" and through "Import YAML file".
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { watchConsole } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';

const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');

function definition(lines: Record<string, string>): string {
  const fields = {
    name: 'Typo check',
    challenge: 'psi',
    format: 'round-robin',
    games_per_pairing: '2',
    seed: '7',
    ...lines,
  };
  return [
    ...Object.entries(fields).map(([key, value]) => `${key}: ${value}`),
    'agents:',
    '  - manifest: challenges/psi/agents/honest-exact/agent.yaml',
    '  - manifest: challenges/psi/agents/greedy-overclaim/agent.yaml',
    '  - manifest: challenges/psi/agents/cautious-minimal/agent.yaml',
    'limits: {move_seconds: 10, game_seconds: 30}',
    '',
  ].join('\n');
}

/** `format: swis`, the case; then the same with a misspelt key (`games_per_pairng`). */
const ONE_TYPO = definition({ format: 'swis' });
const TWO_TYPOS = ONE_TYPO.replace('games_per_pairing: 2', 'games_per_pairng: 2');

async function openBuilder(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/#/tournaments/new&token=${token}`);
  await new ArenaApp(page).waitLoaded();
  await expect(page.getByRole('heading', { level: 1, name: 'New tournament' })).toBeVisible();
}

async function paste(page: Page, text: string): Promise<void> {
  const details = page.locator('details', { has: page.getByText('Paste YAML', { exact: true }) });
  if ((await details.getAttribute('open')) === null) await page.getByText('Paste YAML', { exact: true }).click();
  await page.getByLabel('Tournament definition to load').fill(text);
  await page.getByRole('button', { name: 'Load pasted YAML' }).click();
}

async function importFile(page: Page, text: string, name: string): Promise<void> {
  await page.getByLabel('Import YAML file').setInputFiles({ name, mimeType: 'application/yaml', buffer: Buffer.from(text) });
}

/** Not loaded as valid: the state, Start, no planned games, and each named field's problem beside its control. */
async function expectRefused(page: Page, fields: string[]): Promise<void> {
  const state = page.getByTestId('validation-state');
  await expect(state).toHaveAttribute('data-state', 'invalid');
  await expect(state).toHaveText(`${fields.length} problem${fields.length === 1 ? '' : 's'} to fix`);
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeDisabled();
  await expect(page.getByTestId('planned-games')).toContainText('Planned games appear once the definition is valid.');
  const status = page.getByText(/^Loaded .*, but it is not valid:/);
  for (const field of fields) await expect(status).toContainText(field);
  // No format is shown as chosen: the typo is not turned into a round-robin.
  for (const radio of await page.getByRole('radio', { name: /Round-robin|Gauntlet|Swiss|Knockout/ }).all())
    await expect(radio).not.toBeChecked();
  const format = page.getByRole('region', { name: 'Format' });
  await expect(format.getByText('format.kind: must be one of round-robin, gauntlet, swiss, knockout')).toBeVisible();
}

test.describe('builder import reads definitions as `arena run` does', () => {
  const { url, token } = engineFromEnv();

  test('Paste YAML with `format: swis`, then with two typos: refused, every field named, Start off', async ({ page }) => {
    const errors = watchConsole(page);
    await openBuilder(page, url, token);
    await paste(page, ONE_TYPO);
    await expectRefused(page, ['format.kind']);

    await paste(page, TWO_TYPOS);
    await expectRefused(page, ['format.kind', 'games_per_pairng']);
    // A key the builder has no control for is listed above Start, by name.
    await expect(page.getByTestId('builder-summary').getByText('games_per_pairng: unknown field')).toBeVisible();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'builder-import-errors.png'), fullPage: true });

    // Choosing a format fixes that one; the unknown key is still there (never dropped), so Start stays off.
    await page.getByRole('radio', { name: /Swiss/ }).check();
    await expect(page.getByText('format.kind: must be one of round-robin, gauntlet, swiss, knockout')).toHaveCount(0);
    await expect(page.getByTestId('builder-summary').getByText('games_per_pairng: unknown field')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeDisabled();
    await expect(page.getByTestId('yaml-preview')).toContainText('games_per_pairng: 2');
    expect(errors).toEqual([]);
  });

  test('Import YAML file: the same two definitions, the same refusals', async ({ page }) => {
    const errors = watchConsole(page);
    await openBuilder(page, url, token);
    await importFile(page, ONE_TYPO, 'one-typo.tournament.yaml');
    await expectRefused(page, ['format.kind']);
    await expect(page.getByText(/^Loaded one-typo\.tournament\.yaml, but it is not valid/)).toBeVisible();
    await importFile(page, TWO_TYPOS, 'two-typos.tournament.yaml');
    await expectRefused(page, ['format.kind', 'games_per_pairng']);

    // The corrected file loads as valid and the engine confirms it: the refusals above were the typos, nothing else.
    await importFile(page, definition({ format: 'swiss' }), 'fixed.tournament.yaml');
    await expect(page.getByTestId('validation-state')).toHaveAttribute('data-state', 'ok');
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
    // The estimate says what it is based on, and a real median is never printed as "0.0 s".
    const estimate = page.getByTestId('duration-estimate');
    await expect(estimate.getByTestId('estimate-basis').locator('li')).toHaveAttribute('data-source', /^(agents|challenge|limits)$/);
    await expect(estimate).toContainText(/at most \d/);
    await expect(estimate).not.toContainText('0.0 s');
    expect(errors).toEqual([]);
  });
});
