/**
 * Deals in the browser, each person in a browser context of their own; the admin's steps are done in the admin
 * console (`support/escrow-admin.ts`).
 */
import type { Page } from '@playwright/test';
import { freshAddress } from '../../app-server/testing/bitcoin.ts';
import { call, preparePricingAndPool, registerVerified, signInInBrowser, type Person } from '../support/api.ts';
import { adminConsole } from '../support/escrow-admin.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';
import { linkIn, waitForMail } from '../support/mail.ts';

test.beforeAll(async ({ server }) => preparePricingAndPool(server, { rate: '50000', fee: '1.5', addresses: 8 }));

const escrowIdOf = (page: Page) => new URL(page.url()).pathname.split('/').at(-1)!;
const status = (page: Page) => page.locator('.escrow-status .badge');

async function signedIn(
  person: (viewport?: { width: number; height: number }) => Promise<Page>,
  who: Person,
  viewport?: { width: number; height: number },
) {
  const page = await person(viewport);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInInBrowser(page, who);
  return page;
}

/** Fills the create form and submits it; answers the new escrow's page. */
async function createEscrow(
  page: Page,
  fields: { product: string; counterparty: string; counterpartyLabel: string; amount: string; description: string },
) {
  await page.getByRole('button', { name: '+ Create Escrow' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Escrow' });
  await dialog.getByLabel('Product or service').fill(fields.product);
  await dialog.getByLabel(fields.counterpartyLabel).fill(fields.counterparty);
  await dialog.getByLabel('Amount in USD').fill(fields.amount);
  await dialog.getByLabel('Description and terms').fill(fields.description);
  await checkPage(page, 'the create form');
  await dialog.getByRole('button', { name: 'Create Escrow' }).click();
  await page.waitForURL('**/escrow/**');
}

/** Mark as Paid with notes and an evidence file, in the dialog. */
async function markPaid(page: Page, notes: string) {
  await page.getByRole('button', { name: 'Mark as Paid' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark as Paid' });
  await dialog.getByLabel('Notes').fill(notes);
  await dialog.getByLabel(/Proof of payment/).setInputFiles({
    name: 'receipt.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(`Sent from my wallet: ${notes}`),
  });
  await dialog.getByRole('button', { name: 'Mark as Paid' }).click();
  await expect(page.getByText('Payment marked! Awaiting admin verification.')).toBeVisible();
  await expect(page.getByText('Payment marked, being checked by an admin')).toBeVisible();
}

test('a buyer-created deal: create form, payment dialog, mark paid with a file, verified, receipt confirmed, payout address, released', async ({
  server,
  person,
}) => {
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const buyerPage = await signedIn(person, buyer);
  let id = '';

  await test.step('the buyer creates the escrow; the live figures are the ones the server fixes', async () => {
    await buyerPage.getByRole('button', { name: '+ Create Escrow' }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Create Escrow' });
    await dialog.getByLabel('Amount in USD').fill('1000');
    await expect(dialog.getByTestId('live-total')).toHaveText('$1,015.00');
    await expect(dialog.getByTestId('live-btc')).toHaveText('0.02030000 BTC');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await createEscrow(buyerPage, {
      product: 'Mirrorless camera',
      counterparty: seller.email,
      counterpartyLabel: "Seller's e-mail",
      amount: '1000',
      description: 'Body and two batteries, shipped insured.',
    });
    id = escrowIdOf(buyerPage);
  });

  await test.step('the payment dialog opens at once with the QR code, the exact amount and copy buttons', async () => {
    const dialog = buyerPage.getByRole('dialog', { name: 'Payment information' });
    await expect(dialog.getByRole('img', { name: /QR code: pay 0\.02030000 BTC to / })).toBeVisible();
    await expect(dialog.getByText('0.02030000 BTC', { exact: true })).toBeVisible();
    await expect(dialog.getByText('$1,015.00')).toBeVisible();
    await dialog.getByRole('button', { name: 'Copy address' }).click();
    await expect(dialog.getByText('Copied!')).toBeVisible();
    const escrow = await call<{ assigned_address: string }>(server, `/escrows/${id}`, { token: buyer.token });
    expect(await buyerPage.evaluate(() => navigator.clipboard.readText())).toBe(escrow.assigned_address);
    await dialog.getByRole('button', { name: 'Copy amount' }).click();
    await expect.poll(() => buyerPage.evaluate(() => navigator.clipboard.readText())).toBe('0.02030000');
    await checkPage(buyerPage, 'the payment dialog');
    await buyerPage.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  await test.step('the buyer marks the payment as paid with a file', async () => {
    await markPaid(buyerPage, 'txid in my wallet');
    await checkPage(buyerPage, 'the escrow page, payment marked');
  });

  await test.step('an admin verifies the payment and the buyer sees it funded without reloading', async () => {
    await adminConsole(server, person).verifyPayment(id, {
      verified: true,
      notes: 'Seen on chain',
      txid: 'ab'.repeat(32),
    });
    await expect(status(buyerPage)).toHaveText('Funded');
    await expect(buyerPage.getByText('Payment verified: the money is held in escrow')).toBeVisible();
  });

  await test.step('the buyer confirms receipt', async () => {
    await buyerPage.getByRole('button', { name: 'Confirm Receipt' }).click();
    await buyerPage
      .getByRole('dialog', { name: 'Confirm Receipt' })
      .getByRole('button', { name: 'Confirm Receipt' })
      .click();
    await expect(buyerPage.locator('.escrow-status').getByText('Receipt confirmed')).toBeVisible();
  });

  const payout = freshAddress();
  await test.step('the seller opens the escrow from the invitation mail and sets a payout address, checked in the browser', async () => {
    const sellerPage = await signedIn(person, seller, { width: 390, height: 844 });
    const mail = await waitForMail(server.outbox, seller.email, 'invited to an escrow');
    await sellerPage.goto(linkIn(mail, '/escrow/'));
    await expect(sellerPage.getByRole('heading', { level: 1, name: 'Mirrorless camera' })).toBeVisible();
    await sellerPage.getByRole('button', { name: 'Set payout address' }).click();
    const dialog = sellerPage.getByRole('dialog', { name: 'Payout address' });
    await dialog.getByLabel('Your payout address').fill('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
    await dialog.getByRole('button', { name: 'Save address' }).click();
    await expect(dialog.getByText(/testnet or signet address, but this service runs on mainnet/)).toBeVisible();
    await dialog.getByLabel('Your payout address').fill(payout);
    await dialog.getByRole('button', { name: 'Save address' }).click();
    await expect(sellerPage.getByText('Payout address saved.')).toBeVisible();
    await checkPage(sellerPage, "the seller's escrow page on a phone");
    // Down to the narrowest phone the product serves (a file picker in the message form once made it 19 px wider).
    for (const width of [390, 360]) {
      await sellerPage.setViewportSize({ width, height: 844 });
      const overflow = await sellerPage.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `the escrow page at ${width} px scrolls sideways by ${overflow} px`).toBe(0);
    }
  });

  await test.step('an admin releases it and the buyer sees it released without reloading', async () => {
    await adminConsole(server, person).release(id, {
      notes: 'Delivered',
      txid: 'cd'.repeat(32),
      expectedAddress: payout,
    });
    await expect(status(buyerPage)).toHaveText('Released');
    await expect(buyerPage.getByText('The deal is complete: the money went to the seller.')).toBeVisible();
    await checkPage(buyerPage, 'the released escrow');
  });

  await test.step('the dashboard lists it closed', async () => {
    await buyerPage.getByRole('link', { name: '← My Escrows' }).click();
    await buyerPage.getByRole('link', { name: 'Closed' }).click();
    await expect(buyerPage).toHaveURL(/filter=closed/);
    await expect(buyerPage.getByRole('link', { name: /Mirrorless camera/ })).toBeVisible();
    await checkPage(buyerPage, 'the dashboard');
  });
});

test('a seller-created deal: the buyer clicks Agree and pay', async ({ server, person }) => {
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');

  await test.step("the seller creates the escrow with the buyer's e-mail", async () => {
    const sellerPage = await signedIn(person, seller);
    await createEscrow(sellerPage, {
      product: 'Logo design',
      counterparty: buyer.email,
      counterpartyLabel: "Buyer's e-mail",
      amount: '250.50',
      description: 'Three concepts, two rounds of changes.',
    });
    await expect(sellerPage.getByRole('region', { name: 'Next step' })).toContainText(
      /Waiting for the buyer to (agree to the terms|pay)\./,
    );
    await checkPage(sellerPage, "the seller's new escrow");
  });

  await test.step('the buyer sees Payment needed and clicks Agree and pay (Make Payment, agreeing first)', async () => {
    const buyerPage = await signedIn(person, buyer);
    const row = buyerPage.getByRole('link', { name: /Logo design/ });
    await expect(row.getByText('Payment needed')).toBeVisible();
    await buyerPage.getByRole('link', { name: 'Needs my action' }).click();
    await expect(row).toBeVisible();
    await row.click();
    await expect(buyerPage.getByRole('button', { name: 'Make Payment' })).toHaveCount(0);
    await buyerPage.getByRole('button', { name: 'Agree and pay' }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Payment information' });
    await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
    await checkPage(buyerPage, 'the payment dialog after Agree and pay');
    await dialog.getByRole('button', { name: 'I have paid: Mark as Paid' }).click();
    await expect(buyerPage.getByRole('dialog', { name: 'Mark as Paid' })).toBeVisible();
  });
});

test('a rejected payment is marked again', async ({ server, person }) => {
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const escrow = await call<{ id: string }>(server, '/escrows', {
    token: buyer.token,
    json: { product_service: 'Desk lamp', description: 'Brass, working', amount_usd: '80', seller_email: seller.email },
    expect: 201,
  });
  const page = await signedIn(person, buyer);
  await page.goto(`/escrow/${escrow.id}`);

  await test.step('the buyer marks the payment as paid with a file', async () => markPaid(page, 'first try'));

  await test.step('an admin rejects it and the buyer is told to mark it again, without reloading', async () => {
    await adminConsole(server, person).verifyPayment(escrow.id, { verified: false, notes: 'Nothing on chain' });
    await expect(
      page.locator('.escrow-status').getByText('Payment not confirmed: mark it as paid again'),
    ).toBeVisible();
    await checkPage(page, 'the escrow page after a rejection');
  });

  await test.step('the buyer marks it as paid again', async () => markPaid(page, 'second try, full amount'));
});

test('a dispute opened by each side', async ({ server, person }) => {
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const admin = adminConsole(server, person);
  const funded = async (product: string) => {
    const { id } = await call<{ id: string }>(server, '/escrows', {
      token: buyer.token,
      json: { product_service: product, description: 'As described', amount_usd: '120', seller_email: seller.email },
      expect: 201,
    });
    await call(server, `/escrows/${id}/mark-paid`, { token: buyer.token, form: { notes: 'sent' } });
    await admin.verifyPayment(id, { verified: true, notes: 'ok' });
    return id;
  };
  const byBuyer = await funded('Headphones');
  const bySeller = await funded('Keyboard');

  for (const [who, id, reason] of [
    [buyer, byBuyer, 'The headphones never arrived.'],
    [seller, bySeller, 'The buyer received the keyboard but will not confirm.'],
  ] as const) {
    const side = who === buyer ? 'buyer' : 'seller';
    await test.step(`the ${side} opens a dispute, with a reason`, async () => {
      const page = await signedIn(person, who);
      await page.goto(`/escrow/${id}`);
      const opener = page.getByRole('button', { name: 'Open Dispute' });
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Open Dispute' });
      await expect(dialog.locator(':focus'), 'focus moved into the dialog').toHaveCount(1);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(opener, 'focus back on the button that opened the dialog').toBeFocused();
      await opener.click();
      await dialog.getByRole('button', { name: 'Open Dispute' }).click();
      await expect(dialog.getByText('Please give the reason for the dispute')).toBeVisible();
      await dialog.getByLabel(/Reason/).fill(reason);
      await dialog.getByRole('button', { name: 'Open Dispute' }).click();
      await expect(status(page)).toHaveText('Disputed');
      await expect(page.locator('.escrow-status').getByText(`Dispute opened by the ${side}`)).toBeVisible();
      await expect(page.getByText(reason).first()).toBeVisible();
      await expect(page.getByRole('button', { name: 'Open Dispute' })).toHaveCount(0);
      await checkPage(page, `the escrow disputed by the ${side}`);
      expect(await admin.dispute(id)).toMatchObject({ status: 'open', reason });
    });
  }
});
