/** Every tab of the console, with something in it, at desktop, tablet and phone widths: axe clean, no sideways scroll. */
import { preparePricingAndPool, signInInBrowser } from '../support/api.ts';
import { markPaid, openDeal, openDispute, shoot, submitReview } from '../support/admin-data.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

const TABS = ['verifications', 'escrows', 'disputes', 'addresses', 'users', 'reviews', 'audit', 'settings', 'ledger'];

test('every tab at 1366, 820, 390 and 360 px', async ({ server, person }) => {
  test.setTimeout(240_000);
  await preparePricingAndPool(server, { addresses: 2 });
  const marked = await openDeal(server, `Tabs ${Date.now()}`);
  await markPaid(server, marked);
  await openDispute(server, await openDeal(server, `Tabs dispute ${Date.now()}`), 'Never arrived');
  await submitReview(server, `Tabs ${Date.now()}`, 'Waiting for a moderator');
  for (const width of [1366, 820, 390, 360]) {
    const page = await person({ width, height: 900 });
    await signInInBrowser(page, server.admin);
    for (const tab of TABS) {
      await page.goto(`/admin?tab=${tab}`);
      await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${tab}$`, 'i') })).toBeVisible();
      await expect(page.locator('.loading')).toHaveCount(0);
      await checkPage(page, `${tab} at ${width}px`);
      // What sticks out to the right, named, so a failure says what to fix.
      const wide = await page.evaluate(() => {
        const root = document.documentElement;
        if (root.scrollWidth <= root.clientWidth) return [];
        const limit = root.clientWidth + 0.5;
        return [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > limit).slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
      });
      expect(wide, `sideways scroll on ${tab} at ${width}px`).toEqual([]);
      if (width !== 360) await shoot(page, `tab-${tab}`);
    }
  }
});
