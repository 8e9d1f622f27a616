// Screenshots of the specs' key states, kept as test artifacts: every spec saves them here through this one helper
// (test-results/screenshots/<name>.png) and attaches them to its report. docs/development.md says where they are.
import fs from 'node:fs';
import path from 'node:path';
import { type Page, test } from '@playwright/test';

export const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');

/** Saves the whole page as `<name>.png` and attaches it to the test's report; returns the file. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
  return file;
}
