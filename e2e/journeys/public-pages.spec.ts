import { checkPage, expect, test } from '../support/fixtures.ts';

/** Each public page and its own heading: a page that rendered another page's (or an error's) h1 fails. */
const pages: Record<string, string> = {
  '/': 'Bitcoin deals, held until both sides are happy',
  '/about': 'Making Bitcoin deals between strangers safe',
  '/how-it-works': 'Five steps from agreement to payout',
  '/faq': 'Frequently asked questions',
  '/reviews': 'What our users say',
  '/pgp-key': 'Our PGP public key',
  '/contact': 'Talk to a person',
  '/login': 'Sign in',
  '/register': 'Create your account',
};

test('every public page has its heading, passes axe and stays on this host, at desktop and phone widths', async ({
  person,
}) => {
  for (const viewport of [undefined, { width: 390, height: 844 }]) {
    const page = await person(viewport);
    for (const [path, heading] of Object.entries(pages)) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), `one h1 on ${path}`).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 }), `the h1 of ${path}`).toHaveText(heading);
      await checkPage(page, path);
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
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
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await checkPage(page);
});
