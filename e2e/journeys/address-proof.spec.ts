/**
 * A seller proves their payout address: the address dialog shows the exact message to sign with a copy button, takes
 * the wallet's BIP-322 signature, and the escrow then shows the address as proven to the seller and the buyer.
 */
import { testSigner } from '../../domain/bitcoin/bip322-fixtures.ts';
import { preparePricingAndPool, signInInBrowser } from '../support/api.ts';
import { openDeal, shoot } from '../support/admin-data.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

test.beforeAll(async ({ server }) => {
  await preparePricingAndPool(server, { addresses: 4 });
});

test('a seller signs the address message and the payout address shows as proven', async ({ server, person }) => {
  const deal = await openDeal(server, `Signed ${Date.now()}`);
  const wallet = testSigner('p2wpkh', 'mainnet', `e2e ${Date.now()}`);
  for (const width of [390, 1366]) {
    const page = await person({ width, height: 900 });
    await signInInBrowser(page, deal.seller);
    await page.goto(`/escrow/${deal.id}`);
    await page.getByRole('button', { name: 'Set payout address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Payout address' });
    await dialog.getByLabel(/Your payout address/).fill(wallet.address);
    const message = dialog.getByLabel('Message to sign');
    await expect(message).toContainText(`escrow ${deal.id}: I control ${wallet.address}`);
    await expect(dialog.getByRole('button', { name: 'Copy message' })).toBeVisible();
    await checkPage(page, `address dialog ${width}`);
    await shoot(page, 'address-dialog-message');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    if (width === 390) {
      await page.keyboard.press('Escape');
      continue;
    }
    await dialog.getByLabel('Signature (base64)').fill(wallet.sign((await message.textContent()) ?? ''));
    await dialog.getByRole('button', { name: 'Save address' }).click();
    await expect(page.getByText('(proven by its signature)')).toBeVisible();
    await checkPage(page, 'escrow page with a proven payout address');
    await shoot(page, 'escrow-page-address-proven');
  }
});
