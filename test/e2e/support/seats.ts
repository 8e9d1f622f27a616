// The builder's seat pickers, driven as a user does: one "Seat N" select per seat, each set to an agent by its label.
import { expect, type Page } from '@playwright/test';

export function seat(page: Page, n: number) {
  return page.getByRole('combobox', { name: `Seat ${n}`, exact: true });
}

/** Seats 1… set to these agents, in order, by clicking each seat's picker. */
export async function pickSeats(page: Page, agents: readonly string[]): Promise<void> {
  for (const [i, label] of agents.entries()) await seat(page, i + 1).selectOption({ label });
}

/** Seats 1… show these agents, and no seat after them is filled. */
export async function expectSeats(page: Page, agents: readonly string[]): Promise<void> {
  for (const [i, label] of agents.entries()) await expect(seat(page, i + 1).locator('option:checked')).toHaveText(label);
  await expect(page.locator('[data-testid="seat"][data-filled="true"]')).toHaveCount(agents.length);
}
