/**
 * The suite's `test`: each person in a fresh browser context whose pages record requests to other hosts and console
 * errors, and `checkPage` to hold every page visited to the product's bar (axe: no serious or critical violation;
 * no request leaves for another host; no console error such as a CSP violation).
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { serverInfo, type E2eServer } from './server-info.ts';

interface Watch {
  foreign: string[];
  consoleErrors: string[];
}
const watches = new WeakMap<Page, Watch>();

export function watch(page: Page, baseURL: string): void {
  const origin = new URL(baseURL).origin;
  const seen: Watch = { foreign: [], consoleErrors: [] };
  watches.set(page, seen);
  page.on('request', (request) => {
    const url = request.url();
    if (/^(data|blob|about):/.test(url)) return;
    if (new URL(url).origin !== origin) seen.foreign.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') seen.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => seen.consoleErrors.push(error.message));
}

async function newPerson(
  browser: Browser,
  baseURL: string,
  contexts: BrowserContext[],
  viewport?: { width: number; height: number },
): Promise<Page> {
  const context = await browser.newContext({ baseURL, ...(viewport ? { viewport } : {}) });
  contexts.push(context);
  context.on('page', (page) => watch(page, baseURL));
  const page = await context.newPage();
  if (!watches.has(page)) watch(page, baseURL);
  return page;
}

/**
 * Fails on what a person (or an auditor) would object to on the page as it is now. Console errors caused by the
 * server's refusals (a 4xx a journey provokes on purpose) are the browser's network log, not the app's: only errors
 * that are not "Failed to load resource" count.
 */
export async function checkPage(page: Page, what = page.url()): Promise<void> {
  const seen = watches.get(page);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${what}`,
  ).toEqual([]);
  expect(seen?.foreign ?? [], `requests to other hosts from ${what}`).toEqual([]);
  const errors = (seen?.consoleErrors ?? []).filter((text) => !text.startsWith('Failed to load resource'));
  expect(errors, `console errors on ${what}`).toEqual([]);
}

export const test = base.extend<
  { person: (viewport?: { width: number; height: number }) => Promise<Page> },
  { server: E2eServer }
>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use(serverInfo());
    },
    { scope: 'worker' },
  ],
  person: async ({ browser, server }, use) => {
    const contexts: BrowserContext[] = [];
    await use((viewport) => newPerson(browser, server.baseURL, contexts, viewport));
    await Promise.all(contexts.map((c) => c.close()));
  },
});

export { expect };
