// The researcher's path through the UI against a real engine: create a psi session, hand its invites to two
// "agents" (played here over the public HTTP API), watch the session end live, and find the players on the leaderboards.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { engineFromEnv } from './support/global-setup.js';
import { screenshot } from './support/screenshots.js';

/** What an agent does first: read its private set from the operator channel. */
async function privateSet(request: APIRequestContext, url: string, sessionId: string, invite: string): Promise<number[]> {
  const response = await request.get(`${url}/api/arena/sync`, { params: { channel: sessionId, from: invite, index: '0' } });
  expect(response.ok()).toBe(true);
  const { messages } = (await response.json()) as { messages: { content: string; to?: string | null }[] };
  const own = messages.find((m) => m.to === invite && m.content.startsWith('Your private set is'));
  if (!own) throw new Error(`no private set for ${invite}`);
  return (own.content.match(/\d+/g) ?? []).map(Number);
}

test.describe('Local Arena UI in a browser', () => {
  const { url, token } = engineFromEnv();

  test('create a psi session, play it over HTTP and watch it end live', async ({ page, request }) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text())) pageErrors.push(message.text());
    });

    const app = new ArenaApp(page);
    await page.goto(`${url}/#/sessions&token=${token}`);
    await app.waitLoaded();
    // The admin token leaves the address bar as soon as it is read.
    expect(page.url()).not.toContain('token=');
    await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
    await screenshot(page, '01-sessions-empty');

    const { sessionId, invites } = await app.createSession('psi');
    expect(invites).toHaveLength(2);
    for (const invite of invites) expect(invite).toMatch(/^inv_/);
    await expect(page.getByTestId('sessions-table').locator(`tr[data-session-id="${sessionId}"]`)).toContainText('Open');
    await screenshot(page, '02-session-created');

    await page.getByRole('link', { name: 'Watch session' }).click();
    const detail = app.sessionDetail();
    await expect(detail).toHaveAttribute('data-status', 'open');
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'open');

    // Two agents join with the invites the UI handed out.
    const [inviteA = '', inviteB = ''] = invites;
    for (const [invite, userId] of [
      [inviteA, 'alice'],
      [inviteB, 'bob'],
    ] as const) {
      const joined = await request.post(`${url}/api/arena/join`, { data: { invite, userId } });
      expect(joined.ok(), await joined.text()).toBe(true);
    }
    await expect(detail).toHaveAttribute('data-status', 'active');
    await expect(page.getByTestId('session-status')).toContainText('Active');
    // Private operator messages show in full to the researcher.
    await expect(page.getByTestId('operator-log')).toContainText('Your private set is');
    await expect(app.seat(1).getByTestId('identity')).toHaveText('alice');
    await expect(app.seat(2).getByTestId('identity')).toHaveText('bob');

    const chat = await request.post(`${url}/api/chat/send`, { data: { channel: sessionId, from: inviteA, content: 'Hello from alice' } });
    expect(chat.ok()).toBe(true);
    await expect(page.getByTestId('chat-log')).toContainText('Hello from alice');
    await expect(page.getByTestId('chat-log')).toContainText('Player 1');

    // Both agents guess the exact intersection: utility 1, security 1 for each.
    const setA = await privateSet(request, url, sessionId, inviteA);
    const setB = await privateSet(request, url, sessionId, inviteB);
    const intersection = setA.filter((n) => setB.includes(n));
    expect(intersection.length).toBeGreaterThan(0);
    for (const invite of [inviteA, inviteB]) {
      const guess = await request.post(`${url}/api/arena/message`, {
        data: { challengeId: sessionId, from: invite, messageType: 'guess', content: intersection.join(', ') },
      });
      expect(guess.ok(), await guess.text()).toBe(true);
    }

    await expect(detail).toHaveAttribute('data-status', 'ended');
    await expect(page.getByTestId('session-status')).toContainText('Ended');
    for (const seat of [1, 2]) {
      await expect(app.seat(seat).getByTestId('security')).toHaveText('1');
      await expect(app.seat(seat).getByTestId('utility')).toHaveText('1');
    }
    await expect(page.getByTestId('game-state')).toContainText('"userSets"');
    await expect(page.getByTestId('operator-log')).toContainText('Intersection Found: true');
    await screenshot(page, '03-session-ended');

    await app.openNav('Leaderboards');
    const global = page.getByTestId('leaderboard-global');
    await expect(global).toContainText('alice');
    await expect(global).toContainText('bob');
    await expect(global.getByRole('columnheader', { name: 'Security' })).toBeVisible();
    await screenshot(page, '04-leaderboard-overall');

    await page.getByRole('link', { name: 'Private Set Intersection' }).click();
    await expect(page.getByTestId('leaderboard-average')).toContainText('alice');
    await expect(page.getByTestId('leaderboard-average').getByRole('columnheader', { name: 'Average Utility' })).toBeVisible();
    await screenshot(page, '05-leaderboard-psi');

    await app.openNav('Challenges');
    await expect(page.getByTestId('challenge-card').filter({ hasText: 'Private Set Intersection' })).toContainText('1 game played');
    await screenshot(page, '06-challenges');

    // The ended session shows under the Ended filter.
    await app.openNav('Sessions');
    await page.getByRole('button', { name: 'Ended', exact: true }).click();
    await expect(page.getByTestId('sessions-table').locator(`tr[data-session-id="${sessionId}"]`)).toBeVisible();

    expect(pageErrors).toEqual([]);
  });

  test('a wrong token gets a clear explanation instead of an empty app', async ({ page }) => {
    const app = new ArenaApp(page);
    await page.goto(`${url}/#token=not-the-right-token`);
    const alert = await app.waitBootError();
    await expect(alert).toContainText('did not accept');
    await expect(alert).toContainText('Open the link printed by arena serve');
    await screenshot(page, '07-bad-token');
  });

  test('opening the UI without the link asks for it', async ({ page }) => {
    const app = new ArenaApp(page);
    await page.goto(`${url}/`);
    const alert = await app.waitBootError();
    await expect(alert).toContainText('No admin token');
    await expect(alert).toContainText('Open the link printed by arena serve');
  });

  test('a reload keeps working after the token left the address bar', async ({ page }) => {
    const app = new ArenaApp(page);
    await page.goto(`${url}/#/sessions&token=${token}`);
    await app.waitLoaded();
    await app.openNav('Challenges');
    await page.reload();
    await app.waitLoaded();
    await expect(page.getByRole('heading', { level: 1, name: 'Challenges' })).toBeVisible();
  });
});
