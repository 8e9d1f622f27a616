// The owner's dashboard for ClawArena agents on the Agents page, against a real engine: create an agent (the token
// shown once works on the agent API and copies), change its guidance, rotate its token, request a watcher restart,
// and see its match after it played one.
import { expect, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { engineFromEnv } from './support/global-setup.js';

test.describe('ClawArena agents', () => {
  const { url, token } = engineFromEnv();

  test('create, guide, rotate, restart and see matches', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/#/agents&token=${token}`);
    await new ArenaApp(page).waitLoaded();
    const section = page.getByTestId('claw-agents');
    await expect(section.getByRole('heading', { name: 'ClawArena agents' })).toBeVisible();

    const form = section.getByRole('form', { name: 'Create ClawArena agent' });
    await form.getByLabel('Name', { exact: true }).fill('e2e-owner');
    await form.getByRole('combobox', { name: 'Game', exact: true }).selectOption('liars_dice');
    await form.getByRole('combobox', { name: 'Risk', exact: true }).selectOption('aggressive');
    await form.getByLabel('Language', { exact: true }).fill('Italian');
    await form.getByRole('button', { name: 'Create agent' }).click();
    const shown = form.getByTestId('claw-token');
    await expect(shown).toContainText('shown only once');
    const created = (await shown.locator('code').textContent())?.trim() ?? '';
    expect(created.length).toBeGreaterThan(40);
    await shown.getByRole('button', { name: 'Copy connection token' }).click();
    // Runs in the page, which has a navigator (the spec's own type-check does not know the DOM).
    const clip = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(clip).toBe(created);

    // The token works on the agent API and the guidance reaches the agent.
    const poll = await fetch(`${url}/api/v1/agents/game/?wait=0`, { headers: { authorization: `Bearer ${created}` } });
    const body = (await poll.json()) as { status: string; agent_preferences: Record<string, unknown> };
    expect(body.status).toBe('waiting');
    expect(body.agent_preferences.message_language).toBe('Italian');

    const item = section.locator('[data-testid="claw-agent"][data-agent-name="e2e-owner"]');
    await expect(item).toBeVisible();
    await expect(item.getByRole('combobox', { name: 'Risk', exact: true })).toHaveValue('aggressive');
    // The list never shows the token again.
    await expect(section.locator('[data-testid="claw-agent"]', { hasText: created })).toHaveCount(0);

    await item.getByRole('combobox', { name: 'Play mode', exact: true }).selectOption('manual');
    await item.getByLabel('Strategy hint (delivered once per match)', { exact: true }).fill('bid low early');
    await item.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const res = await fetch(`${url}/admin/api/v1/clawarena/agents`, { headers: { authorization: `Bearer ${token}` } });
        const list = (await res.json()) as { agents: { name: string; playMode: string; strategyHint: string | null }[] };
        return list.agents.find((a) => a.name === 'e2e-owner');
      })
      .toMatchObject({ playMode: 'manual', strategyHint: 'bid low early' });

    await item.getByRole('button', { name: 'Rotate token' }).click();
    const rotated = item.getByTestId('claw-token');
    await expect(rotated).toContainText('previous one no longer works');
    const fresh = (await rotated.locator('code').textContent())?.trim() ?? '';
    expect(fresh).not.toBe(created);
    const oldAuth = await fetch(`${url}/api/v1/agents/game/?wait=0`, { headers: { authorization: `Bearer ${created}` } });
    expect(oldAuth.status).toBe(401);

    await item.getByRole('button', { name: 'Request watcher restart' }).click();
    await expect(section.locator('[data-testid="claw-agent"][data-agent-name="e2e-owner"]')).toContainText('restart requested');

    // Back to autoplay, and a second agent: the two are seated in a Liar's Dice match that shows in the list.
    await item.getByRole('combobox', { name: 'Play mode', exact: true }).selectOption('autoplay');
    await item.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const res = await fetch(`${url}/api/v1/agents/game/?wait=0`, { headers: { authorization: `Bearer ${fresh}` } });
        return ((await res.json()) as { status: string }).status;
      })
      .toBe('waiting');
    const second = await fetch(`${url}/admin/api/v1/clawarena/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'e2e-opponent', gameType: 'liars_dice' }),
    });
    const opponent = ((await second.json()) as { token: string }).token;
    const seated = await fetch(`${url}/api/v1/agents/game/?wait=0`, { headers: { authorization: `Bearer ${opponent}` } });
    expect(((await seated.json()) as { status: string }).status).toBe('playing');
    await item.getByRole('button', { name: 'Matches' }).click();
    const matches = item.getByTestId('claw-matches');
    await expect(matches).toContainText('liars_dice');
    await expect(matches).toContainText('e2e-opponent');
    expect(errors).toEqual([]);
  });
});
