// The live side of the app against a real engine: the match viewer's timeline follows a running game's new lines and,
// once the reader scrolls back, leaves their place alone and offers "Jump to latest"; the run controls show a state
// only when the engine has confirmed it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Locator, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';
import { screenshot } from './support/screenshots.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = '/admin/api/v1';

/** A millionaire run in which ticker-bot chats every 300 ms and never guesses: each game lasts until its clock runs out. */
async function tickerRun(
  request: APIRequestContext,
  url: string,
  token: string,
  name: string,
  options: { games?: number; moveSeconds?: number; gameSeconds?: number; truthful?: string; start?: boolean } = {},
): Promise<string> {
  const spec = {
    name,
    challenge: 'millionaire',
    format: 'round-robin',
    games_per_pairing: options.games ?? 1,
    concurrency: 1,
    seed: name,
    agents: [
      { manifest: options.truthful ?? 'challenges/millionaire/agents/truthful/agent.yaml', id: 'truthful' },
      { manifest: 'test/fixtures/agents/tournament/ticker-bot/agent.yaml', id: 'ticker-bot' },
    ],
    stop: { kind: 'fixed' },
    limits: { move_seconds: options.moveSeconds ?? 150, game_seconds: options.gameSeconds ?? 180 },
  };
  const created = await request.post(`${url}${ADMIN}/tournaments`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { spec, base_dir: ROOT, start: options.start ?? true },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { id: string }).id;
}

async function runningIndex(request: APIRequestContext, url: string, token: string, id: string): Promise<number> {
  let index = -1;
  await expect
    .poll(
      async () => {
        const answer = await request.get(`${url}${ADMIN}/tournaments/${id}/running`, { headers: { Authorization: `Bearer ${token}` } });
        const running = (await answer.json()) as { games: { game_index: number; session_id: string | null }[] };
        index = running.games.find((g) => g.session_id !== null)?.game_index ?? -1;
        return index;
      },
      { timeout: 30_000, intervals: [200] },
    )
    .toBeGreaterThanOrEqual(0);
  return index;
}

const lineCount = async (timeline: Locator): Promise<number> => Number(await timeline.getAttribute('data-row-count'));

/** The scrolling box's position and whether its newest row is on screen. */
async function scrollState(region: Locator): Promise<{ top: number; atEnd: boolean }> {
  return region.evaluate((el) => {
    const box = el as unknown as { scrollTop: number; scrollHeight: number; clientHeight: number };
    return { top: box.scrollTop, atEnd: box.scrollHeight - box.scrollTop - box.clientHeight <= 24 };
  });
}

