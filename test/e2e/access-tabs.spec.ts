// Access that survives tabs, in a real browser against its own `arena serve` (human mode, so the link is the printed
// one): a tab on a deep route without access says so; the link pasted into that same tab gets in without Retry and
// returns to the route; a second tab then enters on its own deep link through the session cookie, which page scripts
// cannot read, and can change things (a session is created through the cookie). No console errors on the way.
import { expect, test } from '@playwright/test';
import { ArenaApp } from './support/arena-app.js';
import { watchErrors } from './support/console-errors.js';
import { type HumanServe, startHumanServe } from './support/human-serve.js';

let serve: HumanServe | undefined;
let link = '';

test.beforeAll(async () => {
  serve = await startHumanServe('arena-e2e-tabs-');
  link = serve.link;
});

test.afterAll(async () => {
  await serve?.stop();
});

test('a pasted link lets a waiting tab in on its route, and a second tab enters without any link', async ({ context }) => {
  const origin = link.split('/#code=')[0] as string;

  // A tab opened on a deep link before any access: it says what is missing.
  const first = await context.newPage();
  const firstErrors = watchErrors(first);
  await first.goto(`${origin}/#/settings`);
  const alert = await new ArenaApp(first).waitBootError();
  await expect(alert).toContainText('No admin token');

  // The printed link pasted into that same tab (only the fragment changes, no reload): in, on the page it asked for.
  await first.goto(link);
  await new ArenaApp(first).waitLoaded();
  await expect(first.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  expect(first.url()).toBe(`${origin}/#/settings`);

  // A second tab of the same browser on another deep link: no link, no token, straight in.
  const second = await context.newPage();
  const secondErrors = watchErrors(second);
  await second.goto(`${origin}/#/sessions`);
  const app = new ArenaApp(second);
  await app.waitLoaded();
  await expect(second.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  // It holds no token, and the session cookie is invisible to page scripts (HttpOnly).
  expect(await second.evaluate("sessionStorage.getItem('local-arena.admin-token')")).toBeNull();
  expect(await second.evaluate('document.cookie')).not.toContain('arena_admin');
  const cookies = await context.cookies(`${origin}/admin/api/v1/overview`);
  const session = cookies.find((c) => c.name.startsWith('arena_admin_'));
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin/api/v1' });

  // Writes work through the cookie too (same origin): a session created from this tab.
  const created = await app.createSession('psi');
  expect(created.invites).toHaveLength(2);

  // A reload of the cookie-only tab stays in.
  await second.reload();
  await app.waitLoaded();
  await expect(second.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();

  expect(firstErrors).toEqual([]);
  expect(secondErrors).toEqual([]);
});
