/**
 * An admin with 2FA on releases money through the console with a code: a wrong code is refused inside the dialog, a
 * fresh one from the next 30-second step goes through (a code is accepted once per step).
 */
import { totpCodeAt } from '../../app-server/auth/totp.ts';
import { adminToken, call, preparePricingAndPool, registerVerified, signIn } from '../support/api.ts';
import { fundedDeal } from '../support/admin-data.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

const STEP_MS = 30_000;
/** A code from the step after the last one used (the server accepts each step's code once). */
async function nextCode(secret: string, after: number): Promise<string> {
  const next = (Math.floor(after / STEP_MS) + 1) * STEP_MS + 500;
  if (Date.now() < next) await new Promise((r) => setTimeout(r, next - Date.now()));
  return totpCodeAt(secret, new Date());
}

test('release with the admin 2FA code asked for in the confirmation', async ({ server, person }) => {
  test.setTimeout(180_000);
  await preparePricingAndPool(server, { addresses: 1 });
  const deal = await fundedDeal(server, `Two factor ${Date.now()}`);
  const helper = await registerVerified(server, 'seller');
  await call(server, `/admin/users/${(await call<{ id: string }>(server, '/auth/me', { token: helper.token })).id}`, {
    method: 'PUT',
    token: await adminToken(server),
    form: { role: 'admin' },
  });
  const token = await signIn(server, helper.username);
  const { secret } = await call<{ secret: string }>(server, '/auth/setup-2fa', { token, method: 'POST' });
  const enabledAt = Date.now();
  await call(server, '/auth/verify-2fa', { token, form: { totp_code: totpCodeAt(secret, new Date(enabledAt)) } });

  const page = await person();
  await page.addInitScript((value) => localStorage.setItem('escrow.session', value), token);
  await page.goto(`/admin?tab=escrows&escrow=${deal.id}`);
  await page.getByRole('button', { name: 'Release' }).click();
  const dialog = page.getByRole('dialog', { name: 'Release the funds to the seller?' });
  await expect(dialog.getByLabel('Your 2FA code')).toBeVisible();
  await dialog.getByRole('button', { name: 'Release funds' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter the 6-digit code from your authenticator app');
  await dialog.getByLabel('Your 2FA code').fill('000000');
  await dialog.getByRole('button', { name: 'Release funds' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Invalid 2FA code');
  await checkPage(page, 'release dialog with a 2FA code');
  await dialog.getByLabel('Your 2FA code').fill(await nextCode(secret, enabledAt));
  await dialog.getByRole('button', { name: 'Release funds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Escrow released' })).toBeVisible();
  await expect(page.locator('.escrow-detail .badge').first()).toHaveText('Released');
});
