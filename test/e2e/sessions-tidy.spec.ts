// The Sessions page after a tournament with a crashing agent (a real fixture process): the crashed games left no
// session behind, the completed game's session is hidden by default and shown, tagged with its tournament, on
// request, and a session created by hand is always listed. No console errors.

import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = '/admin/api/v1';

test('sessions of tournament games: crashed ones removed, the rest hidden until asked for', async ({ page, request }) => {
  test.setTimeout(150_000);
  const { url, token } = engineFromEnv();
  const headers = { Authorization: `Bearer ${token}` };
  const errors = watchErrors(page);
  const created = await request.post(`${url}${ADMIN}/tournaments`, {
    headers,
    data: {
      base_dir: ROOT,
      spec: {
        name: 'Sessions tidy e2e',
        challenge: 'millionaire',
        format: 'round-robin',
        games_per_pairing: 1,
        concurrency: 1,
        seed: 'sessions-tidy',
        agents: [
          { manifest: 'challenges/millionaire/agents/truthful/agent.yaml', id: 'truthful' },
          { manifest: 'challenges/millionaire/agents/bluffer/agent.yaml', id: 'bluffer' },
          { manifest: 'test/fixtures/agents/tournament/crash-bot/agent.yaml', id: 'crash-bot' },
        ],
        stop: { kind: 'fixed' },
        limits: { move_seconds: 20, game_seconds: 40 },
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await request.get(`${url}${ADMIN}/tournaments/${id}`, { headers })).json()) as { status: string }).status, {
      timeout: scaled(120_000),
      intervals: [500],
    })
    .toBe('finished');
  const { games } = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/games`, { headers })).json()) as {
    games: Array<{ sessionId: string | null; termination: string }>;
  };
  const completed = games.filter((g) => g.termination === 'completed').map((g) => g.sessionId as string);
  const crashed = games.filter((g) => g.termination === 'agent_crash').map((g) => g.sessionId as string);
  expect(completed).toHaveLength(1);
  expect(crashed).toHaveLength(2);

  await page.goto(`${url}/#/sessions&token=${token}`);
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
  await page.getByTestId('challenge-select').selectOption('psi');
  await page.getByRole('button', { name: 'Create session' }).click();
  const own = await page.getByTestId('created-session').getAttribute('data-session-id');
  const table = page.getByTestId('sessions-table');
  await expect(table.locator(`tr[data-session-id="${own}"]`)).toBeVisible();
  await expect(table.locator(`tr[data-session-id="${completed[0]}"]`)).toHaveCount(0);

  const toggle = page.getByRole('checkbox', { name: 'Show sessions of tournament games' });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  const row = table.locator(`tr[data-session-id="${completed[0]}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('tournament-owned')).toHaveAttribute('href', `#/tournaments/${id}`);
  await expect(table.locator(`tr[data-session-id="${own}"]`)).toBeVisible();
  for (const gone of crashed) await expect(table.locator(`tr[data-session-id="${gone}"]`)).toHaveCount(0);
  expect(errors).toEqual([]);
});
