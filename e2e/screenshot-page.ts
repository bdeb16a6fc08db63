/**
 * What the screenshot scripts do to each page: sign it in, listen for what they count as problems, and measure how
 * far it scrolls sideways.
 */
import type { Page } from 'playwright-core';

/** Opens the app at `base` and stores `token` as the session, as the app does after a sign-in. */
export async function storeSession(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.evaluate((session) => localStorage.setItem('escrow.session', session), token);
}

/**
 * Calls `report` with each console error the page logs (a CSP violation, say), but not the browser's
 * "Failed to load resource" lines: a refused call shows up as its response.
 */
export function onConsoleError(page: Page, report: (text: string) => void): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) report(message.text());
  });
}

/** Calls `report` with the address of each request the page sends anywhere but `base` (data: URLs aside). */
export function onRequestElsewhere(page: Page, base: string, report: (url: string) => void): void {
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !request.url().startsWith('data:')) report(request.url());
  });
}

/** How many pixels wider than the window the page is (0 when it fits). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
