/**
 * An admin without 2FA (the suite's server runs with ADMIN_2FA_REQUIRED=false) runs the money side of the business in
 * the console: verifies a marked payment after seeing its evidence, releases, refunds, resolves a dispute with a
 * split, freezes and unfreezes, assigns an address; each escrow's history shows what happened.
 */
import { call, preparePricingAndPool, signInInBrowser } from '../support/api.ts';
import { linkIn, waitForMail } from '../support/mail.ts';
import { freshAddress } from '../../app-server/testing/bitcoin.ts';
import { fundedDeal, markPaid, openDeal, openDispute, shoot } from '../support/admin-data.ts';
import type { Locator } from '@playwright/test';
import { checkPage, expect, test } from '../support/fixtures.ts';
import { moveServerClock, serverClockMovable } from '../support/server-clock.ts';

test.beforeAll(async ({ server }) => {
  await preparePricingAndPool(server, { addresses: 12 });
});
// Whatever happens in a journey, the next one starts on the real time.
test.afterEach(() => {
  if (serverClockMovable()) moveServerClock(0);
});

/**
 * The deals here are 500.00 USD at 50,000 USD/BTC with a 1.5 % fee: 7.50 USD of fee, 507.50 USD to pay, so
 * 1,015,000 sats held, of which the fee's part is 15,000 and the seller's 1,000,000.
 */
const SATS = { held: '0.01015000 BTC', seller: '0.01000000 BTC', fee: '0.00015000 BTC' };
/** The value a dialog's fact list gives for a term ("Seller gets" -> its <dd>). */
const fact = (dialog: Locator, term: string) =>
  dialog.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');

