// The Reports area against a real engine: run a governance scenario from the UI's "Run scenario" form, read its report
// (expected vs actual decisions), export its JSONL and compare the downloaded file line by line with the engine's
// audit log; then play a small PSI tournament with the baseline agents (created through the admin API), find its
// games in the Reports area and open one in the match viewer; a real game whose chat holds 10,000 messages (the
// chatty-bot fixture) checks that the timeline keeps only a window of rows in the DOM.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { watchErrors } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');
const ADMIN = '/admin/api/v1';

async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

async function waitForTournament(request: APIRequestContext, url: string, token: string, id: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await request.get(`${url}${ADMIN}/tournaments/${id}`, { headers: { Authorization: `Bearer ${token}` } });
        return ((await response.json()) as { status: string }).status;
      },
      { timeout: scaled(90_000), intervals: [500] },
    )
    .toBe('finished');
}

/** A round-robin of the given agents (manifest paths from the repository), created and started over the admin API. */
async function createTournament(
  request: APIRequestContext,
  url: string,
  token: string,
  t: { name: string; challenge: string; seed: string; agents: [manifest: string, id: string][]; gamesPerPairing: number; limits: object },
): Promise<string> {
  const spec = {
    name: t.name,
    challenge: t.challenge,
    format: 'round-robin',
    games_per_pairing: t.gamesPerPairing,
    concurrency: 1,
    seed: t.seed,
    agents: t.agents.map(([manifest, id]) => ({ manifest, id })),
    stop: { kind: 'fixed' },
    limits: t.limits,
  };
  const created = await request.post(`${url}${ADMIN}/tournaments`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { spec, base_dir: ROOT },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { id: string }).id;
}