test.describe('live match viewer', () => {
  const { url, token } = engineFromEnv();

  test('the timeline follows new lines, keeps a reader who scrolled back in place, and jumps to the latest', async ({ page, request }) => {
    test.setTimeout(scaled(150_000));
    const errors = watchErrors(page);
    const id = await tickerRun(request, url, token, 'Live follow e2e');
    const index = await runningIndex(request, url, token, id);
    // Tall enough that the whole timeline box is on screen, so "in the viewport" is about the box's own scrolling.
    await page.setViewportSize({ width: 1360, height: 1400 });
    await page.goto(`${url}/#/tournaments/${id}/games/${index}&token=${token}`);
    const viewer = page.getByTestId('match-viewer');
    await expect(viewer).toHaveAttribute('data-phase', 'live');
    const region = page.getByRole('region', { name: 'Game timeline (scrollable)' });
    const list = page.getByRole('list', { name: 'Game timeline' });

    // Enough lines to overflow the box, then each new line is brought into view: the newest row is rendered and the
    // box sits at its end, several times over as lines keep arriving.
    await expect.poll(() => lineCount(region), { timeout: 60_000 }).toBeGreaterThan(30);
    for (let round = 0; round < 3; round++) {
      const before = await lineCount(region);
      await expect.poll(() => lineCount(region)).toBeGreaterThan(before);
      const now = await lineCount(region);
      await expect(list.locator(`li[aria-posinset="${now}"]`)).toBeInViewport();
      await expect.poll(async () => (await scrollState(region)).atEnd).toBe(true);
    }
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);

    // The reader scrolls back: new lines keep arriving but the box stays exactly where the reader left it.
    await region.hover();
    await page.mouse.wheel(0, -100_000);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await expect(jump).toBeVisible();
    await expect(viewer).toHaveAttribute('data-phase', 'live');
    // Wait for the wheel's scroll to land (two equal readings in a row), well away from the newest line.
    let readings: number[] = [];
    await expect
      .poll(async () => {
        readings = [...readings.slice(-1), (await scrollState(region)).top];
        return readings.length === 2 && readings[0] === readings[1];
      })
      .toBe(true);
    const reading = await scrollState(region);
    expect(reading.atEnd).toBe(false);
    const held = await lineCount(region);
    await expect.poll(() => lineCount(region)).toBeGreaterThan(held + 3);
    expect((await scrollState(region)).top).toBe(reading.top);
    await expect(list.locator(`li[aria-posinset="${await lineCount(region)}"]`)).not.toBeInViewport();
    await screenshot(page, 'live-01-scrolled-back');

    // "Jump to latest" brings the newest line back and following resumes with the next ones.
    await jump.click();
    await expect(jump).toHaveCount(0);
    const after = await lineCount(region);
    await expect.poll(() => lineCount(region)).toBeGreaterThan(after);
    const newest = await lineCount(region);
    await expect(list.locator(`li[aria-posinset="${newest}"]`)).toBeInViewport();
    await expect.poll(async () => (await scrollState(region)).atEnd).toBe(true);
    await expect(viewer).toHaveAttribute('data-phase', 'live');

    await request.post(`${url}${ADMIN}/tournaments/${id}/cancel`, { headers: { Authorization: `Bearer ${token}` } });
    expect(errors).toEqual([]);
  });

  test('run controls show a state only when the engine has confirmed it, and a refused action says why', async ({ page, request }) => {
    test.setTimeout(scaled(180_000));
    const errors = watchErrors(page, [/status of 4\d\d/]);
    // Created, not started: the first control is Start.
    const id = await tickerRun(request, url, token, 'Controls e2e', { games: 3, moveSeconds: 10, gameSeconds: 25, start: false });
    await page.goto(`${url}/#/tournaments/${id}&token=${token}`);
    const live = page.getByTestId('tournament-live');
    await expect(live).toHaveAttribute('data-status', 'paused');
    const controls = page.getByTestId('tournament-controls');
    const indicator = page.getByTestId('live-indicator');
    await expect(indicator).toHaveAttribute('data-live', 'open');
    await expect(indicator).toHaveText('Connected');

    // Every render is recorded in the page: the badge, the buttons and the dot, so no state in between is missed.
    await page.evaluate(() => {
      type El = { textContent: string | null; className: string; getAttribute(name: string): string | null };
      const win = globalThis as unknown as {
        controlLog: Array<{ status: string; buttons: string[]; dot: string; pending: string | null }>;
        document: { body: unknown; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> };
        MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
      };
      const log: typeof win.controlLog = [];
      win.controlLog = log;
      const record = () => {
        const status = win.document.querySelector('[data-testid="tournament-live"]')?.getAttribute('data-status') ?? '';
        const buttons = Array.from(win.document.querySelectorAll('[data-testid="tournament-controls"] button')).map((b) =>
          (b.textContent ?? '').trim(),
        );
        const dot = win.document.querySelector('[data-testid="live-indicator"]')?.className ?? '';
        const pending = win.document.querySelector('[data-testid="tournament-controls"]')?.getAttribute('data-pending') ?? null;
        const entry = { status, buttons, dot, pending };
        const last = log[log.length - 1];
        if (!last || JSON.stringify(last) !== JSON.stringify(entry)) log.push(entry);
      };
      record();
      new win.MutationObserver(record).observe(win.document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(live).toHaveAttribute('data-status', 'running');
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeEnabled();
    await expect(indicator).toHaveText('Live');
    await expect(page.getByTestId('running-games').locator('li[data-game-index]')).toHaveCount(1);

    // Pause: the game in flight plays on, so the engine answers "pausing" and the button waits with it.
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(controls).toHaveAttribute('data-pending', 'pausing');
    const summary = async () =>
      (await (await request.get(`${url}${ADMIN}/tournaments/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        status: string;
        active: boolean;
        stopping?: string;
      };
    const told = await summary();
    expect(told.status === 'paused' || told.stopping === 'pausing').toBe(true);
    await expect(live).toHaveAttribute('data-status', 'paused', { timeout: 60_000 });
    await expect(page.getByRole('button', { name: /^(Resume|Start)$/ })).toBeEnabled();
    await expect(indicator).toHaveText('Connected');
    await screenshot(page, 'live-02-paused');

    // Resume, then Cancel (two clicks): each pending until the engine reports the new state.
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect(live).toHaveAttribute('data-status', 'running');
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeEnabled();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm cancel', exact: true }).click();
    await expect(live).toHaveAttribute('data-status', 'cancelled', { timeout: 60_000 });

    const log = await page.evaluate(
      () =>
        (globalThis as unknown as { controlLog: Array<{ status: string; buttons: string[]; dot: string; pending: string | null }> })
          .controlLog,
    );
    test.info().annotations.push({ type: 'control states', description: JSON.stringify(log) });
    // Never ahead of the engine: no Paused badge beside a Pause button or a green dot, no Pause before it runs.
    for (const step of log) {
      if (step.status === 'paused') {
        expect(step.buttons, JSON.stringify(step)).not.toContain('Pause');
        expect(step.dot, JSON.stringify(step)).not.toMatch(/live-open(?! live-idle)/);
      }
      if (step.status === 'running' && step.pending === null) expect(step.buttons, JSON.stringify(step)).not.toContain('Resume');
    }
    // The pending state was shown while the engine carried out the pause.
    expect(log.some((step) => step.status === 'running' && step.buttons.includes('Pausing…'))).toBe(true);

    // A refused action says why: a run whose agent folder went away is refused by the engine on Start.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-live-controls-'));
    fs.cpSync(path.join(ROOT, 'challenges/millionaire/agents/truthful'), folder, { recursive: true });
    const doomed = await tickerRun(request, url, token, 'Controls refused e2e', {
      start: false,
      truthful: path.join(folder, 'agent.yaml'),
    });
    fs.rmSync(folder, { recursive: true, force: true });
    await page.goto(`${url}/#/tournaments/${doomed}`);
    await expect(page.getByTestId('tournament-live')).toHaveAttribute('data-status', 'paused');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByTestId('tournament-controls').getByRole('alert')).toContainText('agent.yaml');
    await expect(page.getByTestId('tournament-live')).toHaveAttribute('data-status', 'paused');
    await screenshot(page, 'live-03-refused');
    expect(errors).toEqual([]);
  });

  test('view as seat: the engine sends the game as one seat saw it, and the page shows only that', async ({ page, request }) => {
    test.setTimeout(scaled(120_000));
    const errors = watchErrors(page);
    const auth = { Authorization: `Bearer ${token}` };
    const spec = {
      name: 'Seat view e2e',
      challenge: 'millionaire',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'seat-view-e2e',
      agents: [
        { manifest: 'challenges/millionaire/agents/truthful/agent.yaml', id: 'truthful' },
        { manifest: 'challenges/millionaire/agents/bluffer/agent.yaml', id: 'bluffer' },
      ],
      stop: { kind: 'fixed' },
      limits: { move_seconds: 20, game_seconds: 60 },
    };
    const created = await request.post(`${url}${ADMIN}/tournaments`, { headers: auth, data: { spec, base_dir: ROOT } });
    expect(created.ok(), await created.text()).toBe(true);
    const id = ((await created.json()) as { id: string }).id;
    await expect
      .poll(
        async () =>
          ((await (await request.get(`${url}${ADMIN}/tournaments/${id}`, { headers: auth })).json()) as { status: string }).status,
        {
          timeout: scaled(60_000),
        },
      )
      .toBe('finished');
    type Line = { from: number | string; to: number | string | null; content: string; channel: string };
    const full = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/games/0`, { headers: auth })).json()) as {
      transcript: Line[];
    };
    // The operator tells each seat its own wealth in a direct line: the other seat must not read it.
    const toSeat1 = full.transcript.find((l) => l.channel === 'operator' && l.from === 'operator' && l.to === 0);
    const toSeat2 = full.transcript.find((l) => l.channel === 'operator' && l.from === 'operator' && l.to === 1);
    expect(toSeat1?.content).toBeTruthy();
    expect(toSeat2?.content).toBeTruthy();

    await page.goto(`${url}/#/tournaments/${id}/games/0&token=${token}`);
    await expect(page.getByTestId('match-viewer')).toHaveAttribute('data-phase', 'stored');
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    await expect(timeline).toContainText(toSeat1?.content as string);

    // As seat 2 (bluffer): what the browser receives is already filtered by the engine.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/tournaments/${id}/games/0?seat=1`)),
      page.getByRole('combobox', { name: 'View as' }).selectOption({ label: 'bluffer (seat 2)' }),
    ]);
    const received = await answer.text();
    expect(received).not.toContain(toSeat1?.content as string);
    expect(received).toContain(toSeat2?.content as string);
    await expect(page.getByTestId('seat-view')).toHaveAttribute('data-seat', '1');
    await expect(timeline).toContainText(toSeat2?.content as string);
    await expect(timeline).not.toContainText(toSeat1?.content as string);
    await expect(timeline.locator('[data-redacted="true"]').first()).toContainText('redacted for this viewer');
    await screenshot(page, 'live-04-view-as-seat');

    // Back to the full record.
    await page.getByRole('combobox', { name: 'View as' }).selectOption({ label: 'Everyone (the full record)' });
    await expect(timeline).toContainText(toSeat1?.content as string);
    // A seat the game does not have is refused with the range.
    const refused = await request.get(`${url}${ADMIN}/tournaments/${id}/games/0?seat=5`, { headers: auth });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain('seat must be 0 to 1');
    expect(errors).toEqual([]);
  });
});
