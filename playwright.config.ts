// Browser end-to-end tests: the built UI served by a real `arena serve` (temporary data folder), driven in the
// system Chromium. Run `npm run build` first.
import { defineConfig } from '@playwright/test';
import { scaled } from './test/support/slowness.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  // Two-core CI machines, one engine: run serially.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Widened on a machine that is busy when the run starts (test/support/slowness.ts).
  timeout: scaled(60_000),
  expect: { timeout: scaled(10_000) },
  outputDir: 'test-results/e2e',
  reporter: [['list']],
  globalSetup: './test/e2e/support/global-setup.ts',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1360, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
