// Results a researcher can use, in a browser against a real engine: the shipped example definition imports into the
// builder (its manifest paths are relative to the example's folder, not to the engine's), and the Compare view
// shows two runs of the same agents on the same seed with one agent changed.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import YAML from 'yaml';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { engineFromEnv } from './support/global-setup.js';
import { expectSeats } from './support/seats.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLE = path.join(ROOT, 'examples/quickstart.tournament.yaml');
const BASELINES = ['Honest exact', 'Greedy overclaim', 'Cautious minimal'];

test.describe('results in a browser', () => {
  const { url, token } = engineFromEnv();
  const admin = (p: string, init: RequestInit = {}) =>
    fetch(`${url}/admin/api/v1${p}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });

  test('the shipped example imports into the builder and validates', async ({ page }) => {
    const app = new ArenaApp(page);
    await page.goto(`${url}/#/tournaments/new&token=${token}`);
    await app.waitLoaded();
    await page.getByLabel('Import YAML file').setInputFiles({
      name: 'quickstart.tournament.yaml',
      mimeType: 'application/yaml',
      buffer: fs.readFileSync(EXAMPLE),
    });
    await expect(page.getByText('Loaded quickstart.tournament.yaml.')).toBeVisible();
    await expectSeats(page, BASELINES);
    await expect(page.getByTestId('validation-state')).toHaveAttribute('data-state', 'ok');
    await expect(page.getByTestId('planned-games')).toContainText('12');
    // The YAML it would export names manifests relative to the engine's folder, not by this machine's absolute path.
    await page.getByText('Preview').click();
    const preview = await page.getByTestId('yaml-preview').textContent();
    expect(preview).toContain('manifest: challenges/psi/agents/honest-exact/agent.yaml');
    expect(preview).not.toContain(ROOT);
  });

  test('Compare view: two runs on the same seed, one agent changed', async ({ page }) => {
    test.setTimeout(150_000);
    const raw = YAML.parse(fs.readFileSync(EXAMPLE, 'utf8'));
    const absolute = (m: string) => path.resolve(path.dirname(EXAMPLE), m);
    const specA = {
      ...raw,
      name: 'compare A',
      agents: raw.agents.map((a: { manifest: string }) => ({ ...a, manifest: absolute(a.manifest) })),
    };
    const specB = {
      ...specA,
      name: 'compare B',
      agents: specA.agents.map((a: { manifest: string; id: string }) =>
        a.id === 'greedy-overclaim' ? { ...a, manifest: absolute('../challenges/psi/agents/cautious-minimal/agent.yaml') } : a,
      ),
    };
    const ids: string[] = [];
    for (const spec of [specA, specB]) {
      const res = await admin('/tournaments', { method: 'POST', body: JSON.stringify({ spec, base_dir: ROOT, start: true }) });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { id: string }).id);
    }
    await expect
      .poll(
        async () => {
          const states = await Promise.all(
            ids.map(async (id) => ((await (await admin(`/tournaments/${id}`)).json()) as { status: string }).status),
          );
          return states.join(',');
        },
        { timeout: scaled(120_000), intervals: [1000] },
      )
      .toBe('finished,finished');

    const app = new ArenaApp(page);
    await page.goto(`${url}/#/tournaments&token=${token}`);
    await app.waitLoaded();
    await page.getByRole('link', { name: 'Compare runs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Compare runs' })).toBeVisible();
    await page.getByTestId('compare-a').selectOption(ids[0] as string);
    await page.getByTestId('compare-b').selectOption(ids[1] as string);
    await expect(page).toHaveURL(new RegExp(`a=${ids[0]}&b=${ids[1]}`));
    const ratings = page.getByTestId('compare-ratings');
    await expect(ratings.locator('tbody tr')).toHaveCount(3);
    await expect(ratings.locator('tr[data-agent="greedy-overclaim"]')).toContainText('changed');
    await expect(ratings.locator('tr[data-agent="honest-exact"]')).toContainText('same files');
    // Every delta reads as a number with an interval or an open side; never Infinity or NaN.
    for (const text of await page.getByTestId('compare-delta').allTextContents())
      expect(text).toMatch(/^[+−]?\d+ \[(open|[<>] [+−]?\d+|[+−]?\d+, [+−]?\d+)\]$/);
    const paired = page.getByTestId('compare-paired');
    for (const agent of ['honest-exact', 'greedy-overclaim', 'cautious-minimal'])
      await expect(paired.locator(`tr[data-agent="${agent}"]`)).toHaveAttribute('data-pairs', '8');
    await expect(page.getByTestId('compare-exports').getByRole('button', { name: 'Export CSV' })).toBeVisible();
    await expect(page.getByTestId('compare-page')).not.toContainText(/Infinity|NaN/);
  });

  test('forfeits read the same in the live view, the games list and the match viewer, with a warning', async ({ page }) => {
    test.setTimeout(90_000);
    const spec = {
      name: 'sleeper',
      challenge: 'millionaire',
      format: 'round-robin',
      games_per_pairing: 2,
      concurrency: 2,
      seed: 5,
      agents: [
        { manifest: path.join(ROOT, 'challenges/millionaire/agents/truthful/agent.yaml') },
        { manifest: path.join(ROOT, 'test/fixtures/agents/tournament/sleeper-bot/agent.yaml') },
      ],
      limits: { move_seconds: 5, game_seconds: 20 },
    };
    const res = await admin('/tournaments', { method: 'POST', body: JSON.stringify({ spec, base_dir: ROOT, start: true }) });
    const { id } = (await res.json()) as { id: string };
    await expect
      .poll(async () => ((await (await admin(`/tournaments/${id}`)).json()) as { status: string }).status, {
        timeout: scaled(60_000),
        intervals: [1000],
      })
      .toBe('finished');
    const app = new ArenaApp(page);
    await page.goto(`${url}/#/tournaments/${id}&token=${token}`);
    await app.waitLoaded();
    // Agents are named by their manifest ids; the sleeper's own faults end all its games, and the view says so.
    await expect(page.getByTestId('run-warnings')).toContainText('sleeper-bot: 2 of its 2 games ended in its own fault (agent_timeout 2)');
    const standings = page.getByTestId('standings-table');
    await expect(standings.locator('tr[data-agent="truthful"]')).toContainText('2 / 0 / 0');
    const recent = page.getByTestId('recent-games');
    await expect(recent.locator('tbody tr')).toHaveCount(2);
    for (const row of await recent.locator('tbody tr').all()) {
      await expect(row).toContainText('forfeit');
      await expect(row.locator('.t-winner')).toHaveText('truthful');
    }
    await recent.getByRole('link', { name: 'Open game 1' }).click();
    await expect(page.getByTestId('game-result')).toHaveText('truthful wins by forfeit');
  });
});
