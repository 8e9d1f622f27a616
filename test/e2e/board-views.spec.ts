// Board views in the match viewer, against a real engine with real baseline agents: a ClawArena game (Liar's Dice)
// and a SpecArena game (PSI) each show their board beside the timeline, the board follows the selected line (its
// content is checked at two positions), event lines read as sentences with agent names (raw JSON one click away),
// and previous / next move between the tournament's games; a running Liar's Dice game is followed live, its board
// changing as the match's events arrive. No console errors; every control has an accessible name.
// README screenshots: ARENA_SCREENSHOTS=docs npx playwright test test/e2e/board-views.spec.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';
import { screenshot as saveScreenshot } from './support/screenshots.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = '/admin/api/v1';
const DOCS_DIR = path.resolve('docs', 'screenshots');
const DOCS = process.env.ARENA_SCREENSHOTS === 'docs';

async function screenshot(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, name);
  if (DOCS) {
    fs.mkdirSync(DOCS_DIR, { recursive: true });
    await page.getByTestId('board').screenshot({ path: path.join(DOCS_DIR, `${name}.png`) });
  }
}

/** A DOM node as the check below reads it (the spec's type check has no DOM library). */
interface Control {
  getAttribute(name: string): string | null;
  textContent: string | null;
  labels?: ArrayLike<{ textContent: string | null }> | null;
  outerHTML: string;
}

/** Buttons, links, inputs and disclosures inside the viewer that have no accessible name. */
async function unnamedControls(page: Page): Promise<string[]> {
  return page.getByTestId('match-viewer').evaluate((root) => {
    const found = (root as unknown as { querySelectorAll(selector: string): ArrayLike<Control> }).querySelectorAll(
      'button, a[href], input, select, textarea, summary',
    );
    const out: string[] = [];
    for (const el of Array.from(found)) {
      const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title');
      const label = el.labels && el.labels.length > 0 ? el.labels[0]?.textContent?.trim() : '';
      if (!named && !el.textContent?.trim() && !label) out.push(el.outerHTML.slice(0, 120));
    }
    return out;
  });
}

async function playTournament(
  request: APIRequestContext,
  url: string,
  token: string,
  t: { name: string; challenge: string; agents: [manifest: string, id: string][]; games?: number; options?: object },
): Promise<string> {
  const spec = {
    name: t.name,
    challenge: t.challenge,
    format: 'round-robin',
    games_per_pairing: t.games ?? 2,
    ...(t.options ? { options: t.options } : {}),
    concurrency: 1,
    seed: `boards-${t.challenge}`,
    agents: t.agents.map(([manifest, id]) => ({ manifest, id })),
    stop: { kind: 'fixed' },
    limits: { move_seconds: 15, game_seconds: 40 },
  };
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post(`${url}${ADMIN}/tournaments`, { headers, data: { spec, base_dir: ROOT, start: true } });
  expect(created.ok(), await created.text()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`${url}${ADMIN}/tournaments/${id}`, { headers })).json()) as { status: string }).status, {
      timeout: scaled(90_000),
      intervals: [500],
    })
    .toBe('finished');
  return id;
}

/** Moves the board to a timeline position (1-based) with the slider. */
async function boardAt(page: Page, line: number): Promise<void> {
  await page.getByRole('slider', { name: 'Replay the board up to line' }).fill(String(line));
  await expect(page.getByTestId('board')).toHaveAttribute('data-position', String(line));
}