test.describe('Reports area', () => {
  const { url, token } = engineFromEnv();
  const auth = { Authorization: `Bearer ${token}` };

  test('run a governance scenario, read expected vs actual decisions, export JSONL', async ({ page, request }) => {
    test.setTimeout(120_000);
    const errors = watchErrors(page);
    await page.goto(`${url}/#/reports/governance&token=${token}`);
    await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

    // The form lists the shipped scenarios; run the first with its own agents.
    const form = page.getByRole('region', { name: 'Run scenario' });
    await expect(form.getByRole('combobox', { name: 'Scenario' })).toContainText('GitHub Maintainer Dungeon');
    await form.getByRole('button', { name: 'Run scenario' }).click();
    const status = page.getByTestId('run-status');
    await expect(status).toHaveAttribute('data-phase', 'stored', { timeout: scaled(90_000) });
    await expect(page.getByTestId('governance-matches')).toContainText('GitHub Maintainer Dungeon');
    await screenshot(page, 'reports-01-governance-list');

    await status.getByRole('link', { name: 'Open report' }).click();
    const report = page.getByTestId('governance-report');
    await expect(report).toBeVisible();
    const matchId = await report.getAttribute('data-match-id');
    if (!matchId) throw new Error('the report has no match id');

    // What the engine stored, to compare the page against.
    const detail = (await (await request.get(`${url}${ADMIN}/governance/matches/${matchId}`, { headers: auth })).json()) as {
      report: {
        score: { outcome: string };
        trials: Array<{
          trial_id: string;
          agent_id: string;
          passed: boolean;
          expected: Record<string, string>;
          audit_events: Array<{ attempt: { tool: string } | null; decision: { effect: string } | null; status: string }>;
        }>;
      };
    };
    await expect(page.getByTestId('outcome')).toContainText(detail.report.score.outcome);
    await expect(page.getByTestId('trial')).toHaveCount(detail.report.trials.length);
    let decided = 0;
    for (const trial of detail.report.trials) {
      const card = page.locator(`[data-testid="trial"][data-trial="${trial.trial_id}"][data-agent="${trial.agent_id}"]`);
      await expect(card.getByTestId('trial-verdict')).toHaveText(trial.passed ? 'pass' : 'fail');
      const rows = card.getByTestId('attempt');
      await expect(rows).toHaveCount(trial.audit_events.length);
      for (const [i, event] of trial.audit_events.entries()) {
        if (!event.attempt) continue;
        const row = rows.nth(i);
        await expect(row).toContainText(event.attempt.tool);
        const expected = trial.expected[event.attempt.tool];
        if (expected) await expect(row.getByTestId('expected')).toHaveText(expected);
        if (event.decision) {
          decided++;
          await expect(row.getByTestId('actual')).toContainText(event.decision.effect);
        } else await expect(row.getByTestId('actual')).toContainText('no decision');
      }
    }
    expect(decided).toBeGreaterThan(0);
    const failed = detail.report.trials.filter((t) => !t.passed).length;
    await page.getByRole('checkbox', { name: /Only failed trials/ }).check();
    await expect(page.getByTestId('trials-count')).toHaveText(`${failed} of ${detail.report.trials.length} trials`);
    await expect(page.getByTestId('trial')).toHaveCount(failed);
    await page.getByRole('checkbox', { name: /Only failed trials/ }).uncheck();
    await screenshot(page, 'reports-02-governance-report');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'reports-02-governance-report-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    if (process.env.ARENA_SCREENSHOTS === 'docs') {
      const docs = path.join(ROOT, 'docs', 'screenshots');
      fs.mkdirSync(docs, { recursive: true });
      await page.setViewportSize({ width: 1360, height: 1000 });
      await page.screenshot({ path: path.join(docs, 'governance-report.png') });
    }

    // Raw JSONL view, then the export: the downloaded file is the engine's audit log, line for line.
    const engineJsonl = await (
      await request.get(`${url}${ADMIN}/governance/matches/${matchId}/files/audit.jsonl`, { headers: auth })
    ).text();
    const engineLines = engineJsonl.split('\n').filter((l) => l !== '');
    expect(engineLines.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Raw JSONL' }).click();
    await expect(page.getByTestId('raw-file')).toHaveAttribute('data-file', 'audit.jsonl');
    await expect(page.getByTestId('raw-file')).toContainText(engineLines[0] as string);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
    expect(download.suggestedFilename()).toBe(`${matchId}-audit.jsonl`);
    const saved = path.join(test.info().outputDir, download.suggestedFilename());
    await download.saveAs(saved);
    const lines = fs
      .readFileSync(saved, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toEqual(engineLines);
    const events = lines.map((l) => JSON.parse(l) as { match_id: string; status: string });
    for (const e of events) {
      expect(e.match_id).toBe(matchId);
      expect(['decided', 'missing_decision']).toContain(e.status);
    }
    const attempts = detail.report.trials.reduce((n, t) => n + t.audit_events.length, 0);
    expect(events.length).toBeGreaterThanOrEqual(attempts);
    expect(errors).toEqual([]);
  });

  test('a finished tournament game opens in the match viewer with its timeline', async ({ page, request }) => {
    test.setTimeout(150_000);
    const errors = watchErrors(page);
    const id = await createTournament(request, url, token, {
      name: 'Reports e2e PSI',
      challenge: 'psi',
      seed: 'reports-e2e',
      agents: [
        ['challenges/psi/agents/honest-exact/agent.yaml', 'honest-exact'],
        ['challenges/psi/agents/greedy-overclaim/agent.yaml', 'greedy-overclaim'],
      ],
      gamesPerPairing: 2,
      limits: { move_seconds: 10, game_seconds: 30 },
    });
    await waitForTournament(request, url, token, id);

    await page.goto(`${url}/#/reports/tournaments?tournament=${id}&token=${token}`);
    await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
    const games = page.getByTestId('tournament-games');
    await expect(games).toHaveAttribute('data-tournament-id', id);
    await expect(page.getByTestId('games-count')).toHaveText('2 games');
    // Filters: an agent and a free-text search that matches nothing, then everything again.
    await games.getByRole('combobox', { name: 'Agent' }).selectOption('honest-exact');
    await expect(page.getByTestId('games-count')).toHaveText('2 games');
    await games.getByRole('searchbox', { name: 'Search' }).fill('no such agent');
    await expect(page.getByTestId('games-count')).toHaveText('0 of 2 games');
    await games.getByRole('searchbox', { name: 'Search' }).fill('');
    await screenshot(page, 'reports-03-tournament-games');
    // Exports: this page's CSV is its games (games.csv as the engine writes it), the standings have their own button,
    // and the shown rows export as CSV too.
    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), games.getByRole('button', { name, exact: true }).click()]);
      const saved = path.join(test.info().outputDir, file.suggestedFilename());
      await file.saveAs(saved);
      return { name: file.suggestedFilename(), text: fs.readFileSync(saved, 'utf8') };
    };
    const engineFile = async (file: string) =>
      (await request.get(`${url}${ADMIN}/tournaments/${id}/exports/${file}`, { headers: auth })).text();
    const gamesCsv = await download('Export games (CSV)');
    expect(gamesCsv.name).toMatch(/-games\.csv$/);
    expect(gamesCsv.text).toBe(await engineFile('games.csv'));
    expect(gamesCsv.text.split(/\r?\n/)[0]).toMatch(/seat\d_agent/);
    const standings = await download('Export standings (CSV)');
    expect(standings.name).toMatch(/-standings\.csv$/);
    expect(standings.text).toBe(await engineFile('standings.csv'));
    expect(standings.text).not.toBe(gamesCsv.text);
    const [shown] = await Promise.all([
      page.waitForEvent('download'),
      games.getByRole('button', { name: 'Export shown games (CSV)' }).click(),
    ]);
    const shownFile = path.join(test.info().outputDir, shown.suggestedFilename());
    await shown.saveAs(shownFile);
    const rows = fs.readFileSync(shownFile, 'utf8').trim().split('\r\n');
    expect(rows[0]).toMatch(/^game,attempt,challenge,seats/);
    expect(rows).toHaveLength(3);

    await games.getByRole('link', { name: 'Open game 1' }).click();
    const viewer = page.getByTestId('match-viewer');
    await expect(viewer).toHaveAttribute('data-phase', 'stored');
    const stored = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/games/0`, { headers: auth })).json()) as {
      game: { seat_agents: string[]; termination: string; placements: number[] | null };
      transcript: Array<{ channel: string; from: number | string; to: number | string | null; content: string }>;
    };
    await expect(page.getByTestId('termination')).toContainText(stored.game.termination);
    const seats = page.getByTestId('game-seats');
    for (const [seat, agent] of stored.game.seat_agents.entries()) {
      await expect(seats.locator(`tr[data-seat="${seat + 1}"]`).getByTestId('seat-agent')).toContainText(agent);
      if (stored.game.placements)
        await expect(seats.locator(`tr[data-seat="${seat + 1}"]`).getByTestId('placement')).toHaveText(
          String(stored.game.placements[seat]),
        );
    }
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    await expect(page.getByTestId('timeline-count')).toHaveText(`${stored.transcript.length} lines`);
    // The operator hands each seat its private set in a direct message, marked sender → recipient.
    const first = stored.game.seat_agents[0] as string;
    await expect(timeline.locator('[data-direct="true"]').first()).toContainText(`Operator → ${first} (seat 1)`);
    await expect(timeline).toContainText('Your private set is');
    // Each guess is an action shown with the operator's answer.
    const actions = timeline.locator('[data-kind="action"]');
    await expect(actions.first()).toBeVisible();
    await expect(actions.first().getByTestId('action-result')).toBeVisible();
    // Channel switches: without the operator channel only chat lines remain.
    await page.getByRole('checkbox', { name: 'Operator' }).uncheck();
    const chatLines = stored.transcript.filter((e) => e.channel === 'chat').length;
    await expect(page.getByTestId('timeline-count')).toHaveText(`${chatLines} of ${stored.transcript.length} lines`);
    await page.getByRole('checkbox', { name: 'Operator' }).check();
    await screenshot(page, 'reports-04-match-viewer');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'reports-04-match-viewer-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(errors).toEqual([]);
  });

  test('the timeline keeps only a window of 10,000 lines in the DOM and scrolls by keyboard', async ({ page, request }) => {
    test.setTimeout(120_000);
    const errors = watchErrors(page);
    // A real game with a long record: chatty-bot fills the chat with 10,000 messages through the chat API before it
    // plays, honest-exact plays as usual.
    const played = Date.now();
    const id = await createTournament(request, url, token, {
      name: 'Reports e2e long timeline',
      challenge: 'psi',
      seed: 'reports-e2e-long',
      agents: [
        ['test/fixtures/agents/tournament/chatty-bot/agent.yaml', 'chatty-bot'],
        ['challenges/psi/agents/honest-exact/agent.yaml', 'honest-exact'],
      ],
      gamesPerPairing: 1,
      limits: { move_seconds: 20, game_seconds: 90 },
    });
    await waitForTournament(request, url, token, id);
    const playMs = Date.now() - played;
    const stored = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/games/0`, { headers: auth })).json()) as {
      game: { termination: string };
      transcript: Array<{ channel: string; timestamp: number }>;
    };
    expect(stored.game.termination).toBe('completed');
    const total = stored.transcript.length;
    expect(total).toBeGreaterThanOrEqual(10_000);
    expect(stored.transcript.filter((e) => e.channel === 'operator').length).toBeGreaterThan(0);
    const chatTimes = stored.transcript.filter((e) => e.channel === 'chat').map((e) => e.timestamp);
    const chatMs = Math.max(...chatTimes) - Math.min(...chatTimes);
    const started = Date.now();
    await page.goto(`${url}/#/tournaments/${id}/games/0&token=${token}`);
    await expect(page.getByTestId('timeline-count')).toHaveText(`${total} lines`);
    const loadMs = Date.now() - started;
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    const rendered = await timeline.locator(':scope > li').count();
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThan(80);
    // Keyboard: focus the scrolling region and jump to the end; the last line is rendered, the first is gone.
    const region = page.getByRole('region', { name: 'Game timeline (scrollable)' });
    await region.focus();
    const jump = Date.now();
    await page.keyboard.press('End');
    await expect(timeline.locator(`li[aria-posinset="${total}"]`)).toBeVisible();
    const jumpMs = Date.now() - jump;
    // Scrolling through the middle: 40 page-downs, each one re-windowing the list.
    const scroll = Date.now();
    await page.keyboard.press('Home');
    for (let i = 0; i < 40; i++) await page.keyboard.press('PageDown');
    const scrollMs = Date.now() - scroll;
    expect(await timeline.locator(':scope > li').count()).toBeLessThan(80);
    await expect(timeline.locator('li[aria-posinset="1"]')).toHaveCount(0);
    test.info().annotations.push({
      type: 'figures',
      description: `${total} lines (tournament ${playMs} ms, of which chat ${chatMs} ms): page ready ${loadMs} ms, ${rendered} rows in the DOM, End ${jumpMs} ms, 40 × PageDown ${scrollMs} ms`,
    });
    console.log(test.info().annotations.at(-1)?.description);
    await expect(timeline.locator('li[aria-posinset="1"]')).toHaveCount(0);
    expect(await timeline.locator(':scope > li').count()).toBeLessThan(80);
    await page.keyboard.press('Home');
    await expect(timeline.locator('li[aria-posinset="1"]')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('a running game follows live, then switches to its stored record', async ({ page, request }) => {
    test.setTimeout(120_000);
    const errors = watchErrors(page);
    // One seat chats and never acts, so each game lasts until its move clock runs out: long enough to watch it grow.
    const id = await createTournament(request, url, token, {
      name: 'Reports e2e live',
      challenge: 'millionaire',
      seed: 'reports-e2e-live',
      agents: [
        ['challenges/millionaire/agents/truthful/agent.yaml', 'truthful'],
        ['test/fixtures/agents/tournament/ticker-bot/agent.yaml', 'ticker-bot'],
      ],
      gamesPerPairing: 2,
      limits: { move_seconds: 6, game_seconds: 20 },
    });
    let index = -1;
    await expect
      .poll(
        async () => {
          const running = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/running`, { headers: auth })).json()) as {
            games: { game_index: number; session_id: string | null }[];
          };
          index = running.games.find((g) => g.session_id !== null)?.game_index ?? -1;
          return index;
        },
        { timeout: scaled(30_000), intervals: [200] },
      )
      .toBeGreaterThanOrEqual(0);

    await page.goto(`${url}/#/tournaments/${id}/games/${index}&token=${token}`);
    const viewer = page.getByTestId('match-viewer');
    await expect(viewer).toHaveAttribute('data-phase', 'live');
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'open');
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    await expect(timeline.locator('[data-channel="operator"]').first()).toBeVisible();
    await expect(page.getByTestId('game-seats')).toContainText('ticker-bot');
    // The transcript grows while the page is open: later chat lines arrive over the live feed, no reload.
    await expect(timeline).toContainText(/tick [2-9]/);
    const seen = Number((/tick (\d+)/.exec((await timeline.textContent()) ?? '') ?? [])[1] ?? 0);
    await expect
      .poll(async () => Math.max(0, ...[...((await timeline.textContent()) ?? '').matchAll(/tick (\d+)/g)].map((m) => Number(m[1]))), {
        timeout: scaled(10_000),
      })
      .toBeGreaterThan(seen + 2);
    await expect(viewer).toHaveAttribute('data-phase', 'live');
    await screenshot(page, 'reports-06-match-viewer-live');

    // The silent seat times out; the viewer swaps the live session for the stored game.
    await expect(viewer).toHaveAttribute('data-phase', 'stored', { timeout: scaled(40_000) });
    const stored = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/games/${index}`, { headers: auth })).json()) as {
      game: { termination: string };
    };
    await expect(page.getByTestId('termination')).toContainText(stored.game.termination);
    await request.post(`${url}${ADMIN}/tournaments/${id}/cancel`, { headers: auth });
    expect(errors).toEqual([]);
  });

  test('a ClawArena game shows its match events in the timeline', async ({ page, request }) => {
    test.setTimeout(150_000);
    const errors = watchErrors(page);
    const id = await createTournament(request, url, token, {
      name: 'Reports e2e Liars Dice',
      challenge: 'liars_dice',
      seed: 'reports-e2e-claw',
      agents: [
        ['agents/clawarena/baseline-node/agent.yaml', 'baseline-node'],
        ['agents/clawarena/baseline-python/agent.yaml', 'baseline-python'],
      ],
      gamesPerPairing: 2,
      limits: { move_seconds: 10, game_seconds: 40 },
    });
    await waitForTournament(request, url, token, id);
    const stored = (await (await request.get(`${url}${ADMIN}/tournaments/${id}/games/0`, { headers: auth })).json()) as {
      transcript: Array<{ channel: string; content: string }>;
    };
    const events = stored.transcript.filter((e) => e.channel === 'match');
    expect(events.length).toBeGreaterThan(0);

    await page.goto(`${url}/#/tournaments/${id}/games/0&token=${token}`);
    await expect(page.getByTestId('match-viewer')).toHaveAttribute('data-phase', 'stored');
    await expect(page.getByTestId('timeline-count')).toHaveText(`${stored.transcript.length} lines`);
    const timeline = page.getByRole('list', { name: 'Game timeline' });
    await expect(timeline.locator('[data-channel="match"]').first()).toContainText((events[0] as { content: string }).content);
    await page.getByRole('checkbox', { name: 'Match events' }).uncheck();
    await expect(page.getByTestId('timeline-count')).toHaveText(
      `${stored.transcript.length - events.length} of ${stored.transcript.length} lines`,
    );
    await page.getByRole('checkbox', { name: 'Match events' }).check();
    await screenshot(page, 'reports-07-match-viewer-clawarena');
    expect(errors).toEqual([]);
  });

  test('agents page: shipped folders, problems of a broken manifest inline, add and remove a folder, runs', async ({ page }) => {
    // The refused folder is answered 400 on purpose; the browser logs that response.
    const errors = watchErrors(page, [/status of 400 .*\/agents\/folders/]);
    const folder = path.join(test.info().outputDir, 'my-agents');
    fs.mkdirSync(path.join(folder, 'broken'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'broken', 'agent.yaml'), 'id: Not Kebab\nname: 42\n');

    await page.goto(`${url}/#/agents&token=${token}`);
    await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
    // The PSI baselines ship with the app; their manifests are valid and name what they play.
    const honest = page.locator('[data-testid="agent"][data-agent-id="honest-exact"]');
    await expect(honest).toHaveAttribute('data-ok', 'true');
    await expect(honest).toContainText('psi');

    const form = page.getByRole('region', { name: 'Add agent folder' });
    const input = form.getByRole('textbox', { name: 'Folder path' });
    await input.fill('relative/agents');
    await form.getByRole('button', { name: 'Add folder' }).click();
    await expect(form.getByRole('alert')).toContainText('absolute path');
    await input.fill(path.join(folder, 'does-not-exist'));
    await form.getByRole('button', { name: 'Add folder' }).click();
    await expect(form.getByRole('alert')).toBeVisible();
    await input.fill(folder);
    await form.getByRole('button', { name: 'Add folder' }).click();
    await expect(input).toHaveValue('');
    const added = page.getByRole('region', { name: `Folder ${folder}` });
    await expect(added.locator('[data-testid="agent"][data-ok="false"]')).toBeVisible();
    await expect(
      added
        .getByRole('list', { name: /^Problems in / })
        .getByRole('listitem')
        .first(),
    ).toBeVisible();
    await screenshot(page, 'reports-05-agents');

    // Runs: the PSI tournament of the earlier test shows with a link to it.
    await honest.getByRole('button', { name: 'Show runs of honest-exact' }).click();
    await expect(honest.getByRole('link', { name: 'Reports e2e PSI' })).toBeVisible();

    await added.getByRole('button', { name: `Remove folder ${folder}` }).click();
    await expect(page.getByRole('region', { name: `Folder ${folder}` })).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});
