/**
 * The deal's own steps in the browser: agreeing (Agree and pay), the seller's shipment, the buyer's receipt and
 * inspection, the system's acceptance when the inspection period ends (the server's clock moved forward, not waited
 * for), a seller who declines the terms, and a seller's escrow as its buyer first sees it on a phone (Agree and pay,
 * then the payment dialog with Mark as Paid in view). Each new screen is checked (axe, no overflow) and photographed
 * at a laptop's 1366x768 and a phone's 390x844.
 */
import type { Page } from '@playwright/test';
import { freshAddress } from '../../app-server/testing/bitcoin.ts';
import {
  adminToken,
  call,
  preparePricingAndPool,
  registerVerified,
  signInInBrowser,
  type Person,
} from '../support/api.ts';
import { checkAtBothSizes as checkBoth, LAPTOP, PHONE } from '../support/both-sizes.ts';
import { shoot } from '../support/admin-data.ts';
import { adminConsole } from '../support/escrow-admin.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';
import { moveServerClock, serverClockMovable } from '../support/server-clock.ts';

test.beforeAll(async ({ server }) => preparePricingAndPool(server, { rate: '50000', fee: '1.5', addresses: 4 }));
// Whatever happens in a journey, the next one starts on the real time.
test.afterEach(() => {
  if (serverClockMovable()) moveServerClock(0);
});

const status = (page: Page) => page.locator('.escrow-status .badge');
const tracker = (page: Page) => page.getByRole('list', { name: 'Progress' });
const nextStep = (page: Page) => page.getByRole('region', { name: 'Next step' });
const history = (page: Page) => page.getByRole('region', { name: 'History' });
const escrowIdOf = (page: Page) => new URL(page.url()).pathname.split('/').at(-1)!;

async function signedIn(
  person: (viewport?: { width: number; height: number }) => Promise<Page>,
  who: Person,
): Promise<Page> {
  const page = await person(LAPTOP);
  await signInInBrowser(page, who);
  return page;
}

/** The screen checked and photographed at both sizes, its pictures named after this suite. */
const checkAtBothSizes = (page: Page, name: string) => checkBoth(page, `deal-steps-${name}`);

