// Electron shell specs (Playwright _electron). They skip themselves when the Electron binary is not installed
// (CI installs with ELECTRON_SKIP_BINARY_DOWNLOAD=1). Linux needs a display: run under xvfb-run.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/electron',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results/electron',
  reporter: [['list']],
  use: { screenshot: 'only-on-failure', trace: 'retain-on-failure' },
});
