// The Diplomacy map in the match viewer, against a real engine: seven scripted agents
// (test/fixtures/agents/tournament/diplomacy-script) play a recorded game whose 1901 has bounces, supports, a convoy,
// a dislodgement and its retreat; the viewer opens it and the map shows the orders of the phase at the selected
// timeline position, changing as the timeline steps. At 1024 px the map fits and its labels stay legible. The table
// is one click away. Screenshots: test-results/screenshots/diplomacy-map-*.png (the page, and the board alone).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = '/admin/api/v1';
const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');
const SCRIPT = 'test/fixtures/agents/tournament/diplomacy-script/agent.yaml';

/** The whole page, and the board alone (the map at the size the page gives it). */
async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
  const boardFile = path.join(SCREENSHOT_DIR, `${name}-board.png`);
  await page.getByTestId('board').screenshot({ path: boardFile });
  await test.info().attach(`${name}-board`, { path: boardFile, contentType: 'image/png' });
}

interface Line {
  index: number;
  timestamp: number;
  content: string;
  data?: { phase_id?: string; orders?: { order?: string; result: string }[] };
}

test.describe('the Diplomacy map', () => {
  const { url, token } = engineFromEnv();
  const headers = { Authorization: `Bearer ${token}` };

  test("a recorded game: the phase's orders, the bounces, the dislodgement and the retreat as the timeline steps", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const errors = watchErrors(page);
    const spec = {
      name: 'Diplomacy map e2e',
      challenge: 'diplomacy',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'diplomacy-map-e2e',
      options: { max_year: 1901 },
      agents: Array.from({ length: 7 }, (_, i) => ({ manifest: SCRIPT, id: `script-${i + 1}` })),
      stop: { kind: 'fixed' },
      limits: { move_seconds: 15, game_seconds: 60 },
    };
    const created = await request.post(`${url}${ADMIN}/tournaments`, { headers, data: { spec, base_dir: ROOT, start: true } });
    expect(created.ok(), await created.text()).toBe(true);
    const { id } = (await created.json()) as { id: string };
    await expect
      .poll(
        async () => ((await (await request.get(`${url}${ADMIN}/tournaments/${id}`, { headers })).json()) as { status: string }).status,
        {
          timeout: scaled(90_000),
          intervals: [500],
        },
      )
      .toBe('finished');
    const stored = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/games/0`, { headers })).json()) as { transcript: Line[] };
    // The viewer's timeline order; positions count from 1.
    const lines = [...stored.transcript].sort((a, b) => a.timestamp - b.timestamp || a.index - b.index);
    const resolved = (phase: string) => lines.findIndex((l) => l.content === 'phase_resolved' && l.data?.phase_id === phase) + 1;
    const ordersOf = (phase: string) => lines[resolved(phase) - 1]?.data?.orders ?? [];

    await page.setViewportSize({ width: 1024, height: 900 });
    await page.goto(`${url}/#/tournaments/${id}/games/0&token=${token}`);
    await expect(page.getByTestId('match-viewer')).toHaveAttribute('data-phase', 'stored');
    const board = page.getByTestId('board');
    await expect(board).toHaveAttribute('data-playable', 'diplomacy');
    const map = board.getByTestId('dm-map');
    const slider = page.getByRole('slider', { name: 'Replay the board up to line' });
    const boardAt = async (position: number) => {
      await slider.fill(String(position));
      await expect(board).toHaveAttribute('data-position', String(position));
    };

    // Before any order: the standard position, 22 units, 75 provinces, 34 centres.
    await boardAt(1);
    await expect(map).toBeVisible();
    await expect(map.getByTestId('dm-province')).toHaveCount(75);
    await expect(map.getByTestId('dm-centre')).toHaveCount(34);
    await expect(map.getByTestId('dm-unit')).toHaveCount(22);
    await expect(map.getByTestId('dm-order')).toHaveCount(0);
    await expect(map.locator('[data-testid="dm-unit"][data-at="STP/SC"]')).toHaveAttribute('data-type', 'F');

    // Spring 1901: every order drawn, four bounced moves marked where they met.
    await boardAt(resolved('S1901M'));
    await expect(map).toHaveAttribute('data-orders-of', 'S1901M');
    await expect(map.getByTestId('dm-order')).toHaveCount(ordersOf('S1901M').length);
    await expect(map.locator('[data-testid="dm-order"][data-from="BUD"][data-to="GAL"]')).toHaveAttribute('data-result', 'bounced');
    await expect(map.locator('[data-testid="dm-mark"][data-kind="bounce"]')).toHaveCount(4);
    await expect(map.locator('[data-testid="dm-order"][data-kind="support"][data-from="MAR"]')).toHaveAttribute('data-to', 'BUR');
    await screenshot(page, 'diplomacy-map-spring-1901');

    // Fall 1901: Austria takes Venice with support, the Italian army is dislodged; England convoys to Norway.
    await boardAt(resolved('F1901M'));
    await expect(map).toHaveAttribute('data-orders-of', 'F1901M');
    await expect(map.getByTestId('dm-order')).toHaveCount(ordersOf('F1901M').length);
    await expect(map.locator('[data-testid="dm-order"][data-from="TYR"][data-to="VEN"]')).toHaveAttribute('data-result', 'moved');
    await expect(map.locator('[data-testid="dm-mark"][data-kind="dislodged"]')).toHaveAttribute('data-province', 'VEN');
    await expect(map.locator('[data-testid="dm-unit"][data-at="VEN"][data-dislodged="true"]')).toHaveAttribute('data-power', 'ITALY');
    await expect(map.locator('[data-testid="dm-order"][data-kind="convoy"]')).toHaveAttribute('data-from', 'NTH');
    await expect(map.locator('[data-testid="dm-unit"][data-at="NWY"]')).toHaveAttribute('data-power', 'ENGLAND');
    // Legible at 1024 px: the map fits the window and a province label is at least 10 px tall.
    const fits = await page.evaluate(() => {
      // The spec's type check has no DOM library.
      const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
      return w.document.documentElement.scrollWidth <= w.innerWidth;
    });
    expect(fits).toBe(true);
    const label = await map.locator('text.dm-label').first().boundingBox();
    expect(label?.height ?? 0).toBeGreaterThanOrEqual(10);
    await screenshot(page, 'diplomacy-map-fall-1901');

    // One step on the timeline at a time up to the retreat: the map changes to it.
    await boardAt(resolved('F1901R') - 1);
    await expect(map.locator('[data-testid="dm-mark"][data-kind="dislodged"]')).toHaveCount(1);
    await page.getByRole('button', { name: 'Next line' }).click();
    await expect(board).toHaveAttribute('data-position', String(resolved('F1901R')));
    await expect(map).toHaveAttribute('data-orders-of', 'F1901R');
    await expect(map.getByTestId('dm-order')).toHaveCount(1);
    await expect(map.locator('[data-testid="dm-order"][data-kind="retreat"]')).toHaveAttribute('data-to', 'TUS');
    await expect(map.locator('[data-testid="dm-mark"][data-kind="dislodged"]')).toHaveCount(0);
    await expect(map.locator('[data-testid="dm-unit"][data-at="TUS"]')).toHaveAttribute('data-power', 'ITALY');
    await page.getByRole('button', { name: 'Previous line' }).click();
    await expect(map.locator('[data-testid="dm-mark"][data-kind="dislodged"]')).toHaveCount(1);

    // The game's real borders on demand (the regions are a sketch).
    await expect(map.getByTestId('dm-borders')).toHaveCount(0);
    await map.getByRole('checkbox', { name: /Show the borders/ }).check();
    await expect(map.getByTestId('dm-borders').locator('line')).toHaveCount(206);

    // The same game as a table, and back.
    await board.getByRole('button', { name: 'Table' }).click();
    await expect(board.getByTestId('bv-powers')).toBeVisible();
    await expect(map).toHaveCount(0);
    await board.getByRole('button', { name: 'Map' }).click();
    await expect(board.getByTestId('dm-map')).toBeVisible();
    await expect(board.getByRole('button', { name: 'Map' })).toHaveAttribute('aria-pressed', 'true');
    expect(errors).toEqual([]);
  });
});
