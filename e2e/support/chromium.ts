/**
 * How the browser suite and the screenshot scripts start Debian's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium), never a downloaded browser: headless, and without the background traffic (QUIC, sync,
 * component updates) that would show up as requests to other hosts.
 */
import type { LaunchOptions } from 'playwright-core';

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
} satisfies LaunchOptions;
