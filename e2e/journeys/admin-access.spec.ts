/** Only admins reach the console: others go to /, and the landing page never downloads the console's code. */
import { registerVerified, signInInBrowser } from '../support/api.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

const consoleCode = /\/assets\/(admin-page|[a-z]+-panel)-[^/]+\.js$/;

test('a buyer who opens /admin goes to /, and nothing of the console is downloaded on the way', async ({
  server,
  person,
}) => {
  const buyer = await registerVerified(server, 'buyer');
  const page = await person();
  const scripts: string[] = [];
  page.on('request', (request) => scripts.push(request.url()));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await signInInBrowser(page, buyer);
  await page.goto('/admin?tab=users');
  await expect(page).not.toHaveURL(/\/admin/);
  expect(scripts.filter((url) => consoleCode.test(url))).toEqual([]);
  await checkPage(page);
});

test('signed out, /admin asks to sign in first; an admin comes back to a shared link with its tab', async ({
  server,
  person,
}) => {
  const page = await person();
  await page.goto('/admin?tab=ledger');
  await expect(page).toHaveURL(/\/login/);
  await signInInBrowser(page, server.admin);
  await expect(page).toHaveURL(/\/admin\?tab=ledger$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Ledger' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ledger' })).toHaveAttribute('aria-current', 'page');
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Ledger' })).toBeVisible();
  await page.goto('/admin?tab=nonsense');
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
});
