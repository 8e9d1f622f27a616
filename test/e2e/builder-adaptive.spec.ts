// The builder's adaptive inputs in Chromium (issue 46): a pasted adaptive definition fills Budget, Confidence and
// Focus: top k; a top k the engine's schema refuses is reported on the Focus: top k field itself (and Start stays
// off); typing a valid one clears it and the definition carries format.focus.top_k.
import { expect, type Page, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { watchConsole } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';

const DEFINITION = [
  'name: Adaptive focus',
  'challenge: psi',
  'format: {kind: adaptive, confidence: 0.9, focus: {top_k: 3}}',
  'budget: {games: 40}',
  'seed: 7',
  'agents:',
  '  - manifest: challenges/psi/agents/honest-exact/agent.yaml',
  '  - manifest: challenges/psi/agents/greedy-overclaim/agent.yaml',
  '  - manifest: challenges/psi/agents/cautious-minimal/agent.yaml',
  'limits: {move_seconds: 10, game_seconds: 30}',
  '',
].join('\n');

async function paste(page: Page, text: string): Promise<void> {
  const details = page.locator('details', { has: page.getByText('Paste YAML', { exact: true }) });
  if ((await details.getAttribute('open')) === null) await page.getByText('Paste YAML', { exact: true }).click();
  await page.getByLabel('Tournament definition to load').fill(text);
  await page.getByRole('button', { name: 'Load pasted YAML' }).click();
}

test('Focus: top k is a builder field whose schema errors show on it', async ({ page }) => {
  const { url, token } = engineFromEnv();
  const errors = watchConsole(page);
  await page.goto(`${url}/#/tournaments/new&token=${token}`);
  await new ArenaApp(page).waitLoaded();
  await paste(page, DEFINITION);

  const format = page.getByRole('region', { name: 'Format' });
  await expect(format.getByRole('radio', { name: /Adaptive/ })).toBeChecked();
  await expect(format.getByLabel('Budget: games')).toHaveValue('40');
  await expect(format.getByLabel('Confidence')).toHaveValue('0.9');
  const topK = format.getByLabel('Focus: top k');
  await expect(topK).toHaveValue('3');
  // Three agents: a top-3 focus is the whole ranking, which the definition schema refuses, on this field.
  await expect(topK).toHaveAttribute('aria-invalid', 'true');
  const describedBy = (await topK.getAttribute('aria-describedby')) ?? '';
  const errorList = page.locator(`[id="${describedBy.split(' ').find((id) => id.endsWith('-errors'))}"]`);
  await expect(errorList).toContainText('top_k must be fewer than the agents (3)');
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeDisabled();

  await topK.fill('2');
  await expect(topK).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('top_k must be fewer than the agents (3)')).toHaveCount(0);
  await expect(page.getByTestId('validation-state')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('yaml-preview')).toContainText('top_k: 2');
  await expect(page.getByTestId('adaptive-stop-rule')).toContainText('the top k and the pair below them');

  // Emptied, the focus is left out of the definition: the whole ranking must be decided.
  await topK.fill('');
  await expect(page.getByTestId('validation-state')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('yaml-preview')).not.toContainText('top_k');
  expect(errors).toEqual([]);
});