test('a shipped deal: agreed and paid, shipped, received, accepted by the system when the inspection ends, released', async ({
  server,
  person,
}) => {
  // CI installs libfaketime, so there the journey always runs; elsewhere it may be skipped, saying why.
  if (process.env.CI)
    expect(serverClockMovable(), 'libfaketime must be installed in CI (.ci/run installs it)').toBe(true);
  test.skip(!serverClockMovable(), 'the server runs on a clock this suite cannot move (libfaketime is not installed)');
  test.setTimeout(300_000); // three people in three browser contexts
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const sellerPage = await signedIn(person, seller);
  const admin = adminConsole(server, person);
  let id = '';

  await test.step('the seller opens an escrow with a one-day inspection period', async () => {
    await sellerPage.getByRole('button', { name: '+ Create Escrow' }).click();
    const dialog = sellerPage.getByRole('dialog', { name: 'Create Escrow' });
    await dialog.getByLabel('Product or service').fill('Vintage turntable');
    await dialog.getByLabel("Buyer's e-mail").fill(buyer.email);
    await dialog.getByLabel('Amount in USD').fill('320');
    await dialog.getByLabel('Inspection period (days)').fill('1');
    await dialog.getByLabel('Description and terms').fill('Belt drive, new stylus, shipped in its original box.');
    await dialog.getByRole('button', { name: 'Create Escrow' }).click();
    await sellerPage.waitForURL('**/escrow/**');
    id = escrowIdOf(sellerPage);
    await expect(sellerPage.getByRole('region', { name: 'Agreement and delivery' })).toContainText('1 day');
  });

  const buyerPage = await signedIn(person, buyer);
  await test.step('the buyer agrees and pays, then marks the payment as sent', async () => {
    await buyerPage.goto(`/escrow/${id}`);
    await expect(nextStep(buyerPage)).toContainText('Click Agree and pay');
    await buyerPage.getByRole('button', { name: 'Agree and pay' }).click();
    const payment = buyerPage.getByRole('dialog', { name: 'Payment information' });
    await expect(payment.getByText('0.00649600 BTC', { exact: true })).toBeVisible();
    await payment.getByRole('button', { name: 'I have paid: Mark as Paid' }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Mark as Paid' });
    await dialog.getByLabel('Notes').fill('Sent from my hardware wallet');
    await dialog.getByRole('button', { name: 'Mark as Paid' }).click();
    await expect(buyerPage.getByText('Payment marked, being checked by an admin')).toBeVisible();
    await expect(tracker(buyerPage).getByRole('listitem').filter({ hasText: 'Agreed' })).toContainText('(done)');
  });

  await test.step('an admin verifies the payment', async () => {
    await admin.verifyPayment(id, { verified: true, notes: 'Seen on the chain', txid: 'ef'.repeat(32) });
    await expect(status(sellerPage)).toHaveText('Funded');
    await expect(nextStep(sellerPage)).toContainText('record the shipment');
  });

  await test.step('the seller records the shipment in the ship dialog', async () => {
    await sellerPage.getByRole('button', { name: 'Record shipment' }).click();
    const dialog = sellerPage.getByRole('dialog', { name: 'Record the shipment' });
    await dialog.getByRole('button', { name: 'Record shipment' }).click();
    await expect(dialog.getByText('The carrier is required for a shipment')).toBeVisible();
    await dialog.getByRole('textbox', { name: /^Carrier/ }).fill('DHL Express');
    await dialog.getByLabel('Tracking number').fill('JD014600006281234567');
    await dialog.getByLabel('Note for the buyer').fill('Packed with foam; it should arrive on Thursday.');
    await checkAtBothSizes(sellerPage, 'ship-dialog');
    await dialog.getByRole('button', { name: 'Record shipment' }).click();
    await expect(sellerPage.getByText('Shipment recorded. The buyer has been told.')).toBeVisible();
    await expect(sellerPage.locator('.escrow-status').getByText('Shipped')).toBeVisible();
    const facts = sellerPage.getByRole('region', { name: 'Agreement and delivery' });
    await expect(facts).toContainText('DHL Express');
    await expect(facts).toContainText('JD014600006281234567');
  });

  await test.step('the buyer sees the shipment and marks the goods received; the inspection starts', async () => {
    await expect(nextStep(buyerPage)).toContainText(
      'The seller has shipped. When it arrives, click Mark as received: you then have 1 day to inspect it.',
    );
    await expect(history(buyerPage)).toContainText('Shipped with DHL Express (tracking JD014600006281234567)');
    await buyerPage.getByRole('button', { name: 'Mark as received' }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Mark as received' });
    await expect(dialog).toContainText('You then have 1 day to inspect it');
    await checkAtBothSizes(buyerPage, 'receive-dialog');
    await dialog.getByRole('button', { name: 'Mark as received' }).click();
    await expect(buyerPage.getByText('Marked as received. The inspection period has started.')).toBeVisible();
    await expect(buyerPage.locator('.escrow-status').getByText('Received; being inspected')).toBeVisible();
    await expect(tracker(buyerPage).locator('[aria-current="step"]')).toContainText('Inspection ends in 1 day');
    await expect(history(buyerPage)).toContainText(
      /Marked received by the buyer; the inspection period ends \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/,
    );
    await expect(nextStep(buyerPage)).toContainText('Confirm Receipt, or open a dispute, by');
    await expect(buyerPage.getByRole('button', { name: 'Confirm Receipt' })).toBeVisible();
    await checkAtBothSizes(buyerPage, 'inspection-running');
  });

  await test.step('the period ends with no dispute: the system accepts the goods, seen without reloading', async () => {
    moveServerClock(1.02); // a day and half an hour later; the inspection clock runs every 5 s
    const accepted = history(buyerPage)
      .getByRole('listitem')
      .filter({ hasText: 'Accepted: the inspection period ended with no dispute' });
    await expect(accepted).toBeVisible({ timeout: 30_000 });
    await expect(accepted).toContainText('(automatic)');
    await expect(buyerPage.locator('.escrow-status').getByText('Receipt confirmed')).toBeVisible();
    await expect(tracker(buyerPage).getByRole('listitem').filter({ hasText: 'Accepted' })).toContainText('(done)');
    await expect(buyerPage.getByRole('button', { name: 'Confirm Receipt' })).toHaveCount(0);
    await expect(nextStep(buyerPage)).toContainText(
      'Receipt confirmed; an admin will release the money to the seller.',
    );
    await checkAtBothSizes(buyerPage, 'inspection-accepted');
    await expect(nextStep(sellerPage)).toContainText(
      'Set your payout address so an admin can release the money to you.',
    );
  });

  const payout = freshAddress();
  await test.step('the seller gives a payout address and an admin releases; both sides see it released', async () => {
    await call(server, `/escrows/${id}/payout-address`, { token: seller.token, json: { address: payout } });
    await admin.release(id, { notes: 'Accepted after inspection', txid: '12'.repeat(32), expectedAddress: payout });
    for (const page of [buyerPage, sellerPage]) {
      await expect(status(page)).toHaveText('Released');
      await expect(nextStep(page)).toContainText('The deal is complete: the money went to the seller.');
      await expect(tracker(page).getByRole('listitem').filter({ hasText: 'Released' })).toContainText('(done)');
    }
    await checkAtBothSizes(sellerPage, 'released');
  });
});

test("a seller's escrow seen by its buyer: Agree and pay offered, then the payment dialog, its Mark as Paid in view on a phone", async ({
  server,
  person,
}) => {
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const { id } = await call<{ id: string }>(server, '/escrows', {
    token: seller.token,
    json: {
      product_service: 'Film scanner',
      description: 'Scans 35 mm and medium format, with its holders',
      amount_usd: '320',
      buyer_email: buyer.email,
      inspection_days: 2,
    },
    expect: 201,
  });
  const buyerPage = await signedIn(person, buyer);

  await test.step('the buyer reads the terms, with Agree and pay offered', async () => {
    await buyerPage.goto(`/escrow/${id}`);
    await expect(nextStep(buyerPage)).toContainText('Click Agree and pay');
    await expect(nextStep(buyerPage).getByRole('button', { name: 'Agree and pay' })).toBeVisible();
    await checkAtBothSizes(buyerPage, 'agree-and-pay');
  });

  await test.step('on a phone, Agree and pay opens the payment dialog with its QR code named and Mark as Paid in view', async () => {
    await buyerPage.setViewportSize(PHONE);
    await buyerPage.getByRole('button', { name: 'Agree and pay' }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Payment information' });
    await expect(dialog.getByRole('img', { name: /^QR code: pay 0\.00649600 BTC to \w+$/ })).toBeVisible();
    await expect(dialog.locator('svg.qr-code')).toBeVisible(); // drawn, not the placeholder
    // As the dialog opens, unscrolled: the button is where the buyer looks, not found by scrolling (the dialog is fixed).
    expect(await dialog.evaluate((el) => el.scrollTop)).toBe(0);
    const markPaid = dialog.getByRole('button', { name: 'I have paid: Mark as Paid' });
    const button = (await markPaid.boundingBox())!;
    const shown = (await dialog.boundingBox())!;
    expect(button.y, 'Mark as Paid starts inside the screen').toBeGreaterThanOrEqual(0);
    expect(button.y + button.height, 'Mark as Paid ends above the fold').toBeLessThanOrEqual(PHONE.height);
    expect(button.y + button.height, "Mark as Paid is not cut off by the dialog's edge").toBeLessThanOrEqual(
      shown.y + shown.height,
    );
    const onTop = await markPaid.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
    });
    expect(onTop, 'nothing covers Mark as Paid').toBe(true);
    await shoot(buyerPage, 'deal-steps-agree-and-pay-dialog-on-screen', { fullPage: false });
    await checkAtBothSizes(buyerPage, 'agree-and-pay-dialog');
  });

  await test.step("Mark as Paid, tapped where it is on the phone, asks for the payment's details; the terms stay agreed", async () => {
    await buyerPage.setViewportSize(PHONE);
    const dialog = buyerPage.getByRole('dialog', { name: 'Payment information' });
    await dialog.getByRole('button', { name: 'I have paid: Mark as Paid' }).click();
    const marking = buyerPage.getByRole('dialog', { name: 'Mark as Paid' });
    await expect(marking.getByLabel('Notes')).toBeVisible();
    await buyerPage.keyboard.press('Escape');
    await expect(marking).toHaveCount(0);
    // Agree and pay agreed to the terms even though nothing was marked paid yet.
    await expect(tracker(buyerPage).getByRole('listitem').filter({ hasText: 'Agreed' })).toContainText('(done)');
  });
});

test("a seller declines the terms of a buyer's escrow: it is cancelled, with the reason, for both", async ({
  server,
  person,
}) => {
  test.setTimeout(180_000);
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const reason = 'I can only ship within the EU, and the address is outside it.';
  const { id } = await call<{ id: string }>(server, '/escrows', {
    token: buyer.token,
    json: {
      product_service: 'Espresso grinder',
      description: 'Used, with the original burrs',
      amount_usd: '180',
      seller_email: seller.email,
    },
    expect: 201,
  });
  const sellerPage = await signedIn(person, seller);

  await test.step('the seller reads the terms and declines them in the decline dialog, with a reason', async () => {
    await sellerPage.goto(`/escrow/${id}`);
    await expect(nextStep(sellerPage)).toContainText('Agree to them, or decline with a reason');
    await sellerPage.getByRole('button', { name: 'Decline' }).click();
    const dialog = sellerPage.getByRole('dialog', { name: 'Decline the terms' });
    await expect(dialog).toContainText('Declining cancels the escrow for both of you.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(dialog.getByText('Please give the reason for declining')).toBeVisible();
    await dialog.getByLabel(/Reason/).fill(reason);
    await checkAtBothSizes(sellerPage, 'decline-dialog');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(sellerPage.getByText('You declined the terms.')).toBeVisible();
    await expect(status(sellerPage)).toHaveText('Cancelled');
    await expect(sellerPage.getByRole('button', { name: 'Agree to the terms' })).toHaveCount(0);
  });

  await test.step("the buyer finds it cancelled, with the seller's reason", async () => {
    const buyerPage = await signedIn(person, buyer);
    await buyerPage.goto(`/escrow/${id}`);
    await expect(status(buyerPage)).toHaveText('Cancelled');
    await expect(buyerPage.locator('.escrow-status').getByText('Declined by the seller')).toBeVisible();
    await expect(nextStep(buyerPage)).toContainText('This escrow was cancelled; do not send money to its address.');
    await expect(buyerPage.getByRole('region', { name: 'Agreement and delivery' })).toContainText(`by the seller`);
    await expect(buyerPage.getByRole('region', { name: 'Agreement and delivery' })).toContainText(reason);
    const declined = history(buyerPage).getByRole('listitem').filter({ hasText: 'Terms declined by the seller' });
    await expect(declined).toContainText(`Reason: ${reason}`);
    await expect(tracker(buyerPage).getByRole('listitem').filter({ hasText: 'Cancelled' })).toContainText('(done)');
    await expect(buyerPage.getByRole('button', { name: 'Mark as Paid' })).toHaveCount(0);
    await checkAtBothSizes(buyerPage, 'declined-buyer');
  });
});

test('a seller declines the terms after the buyer paid: a refund is due, and listed for the admins', async ({
  server,
  person,
}) => {
  test.setTimeout(180_000);
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const reason = 'The grinder sold in my shop this morning.';
  const { id } = await call<{ id: string }>(server, '/escrows', {
    token: buyer.token,
    json: {
      product_service: 'Burr grinder',
      description: 'Conical burrs, like new',
      amount_usd: '140',
      seller_email: seller.email,
    },
    expect: 201,
  });
  await call(server, `/escrows/${id}/mark-paid`, { token: buyer.token, form: { notes: 'Sent from my wallet' } });
  await call(server, `/admin/escrows/${id}/verify-payment`, {
    token: await adminToken(server),
    form: { verified: 'true', notes: 'Seen on the chain' },
  });
  const sellerPage = await signedIn(person, seller);

  await test.step('the seller is told that declining a paid escrow asks for a refund, and declines', async () => {
    await sellerPage.goto(`/escrow/${id}`);
    await sellerPage.getByRole('button', { name: 'Decline' }).click();
    const dialog = sellerPage.getByRole('dialog', { name: 'Decline the terms' });
    await expect(dialog).toContainText(
      'The buyer has already paid: declining asks the admins to refund the money to the buyer.',
    );
    await dialog.getByLabel(/Reason/).fill(reason);
    await checkAtBothSizes(sellerPage, 'decline-paid-dialog');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(sellerPage.getByText('You declined the terms.')).toBeVisible();
    await expect(
      sellerPage.locator('.escrow-status').getByText('Declined by the seller: the money goes back to the buyer'),
    ).toBeVisible();
    await expect(nextStep(sellerPage)).toContainText('You declined the terms; an admin will refund the buyer.');
    await expect(sellerPage.getByRole('button', { name: 'Record shipment' })).toHaveCount(0);
  });

  await test.step('the buyer reads the reason and is asked for a refund address', async () => {
    const buyerPage = await signedIn(person, buyer);
    await buyerPage.goto(`/escrow/${id}`);
    await expect(
      buyerPage.locator('.escrow-status').getByText('Declined by the seller: the money goes back to the buyer'),
    ).toBeVisible();
    await expect(tracker(buyerPage).getByRole('listitem').filter({ hasText: 'Declined' })).toContainText('(done)');
    await expect(tracker(buyerPage).locator('[aria-current="step"]')).toContainText('Refunded');
    await expect(nextStep(buyerPage)).toContainText(
      'The seller declined the terms. Set a refund address so an admin can send your payment back.',
    );
    await expect(buyerPage.getByRole('region', { name: 'Agreement and delivery' })).toContainText(reason);
    await expect(nextStep(buyerPage).getByRole('button', { name: 'Set refund address' })).toBeVisible();
    await checkAtBothSizes(buyerPage, 'declined-paid-buyer');
  });

  await test.step('the admins find it listed as a refund to make', async () => {
    const admin = await person(LAPTOP);
    await signInInBrowser(admin, server.admin);
    await admin.goto('/admin?tab=escrows');
    const row = admin.getByRole('row').filter({ has: admin.locator(`a[href="/admin?tab=escrows&escrow=${id}"]`) });
    await expect(row).toContainText('Declined after payment: refund');
    await checkPage(admin, 'the console listing the refund due');
  });
});