test('verify a marked payment after looking at its evidence, then release it to the seller', async ({
  server,
  person,
}) => {
  const product = `Verify ${Date.now()}`;
  const deal = await openDeal(server, product);
  await markPaid(server, deal, 'Paid at noon');
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=verifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin console' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Verifications \d+ payments? to verify/ })).toBeVisible();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: product }) });
  await expect(card.getByText('Paid at noon')).toBeVisible();
  const preview = card.getByRole('img', { name: 'Payment evidence: receipt.png' });
  await expect(preview).toBeVisible();
  expect(
    await preview.evaluate(
      (img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:'),
    ),
  ).toBe(true);
  await checkPage(page, 'verifications');
  await shoot(page, 'verifications');

  await card.getByRole('button', { name: 'Verify' }).click();
  const dialog = page.getByRole('dialog', { name: 'Verify this payment?' });
  await expect(dialog.getByText(/BTC/).first()).toBeVisible();
  await dialog.getByLabel('Transaction id (optional)').fill('xyz');
  await dialog.getByRole('button', { name: 'Verify payment' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The transaction id must be 64 hexadecimal characters');
  await dialog.getByLabel('Transaction id (optional)').fill('a'.repeat(64));
  await checkPage(page, 'verify dialog');
  await shoot(page, 'verify-dialog');
  await dialog.getByRole('button', { name: 'Verify payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Payment verified: the escrow is funded' })).toBeVisible();
  await expect(page.getByRole('heading', { name: product })).toHaveCount(0);

  // The seller gives a payout address; the escrow's page in the console (as mails link to it) offers the release.
  await page.request.post(`/api/escrows/${deal.id}/payout-address`, {
    headers: { authorization: `Bearer ${deal.seller.token}` },
    data: { address: deal.payoutAddress },
  });
  await page.goto(`/admin?tab=escrows&escrow=${deal.id}`);
  await expect(page.getByRole('heading', { name: product })).toBeVisible();
  await expect(page.locator('.history-entry').filter({ hasText: 'PaymentVerified' })).toContainText('Funded');
  await page.getByRole('button', { name: 'Release' }).click();
  const release = page.getByRole('dialog', { name: 'Release the funds to the seller?' });
  await expect(release).toContainText(deal.payoutAddress);
  await expect(fact(release, 'Seller gets')).toHaveText(SATS.seller);
  await expect(fact(release, 'Fee kept')).toHaveText(SATS.fee);
  await expect(fact(release, 'Held in escrow')).toHaveText(SATS.held);
  await expect(fact(release, 'To address')).toHaveText(deal.payoutAddress);
  await checkPage(page, 'release dialog');
  await shoot(page, 'release-dialog');
  await release.getByRole('button', { name: 'Release funds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Escrow released' })).toBeVisible();
  await expect(page.locator('.escrow-detail .badge').first()).toHaveText('Released');
  await expect(page.locator('.history-entry').filter({ hasText: 'EscrowReleased' })).toBeVisible();
  await checkPage(page, 'released escrow');
  await shoot(page, 'escrow-detail');
});

test('refund, freeze and unfreeze from the escrow list; the list filters by status and searches by e-mail', async ({
  server,
  person,
}) => {
  const product = `Refund ${Date.now()}`;
  const deal = await fundedDeal(server, product);
  const page = await person({ width: 820, height: 1000 });
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=escrows');
  await page.getByLabel('Escrow id or e-mail').fill(deal.buyer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(deal.buyer.email).replace(/\./g, '\\.')}`));
  await expect(page.getByRole('link', { name: product })).toHaveCount(1);
  await page.getByLabel('Status').selectOption('released');
  await expect(page.getByText('No escrow matches these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('funded');
  await checkPage(page, 'escrow list');
  await shoot(page, 'escrows');
  await page.getByRole('link', { name: product }).click();
  await expect(page).toHaveURL(new RegExp(`escrow=${deal.id}`));

  await page.getByRole('button', { name: 'Freeze' }).click();
  const freeze = page.getByRole('dialog', { name: 'Freeze this escrow?' });
  await freeze.getByRole('button', { name: 'Freeze' }).click();
  await expect(freeze.getByRole('alert')).toHaveText('Give a reason (it is kept in the log)');
  await freeze.getByLabel('Reason').fill('Checking the seller');
  await freeze.getByRole('button', { name: 'Freeze' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Escrow frozen' })).toBeVisible();
  await page.getByRole('button', { name: 'Unfreeze' }).click();
  const unfreeze = page.getByRole('dialog', { name: 'Unfreeze this escrow?' });
  await unfreeze.getByLabel('Reason').fill('All good');
  await unfreeze.getByRole('button', { name: 'Unfreeze' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Escrow unfrozen' })).toBeVisible();

  await page.getByRole('button', { name: 'Refund' }).click();
  const refund = page.getByRole('dialog', { name: 'Refund the buyer?' });
  // A refund returns everything held, the fee included.
  await expect(fact(refund, 'Buyer gets')).toHaveText(SATS.held);
  await expect(fact(refund, 'To address')).toHaveText(deal.refundAddress);
  await expect(refund).toContainText(deal.refundAddress);
  await refund.getByRole('button', { name: 'Refund buyer' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Escrow refunded' })).toBeVisible();
  await expect(page.locator('.history-entry').filter({ hasText: 'EscrowFrozen' })).toContainText('Frozen');
  await expect(page.locator('.history-entry').last()).toContainText('Refunded');
  await checkPage(page, 'refunded escrow');
});

test('resolve a dispute with a split: the satoshis each side gets are shown before confirming', async ({
  server,
  person,
}) => {
  const product = `Dispute ${Date.now()}`;
  const deal = await fundedDeal(server, product);
  await openDispute(server, deal, 'Only half of it arrived');
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=disputes');
  await expect(page.getByRole('link', { name: /Disputes \d+ open disputes?/ })).toBeVisible();
  const card = page.getByRole('listitem').filter({ hasText: 'Only half of it arrived' });
  await expect(card).toContainText(deal.buyer.email);
  await expect(card).toContainText(deal.seller.email);
  await expect(card.getByRole('img', { name: 'Payment evidence: receipt.png' })).toBeVisible();
  await checkPage(page, 'disputes');
  await shoot(page, 'disputes');
  await card.getByRole('button', { name: 'Resolve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve this dispute' });
  await dialog.getByRole('button', { name: 'Resolve dispute' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Write the outcome (both parties are told)');
  await dialog.getByLabel('Outcome').fill('Half arrived: the seller keeps 30%');
  await dialog.getByLabel('Resolution').selectOption('split');
  await dialog.getByLabel("Seller's share (percent, 1 to 99)").fill('30');
  // The fee is kept and the principal of 1,000,000 sats divided: 300,000 to the seller, 700,000 to the buyer.
  await expect(fact(dialog, 'Seller gets').locator('strong')).toHaveText('0.00300000 BTC');
  await expect(fact(dialog, 'Buyer gets').locator('strong')).toHaveText('0.00700000 BTC');
  await expect(fact(dialog, 'Buyer gets')).toContainText(deal.refundAddress);
  await expect(fact(dialog, 'Fee kept')).toHaveText(SATS.fee);
  await checkPage(page, 'resolve dialog');
  await shoot(page, 'resolve-dialog');
  await dialog.getByRole('button', { name: 'Resolve dispute' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Dispute resolved' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Only half of it arrived' })).toContainText('seller 30%');
  await page
    .getByRole('listitem')
    .filter({ hasText: 'Only half of it arrived' })
    .getByRole('link', { name: /Escrow/ })
    .click();
  await expect(page.locator('.history-entry').last()).toContainText('DisputeResolved');
});

test('assign an available address to an escrow a seller opened', async ({ server, person }) => {
  const deal = await openDeal(server, `Assign ${Date.now()}`);
  // The seller's side: a seller-opened escrow has no address until the buyer asks or an admin assigns one.
  const opened = await (
    await fetch(`${server.baseURL}/api/escrows`, {
      method: 'POST',
      headers: { authorization: `Bearer ${deal.seller.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        product_service: 'Seller listing',
        description: 'Opened by the seller',
        amount_usd: 300,
        deadline_days: 7,
        buyer_email: deal.buyer.email,
      }),
    })
  ).json();
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto(`/admin?tab=escrows&escrow=${opened.id}`);
  await page.getByRole('button', { name: 'Assign address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign a payment address' });
  const chosen = await dialog.getByLabel('Available address').locator('option:checked').textContent();
  await checkPage(page, 'assign dialog');
  await dialog.getByRole('button', { name: 'Assign address' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Address assigned' })).toBeVisible();
  await expect(page.locator('.escrow-detail')).toContainText(chosen!.trim());
});

