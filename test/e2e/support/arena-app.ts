// Page object for the Local Arena UI, shared by the browser specs and the Electron specs.
import { expect, type Locator, type Page } from '@playwright/test';

export class ArenaApp {
  constructor(readonly page: Page) {}

  root(): Locator {
    return this.page.locator('[data-app-state]');
  }

  async waitLoaded(): Promise<void> {
    await expect(this.page.locator('[data-app-state="loaded"]')).toBeVisible();
  }

  async waitBootError(): Promise<Locator> {
    await expect(this.page.locator('[data-app-state="error"]')).toBeVisible();
    return this.page.getByRole('alert');
  }

  async openNav(label: 'Sessions' | 'Leaderboards' | 'Challenges'): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: label })).toBeVisible();
  }

  /** Creates a session from the sessions page and returns its id and the invites shown for hand-off. */
  async createSession(challengeType: string): Promise<{ sessionId: string; invites: string[] }> {
    await this.page.getByTestId('challenge-select').selectOption(challengeType);
    await this.page.getByRole('button', { name: 'Create session' }).click();
    const created = this.page.getByTestId('created-session');
    await expect(created).toBeVisible();
    const sessionId = await created.getAttribute('data-session-id');
    const invites = await created.getByTestId('invite').allTextContents();
    if (!sessionId) throw new Error('created session has no id');
    return { sessionId, invites: invites.map((s) => s.trim()) };
  }

  sessionDetail(): Locator {
    return this.page.getByTestId('session-detail');
  }

  seat(seat: number): Locator {
    return this.page.getByTestId('scores-table').locator(`tr[data-seat="${seat}"]`);
  }
}
