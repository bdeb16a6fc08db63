/**
 * Screenshots of the web app's pages at desktop and phone widths, in Debian's Chromium (never a downloaded
 * browser). Starts nothing: point it at a running server.
 *   npx tsx e2e/screenshots.ts [--base http://127.0.0.1:3000] [--out e2e/screenshots]
 * Also fails when a page scrolls sideways on the phone width or logs a console error (e.g. a CSP violation).
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    out: { type: 'string', default: 'e2e/screenshots' },
  },
});
const pages = [
  ['home', '/'],
  ['not-found', '/no-such-page'],
];
const viewports = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

mkdirSync(values.out!, { recursive: true });
const browser = await chromium.launch({
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
});
const problems: string[] = [];
try {
  for (const [viewportName, viewport] of viewports) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${viewportName} console error: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(values.base!) && !request.url().startsWith('data:'))
        problems.push(`request to another host: ${request.url()}`);
    });
    for (const [name, path] of pages) {
      await page.goto(`${values.base}${path}`, { waitUntil: 'networkidle' });
      const file = `${values.out}/${name}-${viewportName}.png`;
      await page.screenshot({ path: file, fullPage: true });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (overflow > 0) problems.push(`${name} scrolls sideways by ${overflow}px at ${viewportName} width`);
      console.log(`${file}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
