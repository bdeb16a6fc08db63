/** An admin sets the rate and fee, and keeps the address pool: pastes many (some refused, with the reason), edits, deletes. */
import { freshAddress } from '../../app-server/testing/bitcoin.ts';
import { preparePricingAndPool, signInInBrowser } from '../support/api.ts';
import { openDeal, shoot } from '../support/admin-data.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

test('set the rate and fee: checked as the server checks them, confirmed, then shown with who set them', async ({
  server,
  person,
}) => {
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=settings');
  await page.getByLabel('BTC/USD rate (USD per bitcoin)').fill('64000.123');
  await page.getByRole('button', { name: 'Set rate and fee' }).click();
  await expect(page.getByText('Btc usd rate has more than 2 decimal places')).toBeVisible();
  await page.getByLabel('BTC/USD rate (USD per bitcoin)').fill('64000.50');
  await page.getByLabel('Fee (percent)').fill('2');
  await page.getByRole('button', { name: 'Set rate and fee' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set the rate and fee?' });
  await expect(dialog).toContainText('64000.50 USD');
  await checkPage(page, 'settings dialog');
  await dialog.getByRole('button', { name: 'Set rate and fee' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rate and fee saved' })).toBeVisible();
  await expect(page.getByText('$64,000.50')).toBeVisible();
  await expect(page.getByText(`by ${server.admin.username}`).first()).toBeVisible();
  await checkPage(page, 'settings');
  await shoot(page, 'settings');
  // Put the suite's usual price back for the journeys after this one.
  await page.getByLabel('BTC/USD rate (USD per bitcoin)').fill('50000');
  await page.getByLabel('Fee (percent)').fill('1.5');
  await page.getByRole('button', { name: 'Set rate and fee' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Set rate and fee' }).click();
  await expect(page.getByText('$50,000.00')).toBeVisible();
});

test('paste many addresses: the good ones are added, the others listed with why; edit and delete an available one', async ({
  server,
  person,
}) => {
  await preparePricingAndPool(server, { addresses: 1 }); // this file runs on its own too
  const deal = await openDeal(server, `Pool ${Date.now()}`);
  const [first, second, third] = [freshAddress(), freshAddress(), freshAddress()];
  const page = await person({ width: 820, height: 1000 });
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=addresses');
  await page
    .getByLabel('Addresses to add, one a line')
    .fill([first, 'not-an-address', second, 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'].join('\n'));
  await page.getByRole('button', { name: 'Add to the pool' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add 2 addresses to the pool?' });
  await expect(dialog).toContainText(first);
  await expect(dialog).toContainText('2 line(s) were refused here');
  await checkPage(page, 'add addresses dialog');
  await shoot(page, 'add-addresses-dialog');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('Added 2 addresses to the pool.')).toBeVisible();
  const report = page.getByRole('alert').filter({ hasText: 'Not added:' });
  await expect(report).toContainText('not-an-address');
  await expect(report).toContainText('but this service runs on mainnet');
  // The server's own refusal: a duplicate.
  await page.getByLabel('Addresses to add, one a line').fill(first);
  await page.getByRole('button', { name: 'Add to the pool' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not added:' })).toContainText('already in the pool');

  const row = page.getByRole('row').filter({ hasText: second });
  await row.getByRole('button', { name: `Edit ${second}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit address' });
  await edit.getByLabel('Address').fill(third);
  await edit.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Address updated' })).toBeVisible();
  await page
    .getByRole('row')
    .filter({ hasText: third })
    .getByRole('button', { name: `Delete ${third}` })
    .click();
  const remove = page.getByRole('dialog', { name: 'Delete this address?' });
  await expect(remove).toContainText(third);
  await remove.getByRole('button', { name: 'Delete address' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Address deleted' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: third })).toHaveCount(0);

  // An assigned address says why it cannot be changed, and names its escrow.
  const escrow = (await (
    await page.request.get(`/api/escrows/${deal.id}`, { headers: { authorization: `Bearer ${deal.buyer.token}` } })
  ).json()) as { assigned_address: string };
  const assigned = page.getByRole('row').filter({ hasText: escrow.assigned_address });
  await expect(assigned).toContainText('Assigned to an escrow: cannot be edited or deleted');
  await expect(assigned.getByRole('link')).toHaveAttribute('href', `/admin?tab=escrows&escrow=${deal.id}`);
  await checkPage(page, 'addresses');
  await shoot(page, 'addresses');
});
