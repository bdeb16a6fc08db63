/**
 * Screenshots of the web app's pages at desktop and phone widths, in Debian's Chromium (never a downloaded
 * browser). Starts nothing: point it at a running server.
 *   npx tsx e2e/screenshots.ts [--base http://127.0.0.1:3000] [--out e2e/screenshots]
 * Also fails when a page scrolls sideways on the phone width or logs a console error (e.g. a CSP violation).
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { prepareScreenshotData } from './screenshot-data.ts';
import { onConsoleError, onRequestElsewhere, sidewaysOverflow, storeSession } from './screenshot-page.ts';
import { chromiumLaunchOptions } from './support/chromium.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    out: { type: 'string', default: 'e2e/screenshots' },
    // "username:password" of an admin: seeds a few reviews into an empty store and adds the signed-in pages.
    admin: { type: 'string' },
  },
});
type Shot = [name: string, path: string, act?: (page: Page) => Promise<void>];
const pages: Shot[] = [
  ['home', '/'],
  [
    'menu',
    '/about',
    async (page) => {
      // The phone layout folds the navigation into a menu button; wide screens show it inline.
      const toggle = page.getByRole('button', { name: 'Menu' });
      if (await toggle.isVisible()) await toggle.click();
    },
  ],
  ['about', '/about'],
  ['how-it-works', '/how-it-works'],
  ['faq', '/faq'],
  ['reviews', '/reviews'],
  ['reviews-filtered-empty', '/reviews?min_rating=4.5&country=Nowhere'],
  [
    'write-review',
    '/reviews',
    async (page) => {
      await page.getByRole('button', { name: 'Write a Review' }).click();
      await page.getByRole('button', { name: 'Submit review' }).click();
    },
  ],
  ['pgp-key', '/pgp-key'],
  ['contact', '/contact'],
  [
    'contact-invalid',
    '/contact',
    async (page) => {
      await page.getByRole('button', { name: 'Send message' }).click();
    },
  ],
  ['login', '/login'],
  ['register', '/register'],
  [
    'register-mismatch',
    '/register',
    async (page) => {
      await page.getByLabel('Password', { exact: true }).fill('long enough 1');
      await page.getByLabel('Confirm password').fill('long enough 2');
      await page.getByRole('button', { name: 'Create account' }).click();
    },
  ],
  ['verify-email', '/verify-email?token=not-a-real-token'],
  ['dashboard-guard', '/dashboard'],
  ['not-found', '/no-such-page'],
];
const signedInPages: Shot[] = [
  ['signed-in-dashboard', '/dashboard'],
  ['signed-in-home', '/'],
  ['signed-in-reviews', '/reviews'],
];
let sessionToken: string | null = null;
if (values.admin) {
  const [username, ...rest] = values.admin.split(':');
  sessionToken = await prepareScreenshotData(values.base!, { username: username!, password: rest.join(':') });
}
const viewports = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

mkdirSync(values.out!, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
const problems: string[] = [];
try {
  for (const [viewportName, viewport] of viewports) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // Refused calls show up as responses below; anything else logged as an error is a problem (CSP included).
    onConsoleError(page, (text) => problems.push(`${viewportName} console error: ${text}`));
    page.on('response', (response) => {
      // 503 is the API's documented "not ready" (e.g. no BTC rate set yet); any other 5xx is a fault.
      if (response.status() >= 500 && response.status() !== 503)
        problems.push(`${response.status()} from ${response.url()}`);
    });
    onRequestElsewhere(page, values.base!, (url) => problems.push(`request to another host: ${url}`));
    const shots = sessionToken ? [...pages, ...signedInPages] : pages;
    for (const [name, path, act] of shots) {
      if (name === signedInPages[0]?.[0]) {
        // From here on the browser holds the session, as the app stores it after a sign-in.
        await storeSession(page, values.base!, sessionToken!);
      }
      await page.goto(`${values.base}${path}`, { waitUntil: 'networkidle' });
      if (act) {
        await act(page);
        await page.waitForTimeout(300);
      }
      const file = `${values.out}/${name}-${viewportName}.png`;
      await page.screenshot({ path: file, fullPage: true });
      const overflow = await sidewaysOverflow(page);
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