test('a payout address replaced after funding: the mails lead to pages that say until when; no release till then', async ({
  server,
  person,
}) => {
  const product = `Held ${Date.now()}`;
  const deal = await fundedDeal(server, product);
  const replacement = freshAddress();
  await call(server, `/escrows/${deal.id}/payout-address`, {
    token: deal.seller.token,
    json: { address: replacement },
  });
  const held = /Replaced recently: no money goes to it before \d{1,2} \w{3} \d{4}/;

  // The admins' mail about the change leads to the escrow in the console; a reload stays there.
  const adminMail = await waitForMail(server.outbox, server.admin.email, 'Address changed');
  const admin = await person();
  await admin.clock.install(); // the browser's clock runs as usual until the journey moves it
  await signInInBrowser(admin, server.admin);
  await admin.goto(linkIn(adminMail, '/admin'));
  const payout = admin.locator('dt', { hasText: "Seller's payout address" }).locator('xpath=following-sibling::dd[1]');
  for (const width of [1366, 390]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.reload();
    await expect(admin.getByRole('heading', { name: product })).toBeVisible();
    await expect(payout).toContainText(replacement);
    await expect(payout).toContainText(held);
    await expect(admin.getByRole('button', { name: 'Release' })).toHaveCount(0);
    await checkPage(admin, `held payout address (console, ${width} px)`);
    await shoot(admin, 'held-payout-admin');
  }

  // Left open past the hold (24 h), the console's escrow offers the release by itself: no reload, no other event.
  if (process.env.CI)
    expect(serverClockMovable(), 'libfaketime must be installed in CI (.ci/run installs it)').toBe(true);
  if (serverClockMovable()) {
    moveServerClock(1.05);
    await admin.clock.fastForward('25:15:00');
    await expect(admin.getByRole('button', { name: 'Release' })).toBeVisible({ timeout: 15_000 });
    await expect(payout).not.toContainText('Replaced recently');
    await checkPage(admin, 'hold over, release offered (console, 390 px)');
    await shoot(admin, 'held-payout-admin-over');
    moveServerClock(0);
  }

  // The seller's mail leads to the escrow's page; a reload stays there.
  const sellerMail = await waitForMail(server.outbox, deal.seller.email, 'Address changed');
  expect(sellerMail.text).toContain(`to ${replacement}`);
  const seller = await person();
  await signInInBrowser(seller, deal.seller);
  await seller.goto(linkIn(sellerMail, '/escrow/'));
  for (const width of [1366, 390]) {
    await seller.setViewportSize({ width, height: 900 });
    await seller.reload();
    await expect(seller.getByRole('heading', { name: 'Addresses and transactions' })).toBeVisible();
    await expect(seller.getByText(held)).toBeVisible();
    await checkPage(seller, `held payout address (seller, ${width} px)`);
    await shoot(seller, 'held-payout-seller');
  }
});
