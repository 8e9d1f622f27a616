// Issue 48: the standings with model columns (tokens, cost, cost per rating point) hold their layout. A real round
// robin of Millionaire agents, two of which report model usage on stderr the way the model agent does (the engine's
// accounting reads it), is shown at 1024 px and 1400 px wide: every cell of the interval column lies inside the
// viewport and is visible without scrolling sideways, and no header's text is clipped ("Cost / rating point").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import YAML from 'yaml';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { engineFromEnv } from './support/global-setup.js';
import { screenshot } from './support/screenshots.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TRUTHFUL = path.join(ROOT, 'challenges/millionaire/agents/truthful');

/** A DOM element as the checks below read it (the specs' type check has no DOM library). */
interface Sized {
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
}

let agentsDir = '';
test.beforeAll(() => {
  agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-e2e-spend-'));
});
test.afterAll(() => fs.rmSync(agentsDir, { recursive: true, force: true }));

/**
 * The truthful baseline plus one model call's usage line on stderr (what the model agent prints per call), a fresh
 * process per game: the engine accounts a process's usage when it exits.
 */
function spendingAgent(id: string, costUsd: number, tokens: number): string {
  const dir = path.join(agentsDir, id);
  fs.mkdirSync(dir);
  const usage = {
    kind: 'call',
    v: 1,
    protocol: 'specarena',
    turn: 1,
    phase: 'initial',
    attempt: 1,
    provider: 'openai-compatible',
    model: 'layout-model',
    prompt_tokens: tokens - 200,
    completion_tokens: 200,
    latency_ms: 900,
    cost_usd: costUsd,
    priced: true,
    outcome: 'ok',
  };
  fs.writeFileSync(
    path.join(dir, 'agent.mjs'),
    `process.stderr.write(${JSON.stringify(`ARENA_MODEL_USAGE: ${JSON.stringify(usage)}\n`)});\nawait import(${JSON.stringify(path.join(TRUTHFUL, 'agent.mjs'))});\n`,
  );
  const manifest = YAML.parse(fs.readFileSync(path.join(TRUTHFUL, 'agent.yaml'), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(dir, 'agent.yaml'), YAML.stringify({ ...manifest, id, name: `Spending ${id}`, lifecycle: 'per-game' }));
  return path.join(dir, 'agent.yaml');
}

/** Every interval cell (and its header) wholly inside the viewport and on top at its centre (not covered). */
async function expectIntervalInView(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const table = page.getByTestId('standings-table');
  await table.scrollIntoViewIfNeeded();
  const cells = table.locator('.t-interval-head, .t-interval-cell');
  await expect(cells).toHaveCount(4);
  for (const cell of await cells.all()) {
    await expect(cell).toBeInViewport({ ratio: 1 });
    const box = await cell.boundingBox();
    if (!box) throw new Error('an interval cell has no box');
    expect(box.x + box.width, `interval cell inside ${width} px`).toBeLessThanOrEqual(width);
    const onTop = await cell.evaluate(
      (el, at) => {
        const doc = (el as unknown as { ownerDocument: { elementFromPoint(x: number, y: number): unknown } }).ownerDocument;
        const hit = doc.elementFromPoint(at.x, at.y);
        return hit !== null && (el as unknown as { contains(other: unknown): boolean }).contains(hit);
      },
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(onTop, `interval cell covered at ${width} px`).toBe(true);
  }
}

/** Headers whose text overflows their cell, or whose cell runs past the table's scroll box. */
async function clippedHeaders(page: Page): Promise<string[]> {
  const table = page.getByTestId('standings-table');
  const wrap = table.locator('xpath=..');
  const wrapBox = await wrap.boundingBox();
  if (!wrapBox) throw new Error('the standings have no box');
  const clipped: string[] = [];
  for (const head of await table.locator('thead th').all()) {
    const text = ((await head.textContent()) ?? '').trim();
    const fits = await head.evaluate((el) => {
      const h = el as unknown as Sized;
      return h.scrollWidth <= h.clientWidth && h.scrollHeight <= h.clientHeight;
    });
    const box = await head.boundingBox();
    if (!fits || !box || box.x < wrapBox.x - 1 || box.x + box.width > wrapBox.x + wrapBox.width + 1) clipped.push(text);
  }
  return clipped;
}

test('standings with model columns keep the interval in view at 1024 px and every header whole at 1400 px', async ({ page }) => {
  test.setTimeout(scaled(180_000));
  const { url, token } = engineFromEnv();
  const admin = async <T>(route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/admin/api/v1${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = await res.text();
    expect(res.status, `${route}: ${answer}`).toBeLessThan(300);
    return JSON.parse(answer) as T;
  };
  const created = await admin<{ id: string }>('/tournaments', {
    spec: {
      name: 'Standings layout with model spend',
      challenge: 'millionaire',
      format: { kind: 'round-robin' },
      games_per_pairing: 1,
      concurrency: 2,
      seed: 'layout-1',
      agents: [
        { manifest: spendingAgent('frontier-model-long-name', 0.4213, 183_400), id: 'frontier-model-long-name' },
        { manifest: spendingAgent('small-local-model', 0.0021, 9_800), id: 'small-local-model' },
        { manifest: path.join(TRUTHFUL, 'agent.yaml'), id: 'scripted-baseline' },
      ],
      limits: { move_seconds: 10, game_seconds: 30 },
    },
    base_dir: ROOT,
  });
  await expect
    .poll(async () => (await admin<{ status: string }>(`/tournaments/${created.id}`)).status, { timeout: scaled(150_000) })
    .toBe('finished');

  await page.goto(`${url}/#/tournaments/${created.id}&token=${token}`);
  await new ArenaApp(page).waitLoaded();
  const table = page.getByTestId('standings-table');
  await expect(table.locator('thead th', { hasText: 'Tokens' })).toBeVisible();
  await expect(table.getByTestId('cost-per-rating-point')).toHaveCount(3);
  // Two games of 183,400 tokens each.
  await expect(table.locator('tr[data-agent="frontier-model-long-name"]')).toContainText('366800');

  // 1024 px: the columns scroll sideways beneath the interval, which stays in view; scrolled to the end, every
  // header is whole and the interval is still there.
  await expectIntervalInView(page, 1024);
  await screenshot(page, 'standings-layout-1024');
  const wrap = table.locator('xpath=..');
  await wrap.evaluate((el) => {
    const box = el as unknown as { scrollLeft: number; scrollWidth: number };
    box.scrollLeft = box.scrollWidth;
  });
  await expectIntervalInView(page, 1024);
  const costHead = table.locator('thead th', { hasText: 'Cost / rating point' });
  await expect(costHead).toBeInViewport({ ratio: 1 });
  expect(await costHead.evaluate((el) => (el as unknown as Sized).scrollWidth <= (el as unknown as Sized).clientWidth)).toBe(true);

  // 1400 px: everything fits, nothing scrolls sideways, no header is cut.
  await expectIntervalInView(page, 1400);
  const overflow = await wrap.evaluate((el) => (el as unknown as Sized).scrollWidth - (el as unknown as Sized).clientWidth);
  expect(overflow, 'standings scroll sideways at 1400 px').toBeLessThanOrEqual(0);
  expect(await clippedHeaders(page)).toEqual([]);
  await screenshot(page, 'standings-layout-1400');
});
