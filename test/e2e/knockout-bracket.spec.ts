// Issue 48: the report browser shows a knockout run as a bracket. A real 3-entrant Millionaire knockout (seeded in
// definition order: the top seed gets the bye) is played by the engine; the page shows its rounds, the bye, the
// semi-final's points and winner, the final and the champion, exactly as GET /tournaments/:id reports them.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scaled } from '../support/slowness.js';
import { ArenaApp } from './support/arena-app.js';
import { watchConsole } from './support/console-errors.js';
import { engineFromEnv } from './support/global-setup.js';
import { screenshot } from './support/screenshots.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MILLIONAIRE = path.join(ROOT, 'challenges/millionaire/agents');

interface Meeting {
  round: number;
  high: string;
  low: string | null;
  points: { high: number; low: number };
  winner: string | null;
}

test.describe('knockout bracket', () => {
  const { url, token } = engineFromEnv();
  const admin = async <T>(route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/admin/api/v1${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, route).toBeLessThan(300);
    return (await res.json()) as T;
  };

  test('a finished 3-entrant knockout: bye, semi-final, final and champion', async ({ page }) => {
    test.setTimeout(scaled(180_000));
    const errors = watchConsole(page);
    const created = await admin<{ id: string }>('/tournaments', {
      spec: {
        name: 'Bracket check',
        challenge: 'millionaire',
        format: { kind: 'knockout' },
        games_per_pairing: 2,
        concurrency: 2,
        seed: 'bracket-1',
        agents: [
          { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'top-seed' },
          { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'second-seed' },
          { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'third-seed' },
        ],
        limits: { move_seconds: 10, game_seconds: 30 },
      },
      base_dir: ROOT,
    });
    await expect
      .poll(async () => (await admin<{ status: string }>(`/tournaments/${created.id}`)).status, { timeout: scaled(150_000) })
      .toBe('finished');
    const summary = await admin<{ knockout: { champion: string; meetings: Meeting[] } }>(`/tournaments/${created.id}`);
    const { champion, meetings } = summary.knockout;
    const semi = meetings.find((m) => m.round === 1 && m.low !== null) as Meeting;
    const final = meetings.find((m) => m.round === 2) as Meeting;

    await page.goto(`${url}/#/reports/tournaments?tournament=${created.id}&token=${token}`);
    await new ArenaApp(page).waitLoaded();
    const bracket = page.getByTestId('knockout-bracket');
    await expect(bracket.getByRole('heading', { name: 'Knockout bracket' })).toBeVisible();
    await expect(bracket.getByTestId('knockout-champion')).toHaveText(`Champion: ${champion} · 3 entrants, 2 rounds`);
    await expect(bracket.getByTestId('kb-round')).toHaveCount(2);
    await expect(bracket.getByTestId('kb-round').nth(0).getByRole('heading')).toHaveText('Semi-finals');
    await expect(bracket.getByTestId('kb-round').nth(1).getByRole('heading')).toHaveText('Final');
    await expect(bracket.getByTestId('kb-pending')).toHaveCount(0);

    // The bye: the top seed advances without games, no points shown.
    const bye = bracket.getByRole('article', { name: 'Semi-finals, meeting 1' });
    await expect(bye).toHaveAttribute('data-bye', 'true');
    await expect(bye.getByTestId('kb-entrant')).toHaveText(['top-seed✓', 'bye']);
    await expect(bye).toContainText('advances without games');
    // The played semi-final: both entrants with their points, the winner marked.
    const played = bracket.getByRole('article', { name: 'Semi-finals, meeting 2' });
    await expect(played).toHaveAttribute('data-winner', semi.winner as string);
    const pts = (p: number) => (Number.isInteger(p) ? String(p) : p.toFixed(1));
    await expect(played.getByTestId('kb-entrant')).toHaveText([
      `second-seed${pts(semi.points.high)}${semi.winner === 'second-seed' ? '✓' : ''}`,
      `third-seed${pts(semi.points.low)}${semi.winner === 'third-seed' ? '✓' : ''}`,
    ]);
    await expect(played.locator('[data-won="true"]')).toHaveAttribute('data-agent', semi.winner as string);
    // The final: the top seed against the semi-final's winner; its winner is the champion.
    const finalBox = bracket.getByRole('article', { name: 'Final, meeting 1' });
    await expect(finalBox.getByTestId('kb-entrant').nth(0)).toHaveAttribute('data-agent', 'top-seed');
    await expect(finalBox.getByTestId('kb-entrant').nth(1)).toHaveAttribute('data-agent', semi.winner as string);
    await expect(finalBox).toHaveAttribute('data-winner', champion);
    expect(final.winner).toBe(champion);
    await screenshot(page, 'knockout-bracket');

    expect(errors).toEqual([]);
  });
});
