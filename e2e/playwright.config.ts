import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './support/chromium.ts';

/**
 * The browser suite: journeys through the real server (started once by the global setup on a fresh data directory
 * and a free port) in Debian's Chromium, never a downloaded browser. Failures keep a screenshot and a trace in
 * E2E_ARTIFACTS/results (default e2e/.artifacts), and CI's HTML report goes to E2E_ARTIFACTS/report.
 */
export default defineConfig({
  testDir: './journeys',
  // A folder of its own: Playwright empties it at the start, and the HTML report beside it must not be inside it.
  outputDir: `${process.env.E2E_ARTIFACTS ?? '.artifacts'}/results`,
  globalSetup: './support/global-setup.ts',
  // One server, one mail outbox; journeys are independent (each makes its own people) but the machine is small.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: `${process.env.E2E_ARTIFACTS ?? '.artifacts'}/report` }]]
    : 'list',
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
    viewport: { width: 1366, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
});