test.describe('board views in the match viewer', () => {
  const { url, token } = engineFromEnv();

  test("a Liar's Dice game: hands, bids and the challenge follow the selected line; lines read as sentences", async ({ page, request }) => {
    test.setTimeout(150_000);
    const errors = watchErrors(page);
    const id = await playTournament(request, url, token, {
      name: 'Boards e2e dice',
      challenge: 'liars_dice',
      agents: [
        ['agents/clawarena/baseline-node/agent.yaml', 'baseline-node'],
        ['agents/clawarena/baseline-python/agent.yaml', 'baseline-python'],
      ],
    });
    const stored = (await (
      await request.get(`${url}${ADMIN}/tournaments/${id}/games/0`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as {
      transcript: Array<{ content: string; data?: { all_dice?: Record<string, number[]> } }>;
    };
    const bids = stored.transcript.filter((e) => e.content === 'bid').length;
    await page.goto(`${url}/#/tournaments/${id}/games/0&token=${token}`);
    await expect(page.getByTestId('match-viewer')).toHaveAttribute('data-phase', 'stored');
    const board = page.getByTestId('board');
    await expect(board).toHaveAttribute('data-playable', 'liars_dice');
    await expect(page.getByTestId('game-outcome')).toContainText(/^Winner: baseline-(node|python) \(seat [12]\)\.$/);

    // The newest line: every bid on the ladder and the challenge decided.
    await expect(board.getByTestId('bv-bids').locator('li')).toHaveCount(bids);
    await expect(board.getByTestId('bv-challenge')).toContainText('called LIAR');
    await screenshot(page, 'board-liars-dice');

    // The first line: the hands (revealed by the challenge) but no bid yet.
    await boardAt(page, 1);
    await expect(board).toContainText('No bid yet.');
    await expect(board.getByTestId('bv-challenge')).toHaveCount(0);
    await expect(board.getByTestId('bv-hand').first().getByRole('img')).toHaveAttribute('aria-label', /^dice \d, \d, \d, \d, \d$/);
    await page.getByRole('button', { name: 'Next line' }).click();
    await expect(board).toHaveAttribute('data-position', '2');

    // Picking a line in the timeline moves the board there: the first bid.
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    const firstBid = timeline.locator('article', { hasText: / bids 1 × / }).first();
    await firstBid.getByRole('button', { name: /^Show the board after the line at/ }).click();
    await expect(board.getByTestId('bv-bids').locator('li')).toHaveCount(1);
    await expect(firstBid).toHaveAttribute('data-selected', 'true');
    // Readable lines name agents by seat; the raw event is one click away.
    await expect(firstBid.getByTestId('line-text')).toHaveText(/^baseline-(node|python) \(seat [12]\) bids 1 × \d/);
    await expect(timeline.getByTestId('line-text').filter({ hasText: '"agent_id"' })).toHaveCount(0);
    await firstBid.getByText('Raw event: bid').click();
    await expect(firstBid.locator('pre')).toContainText('"agent_id"');
    await page.getByRole('button', { name: 'Latest' }).click();
    await expect(board).toHaveAttribute('data-position', String(stored.transcript.length));

    expect(await unnamedControls(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('a PSI game: private sets, guesses and the intersection at two positions; previous / next game', async ({ page, request }) => {
    test.setTimeout(150_000);
    const errors = watchErrors(page);
    const id = await playTournament(request, url, token, {
      name: 'Boards e2e PSI',
      challenge: 'psi',
      agents: [
        ['challenges/psi/agents/honest-exact/agent.yaml', 'honest-exact'],
        ['challenges/psi/agents/greedy-overclaim/agent.yaml', 'greedy-overclaim'],
      ],
    });
    await page.goto(`${url}/#/tournaments/${id}/games/0&token=${token}`);
    await expect(page.getByTestId('match-viewer')).toHaveAttribute('data-phase', 'stored');
    const board = page.getByTestId('board');
    await expect(board).toHaveAttribute('data-playable', 'psi');

    // At the end: both sets, both guesses, the intersection and the scores.
    await expect(board.getByTestId('bv-intersection')).toContainText(/\{\d{3}(, \d{3})*\}/);
    await expect(board.getByTestId('bv-guess').filter({ hasText: 'no guess yet' })).toHaveCount(0);
    await expect(board.getByTestId('bv-scores')).toBeVisible();
    await screenshot(page, 'board-psi');

    // After the first line only the first seat's set has been dealt.
    await boardAt(page, 1);
    await expect(board.getByTestId('bv-set').nth(0)).toContainText(/\d{3}/);
    await expect(board.getByTestId('bv-set').nth(1)).toHaveText('not dealt yet');
    await expect(board.getByTestId('bv-intersection')).toContainText('not known yet');

    // The operator's outcome DM names both seats instead of "Player 2 outcome".
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    await expect(
      timeline.getByTestId('line-text').filter({ hasText: /^Outcome of .+ \(seat [12]\)'s guess against .+ \(seat [12]\)'s set/ }),
    ).toHaveCount(2);
    await expect(timeline.getByTestId('line-text').filter({ hasText: /Player \d outcome/ })).toHaveCount(0);

    // Previous / next game within the tournament.
    const nav = page.getByTestId('game-nav');
    await expect(nav).toContainText('← first game');
    // Games are numbered from 1 on screen (route index 0 is "Game 1").
    await nav.getByRole('link', { name: 'Game 2 →' }).click();
    await expect(page).toHaveURL(new RegExp(`#/tournaments/${id}/games/1`));
    await expect(page.getByTestId('match-viewer')).toHaveAttribute('data-phase', 'stored');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Game 2');
    await expect(nav).toContainText('last game →');
    await nav.getByRole('link', { name: '← Game 1' }).click();
    await expect(page).toHaveURL(new RegExp(`#/tournaments/${id}/games/0`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Game 1');

    expect(await unnamedControls(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  const NODE = 'agents/clawarena/baseline-node/agent.yaml';
  const PYTHON = 'agents/clawarena/baseline-python/agent.yaml';
  const table = (n: number): [string, string][] =>
    Array.from({ length: n }, (_, i) => [i % 2 === 0 ? NODE : PYTHON, `${i % 2 === 0 ? 'node' : 'python'}-${Math.floor(i / 2) + 1}`]);

  /** A stored game's lines in the timeline's order, and the 1-based position of the first line of a type. */
  async function storedLines(request: APIRequestContext, id: string) {
    const response = await request.get(`${url}${ADMIN}/tournaments/${id}/games/0`, { headers: { Authorization: `Bearer ${token}` } });
    const { transcript } = (await response.json()) as {
      transcript: Array<{ index: number; timestamp: number; content: string; data?: Record<string, unknown> }>;
    };
    const lines = [...transcript].sort((a, b) => a.timestamp - b.timestamp || a.index - b.index);
    const position = (type: string) => lines.findIndex((l) => l.content === type) + 1;
    const data = (type: string) => lines.find((l) => l.content === type)?.data ?? {};
    // The runtime's closing event names each wire agent's seat.
    const slots = new Map((data('match_finished').placements as { agent_id: number; slot: number }[]).map((p) => [p.agent_id, p.slot]));
    /** Values keyed by wire agent id, in seat order. */
    const bySeat = <T>(values: Array<[agent: number, value: T]>) =>
      [...values].sort((a, b) => (slots.get(a[0]) ?? 0) - (slots.get(b[0]) ?? 0)).map(([, value]) => value);
    return { lines, position, data, bySeat };
  }

  async function openGame(page: Page, id: string, playable: string) {
    // The token link only on the first visit: later ones are hash changes within the page that already holds it.
    const first = !page.url().startsWith(url);
    await page.goto(`${url}/#/tournaments/${id}/games/0${first ? `&token=${token}` : ''}`);
    await expect(page.getByTestId('match-viewer')).toHaveAttribute('data-phase', 'stored');
    await expect(page.getByTestId('board')).toHaveAttribute('data-playable', playable);
    return page.getByTestId('board');
  }

  test('Claw Diplomacy and Clawpoly games: powers, centres and units per phase; positions, cash and deeds', async ({ page, request }) => {
    test.setTimeout(240_000);
    const errors = watchErrors(page);

    const diplomacy = await playTournament(request, url, token, {
      name: 'Boards e2e Diplomacy',
      challenge: 'diplomacy',
      agents: table(7),
      games: 1,
      options: { max_year: 1902 },
    });
    const dip = await storedLines(request, diplomacy);
    let board = await openGame(page, diplomacy, 'diplomacy');
    // The map is drawn first (test/e2e/diplomacy-map.spec.ts); the powers table is one click away.
    await board.getByRole('button', { name: 'Table' }).click();
    await boardAt(page, 1);
    const germany = board.locator('[data-testid="bv-power"][data-power="GERMANY"]');
    await expect(germany.getByTestId('bv-units')).toHaveText('A BER, F KIE, A MUN');
    await expect(board.getByTestId('bv-power').getByTestId('bv-centres')).toHaveText(['3', '3', '3', '3', '3', '4', '3']);
    // After the first Fall the centres are counted as the engine counted them.
    await boardAt(page, dip.position('supply_centers_updated'));
    const counts = dip.data('supply_centers_updated').supply_center_counts as Record<string, number>;
    await expect(board.getByTestId('bv-power').getByTestId('bv-centres')).toHaveText(
      Object.keys(counts)
        .sort()
        .map((p) => String(counts[p])),
    );
    await expect(board.getByTestId('bv-orders')).toContainText(/moved|held|bounced/);
    // The timeline scrolls the line the slider picked into view, highlighted.
    const picked = page.getByRole('list', { name: 'Game timeline' }).locator('article[data-selected="true"]');
    const inside = async () => {
      const row = await picked.boundingBox();
      const region = await page.getByRole('region', { name: 'Game timeline (scrollable)' }).boundingBox();
      return row !== null && region !== null && row.y >= region.y - 1 && row.y + row.height <= region.y + region.height + 1;
    };
    await expect.poll(inside).toBe(true);
    await expect(picked.getByTestId('line-text')).toHaveText(/^Supply centres after 1901: /);
    await page.getByRole('button', { name: 'Latest' }).click();
    await expect(board.getByTestId('bv-phase')).toContainText('over');
    await board.getByRole('button', { name: 'Map' }).click();
    await expect(board.getByTestId('dm-map')).toHaveAttribute('data-orders-of', 'F1902M');
    await screenshot(page, 'board-diplomacy');

    const clawpoly = await playTournament(request, url, token, {
      name: 'Boards e2e Clawpoly',
      challenge: 'monopoly',
      agents: table(4),
      games: 1,
      options: { max_turns: 30 },
    });
    const poly = await storedLines(request, clawpoly);
    board = await openGame(page, clawpoly, 'monopoly');
    await boardAt(page, poly.position('opening_deal_complete'));
    await expect(board.getByTestId('bv-cash')).toHaveText(['$1,500', '$1,500', '$1,500', '$1,500']);
    await expect(board.getByTestId('bv-deeds').locator('tbody tr')).toHaveCount(12);
    // The board as a board: 40 spaces, every token on Launch after the deal, each dealt deed's owner on its space.
    const ring = board.getByTestId('bv-ring');
    await expect(ring.getByTestId('bv-space')).toHaveCount(40);
    await expect(ring.locator('[data-space="0"]')).toHaveAttribute('data-seats', '1 2 3 4');
    await expect(ring.locator('[data-testid="bv-space"]:not([data-owner=""])')).toHaveCount(12);
    // At the end every seat's net worth is the one the game was decided on.
    await page.getByRole('button', { name: 'Latest' }).click();
    const worth = poly.data('game_over').net_worth as Record<string, number> | undefined;
    if (worth) {
      const shown = await board.getByTestId('bv-seat').locator('td:nth-child(4)').allTextContents();
      expect(shown).toEqual(
        Object.keys(worth)
          .sort((a, b) => Number(a) - Number(b))
          .map((a) => `$${(worth[a] as number).toLocaleString('en-US')}`),
      );
    }
    await expect(board.getByTestId('bv-turn')).toContainText('Game over');
    await screenshot(page, 'board-clawpoly');

    expect(await unnamedControls(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('Mafia and Claw Vegas games: phases, votes and roles after the end; casinos and placed dice', async ({ page, request }) => {
    test.setTimeout(180_000);
    const errors = watchErrors(page);

    const mafia = await playTournament(request, url, token, { name: 'Boards e2e Mafia', challenge: 'mafia', agents: table(6), games: 1 });
    const m = await storedLines(request, mafia);
    let board = await openGame(page, mafia, 'mafia');
    // Before the end only the dead show their roles; at the end everyone's is revealed.
    await boardAt(page, m.position('phase_started'));
    await expect(board.getByTestId('bv-role')).toHaveText(Array(6).fill('hidden'));
    await page.getByRole('button', { name: 'Latest' }).click();
    const roles = (m.data('game_over').roles as { role: string }[]).map((r) => r.role);
    await expect(board.getByTestId('bv-role')).toHaveText(roles);
    await expect(board.getByTestId('bv-phase')).toContainText('Game over');
    await screenshot(page, 'board-mafia');

    const vegas = await playTournament(request, url, token, {
      name: 'Boards e2e Vegas',
      challenge: 'las_vegas',
      agents: table(4),
      games: 1,
    });
    const v = await storedLines(request, vegas);
    board = await openGame(page, vegas, 'las_vegas');
    await boardAt(page, v.position('round_start'));
    await expect(board.getByTestId('bv-casino')).toHaveCount(6);
    await expect(board.getByTestId('bv-money')).toHaveText(['$0', '$0', '$0', '$0']);
    await page.getByRole('button', { name: 'Latest' }).click();
    const standings = v.data('game_over').standings as { agent_id: number; money: number }[];
    const money = v.bySeat(standings.map((s) => [s.agent_id, `$${s.money.toLocaleString('en-US')}`]));
    await expect(board.getByTestId('bv-money')).toHaveText(money);
    await screenshot(page, 'board-vegas');

    expect(await unnamedControls(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("a running Liar's Dice game follows live: the board changes as bids arrive, then the stored record takes over", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const errors = watchErrors(page);
    const headers = { Authorization: `Bearer ${token}` };
    // The Node baseline pausing before each move, so the hand lasts long enough to watch.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-e2e-think-'));
    const manifests = ['think-a', 'think-b'].map((id) => {
      const folder = path.join(dir, id);
      fs.mkdirSync(folder);
      fs.copyFileSync(path.join(ROOT, 'agents/clawarena/baseline-node/agent.mjs'), path.join(folder, 'agent.mjs'));
      fs.writeFileSync(
        path.join(folder, 'agent.yaml'),
        `id: ${id}\nname: ${id}\nframework: node\nentrypoint:\n  command: ["node", "agent.mjs", "--think", "1.2"]\nprotocol: clawarena\nchallenges: [liars_dice]\n`,
      );
      return path.join(folder, 'agent.yaml');
    });
    const spec = {
      name: 'Boards e2e live dice',
      challenge: 'liars_dice',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'boards-live-dice',
      agents: manifests.map((manifest, i) => ({ manifest, id: `think-${i === 0 ? 'a' : 'b'}` })),
      stop: { kind: 'fixed' },
      limits: { move_seconds: 15, game_seconds: 60 },
    };
    const created = await request.post(`${url}${ADMIN}/tournaments`, { headers, data: { spec, base_dir: ROOT, start: true } });
    expect(created.ok(), await created.text()).toBe(true);
    const { id } = (await created.json()) as { id: string };
    // The running list names the match as soon as it exists.
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`${url}${ADMIN}/tournaments/${id}/running`, { headers })).json()) as {
              games: { session_id: string | null }[];
            }
          ).games[0]?.session_id ?? null,
        { timeout: scaled(30_000), intervals: [200] },
      )
      .toMatch(/^clawarena:\d+$/);

    await page.goto(`${url}/#/tournaments/${id}/games/0&token=${token}`);
    const viewer = page.getByTestId('match-viewer');
    await expect(viewer).toHaveAttribute('data-phase', 'live');
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'open');
    const board = page.getByTestId('board');
    await expect(board).toHaveAttribute('data-playable', 'liars_dice');
    // The board follows the newest line while the game runs: more bids on the ladder without a reload.
    const bids = board.getByTestId('bv-bids').locator('li');
    const first = await bids.count();
    const firstPosition = Number(await board.getAttribute('data-position'));
    await expect.poll(() => bids.count(), { timeout: scaled(20_000) }).toBeGreaterThan(first);
    expect(Number(await board.getAttribute('data-position'))).toBeGreaterThan(firstPosition);
    await expect(viewer).toHaveAttribute('data-phase', 'live');
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    await expect(
      timeline
        .getByTestId('line-text')
        .filter({ hasText: / bids \d+ × / })
        .first(),
    ).toBeVisible();
    await screenshot(page, 'board-liars-dice-live');

    // The hand ends with a challenge; the viewer swaps the live feed for the stored game.
    await expect(viewer).toHaveAttribute('data-phase', 'stored', { timeout: scaled(60_000) });
    await expect(board.getByTestId('bv-challenge')).toContainText('called LIAR');
    expect(await unnamedControls(page)).toEqual([]);
    expect(errors).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
