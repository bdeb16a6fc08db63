import { checkPage, expect, test } from '../support/fixtures.ts';

const pages = ['/', '/about', '/how-it-works', '/faq', '/reviews', '/pgp-key', '/contact', '/login', '/register'];

test('every public page has its heading, passes axe and stays on this host, at desktop and phone widths', async ({ person }) => {
  for (const viewport of [undefined, { width: 390, height: 844 }]) {
    const page = await person(viewport);
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), `one h1 on ${path}`).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 }), `h1 on ${path}`).not.toBeEmpty();
      await checkPage(page, path);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      expect(sideways, `sideways scroll on ${path}`).toBe(false);
    }
  }
});

test('a dialog traps focus, closes with Escape and gives focus back to what opened it', async ({ person }) => {
  const page = await person();
  await page.goto('/reviews');
  const opener = page.getByRole('button', { name: 'Write a Review' });
  await opener.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test('an unknown path shows the not-found page', async ({ person }) => {
  const page = await person();
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/not found/i);
  await checkPage(page);
});
