/**
 * Settling a deal by agreement (contract 7.5) in the browser: the seller proposes a split of a funded deal, the buyer
 * accepts it with one click, an admin pays it out as agreed from the console, and both parties see it settled as a
 * split with their satoshis. Then extensions: one declined, one withdrawn by the party who made it. The propose
 * dialog, the proposals (open and answered) and the admin's settle dialog are checked (axe, no sideways scroll) and
 * photographed at 1366x768 and 390x844.
 */
import type { Page } from '@playwright/test';
import { call, preparePricingAndPool, signInInBrowser, type Person } from '../support/api.ts';
import { fundedDeal, openDispute } from '../support/admin-data.ts';
import { checkAtBothSizes, LAPTOP } from '../support/both-sizes.ts';
import { expect, test } from '../support/fixtures.ts';

test.beforeAll(async ({ server }) => preparePricingAndPool(server, { rate: '50000', fee: '1.5', addresses: 4 }));

/**
 * The deals are 500.00 USD at 50,000 USD/BTC with a 1.5 % fee: 1,015,000 sats held, 15,000 of them the fee. A 60 %
 * split of the 1,000,000 left gives the seller 600,000 sats (300.00 USD) and the buyer 400,000 (200.00 USD).
 */
const SPLIT = { seller: '0.00600000 BTC', buyer: '0.00400000 BTC', sellerUsd: '$300.00', buyerUsd: '$200.00' };
const status = (page: Page) => page.locator('.escrow-status .badge');
const nextStep = (page: Page) => page.getByRole('region', { name: 'Next step' });
const proposals = (page: Page) => page.getByRole('region', { name: 'Proposals' });
const money = (page: Page) => page.getByRole('region', { name: 'Money' });
const shot = (page: Page, name: string) => checkAtBothSizes(page, `deal-settlement-${name}`);

async function signedIn(
  person: (viewport?: { width: number; height: number }) => Promise<Page>,
  who: Person,
  escrowId: string,
): Promise<Page> {
  const page = await person(LAPTOP);
  await signInInBrowser(page, who);
  await page.goto(`/escrow/${escrowId}`);
  return page;
}

/** Opens the propose dialog on `page` and picks the kind of proposal. */
async function openProposeDialog(page: Page, kind: string) {
  await page.getByRole('button', { name: 'Propose a settlement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose a settlement' });
  await dialog.getByLabel('What do you propose?').selectOption({ label: kind });
  return dialog;
}

test('a split both parties agree to, paid out by an admin as agreed', async ({ server, person }) => {
  test.setTimeout(240_000); // three people in three browser contexts
  const deal = await fundedDeal(server, `Split ${Date.now()}`);
  await call(server, `/escrows/${deal.id}/agree`, { token: deal.seller.token, method: 'POST' });
  const sellerPage = await signedIn(person, deal.seller, deal.id);

  await test.step('the seller proposes 60 % to the seller, seeing both shares in BTC and USD before sending', async () => {
    const dialog = await openProposeDialog(sellerPage, 'Split the money');
    const percent = dialog.getByLabel("Seller's share (%)");
    await percent.fill('100');
    await dialog.getByRole('button', { name: 'Send proposal' }).click();
    await expect(dialog.getByText("The seller's share must be a whole percent from 1 to 99")).toBeVisible();
    await percent.fill('60');
    const shares = dialog.locator('.proposal-shares');
    await expect(shares).toContainText(
      `The seller gets ${SPLIT.seller} (${SPLIT.sellerUsd}), the buyer gets back ${SPLIT.buyer} (${SPLIT.buyerUsd}).`,
    );
    await dialog.getByLabel('Note').fill('Two of the five lenses were scratched; 60 % seems fair to me.');
    await shot(sellerPage, 'propose-split-dialog');
    await dialog.getByRole('button', { name: 'Send proposal' }).click();
    await expect(sellerPage.getByText('Proposal sent. The other party has been told.')).toBeVisible();
    const open = proposals(sellerPage).getByRole('listitem');
    await expect(open).toContainText('Split the money, proposed by you: waiting for an answer');
    await expect(open).toContainText(
      `60% to the seller: ${SPLIT.seller} (${SPLIT.sellerUsd}); 40% back to the buyer: ${SPLIT.buyer} (${SPLIT.buyerUsd})`,
    );
    await expect(open.getByRole('button', { name: 'Withdraw' })).toBeVisible();
    await expect(open.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  });

  const buyerPage = await signedIn(person, deal.buyer, deal.id);
  await test.step('the buyer sees the proposal with its note, and accepts it with one click', async () => {
    await expect(nextStep(buyerPage)).toContainText(
      'The other party proposes a settlement: accept or decline it under Proposals.',
    );
    const open = proposals(buyerPage).getByRole('listitem');
    await expect(open).toContainText('Split the money, proposed by the seller: waiting for an answer');
    await expect(open).toContainText(`40% back to the buyer: ${SPLIT.buyer} (${SPLIT.buyerUsd})`);
    await expect(open).toContainText('Two of the five lenses were scratched');
    await shot(buyerPage, 'proposal-open');
    await open.getByRole('button', { name: 'Accept' }).click();
    await expect(buyerPage.getByText('Proposal accepted.')).toBeVisible();
    await expect(open).toContainText('Split the money, proposed by the seller: accepted');
    await expect(open.getByRole('button')).toHaveCount(0);
    await expect(buyerPage.getByRole('button', { name: 'Propose a settlement' })).toHaveCount(0);
    await expect(nextStep(buyerPage)).toContainText(
      'You both agreed to a split, 60% to the seller; an admin will send each share to its address.',
    );
    await expect(buyerPage.getByRole('button', { name: 'Confirm Receipt' })).toHaveCount(0);
    await shot(buyerPage, 'proposal-accepted');
    await sellerPage.reload();
    await expect(nextStep(sellerPage)).toContainText('You both agreed to a split, 60% to the seller');
    await expect(sellerPage.getByRole('button', { name: 'Record shipment' })).toHaveCount(0);
  });

  await test.step('the console lists it as a payout to make; the admin pays it out as agreed', async () => {
    const admin = await person(LAPTOP);
    await signInInBrowser(admin, server.admin);
    await admin.goto('/admin?tab=escrows');
    const row = admin.getByRole('row').filter({ has: admin.locator(`a[href="/admin?tab=escrows&escrow=${deal.id}"]`) });
    // The list is shown before the filter is used: a click while the console still loads could be lost.
    await expect(row).toContainText('Agreed by both: pay out');
    await admin.getByLabel('Ready to release only').check();
    await expect(admin).toHaveURL(/ready=true/);
    await admin.reload(); // the filtered list itself, not the one shown before the filter
    await expect(admin.getByLabel('Ready to release only')).toBeChecked();
    await expect(row).toContainText('Agreed by both: pay out');
    await row.getByRole('link').first().click();
    await expect(
      admin.getByText('Both parties agreed to a split, 60% to the seller: pay it out as agreed, no dispute needed.'),
    ).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Release' })).toHaveCount(0);
    await admin.getByRole('button', { name: 'Pay out as agreed' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Pay out the agreed split?' });
    const fact = (term: string) => dialog.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    await expect(fact('Seller gets')).toContainText(`${SPLIT.seller} to ${deal.payoutAddress}`);
    await expect(fact('Buyer gets')).toContainText(`${SPLIT.buyer} to ${deal.refundAddress}`);
    await expect(fact('Held in escrow')).toHaveText('0.01015000 BTC');
    await dialog.getByLabel('Transaction id (optional)').fill('5a'.repeat(32));
    await shot(admin, 'settle-dialog');
    await dialog.getByRole('button', { name: 'Pay out as agreed' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Settlement paid out' })).toBeVisible();
    await expect(admin.locator('.escrow-detail .badge').first()).toHaveText('Split');
    await expect(admin.getByRole('button', { name: 'Pay out as agreed' })).toHaveCount(0);
  });

  await test.step('both parties see the escrow settled as a split, with the satoshis each received', async () => {
    for (const page of [sellerPage, buyerPage]) {
      await page.reload();
      await expect(status(page)).toHaveText('Split');
      await expect(nextStep(page)).toContainText('The money was split; each share went to its address.');
      await expect(money(page)).toContainText('60% to the seller, 40% to the buyer');
      await expect(
        money(page).locator('dt', { hasText: 'Paid to the seller' }).locator('xpath=following-sibling::dd[1]'),
      ).toHaveText(SPLIT.seller);
      await expect(
        money(page).locator('dt', { hasText: 'Paid back to the buyer' }).locator('xpath=following-sibling::dd[1]'),
      ).toHaveText(SPLIT.buyer);
      await expect(proposals(page).getByRole('listitem')).toContainText(': accepted');
    }
    await shot(sellerPage, 'split-settled');
  });
});

test('an inspection extension the seller declines, then one the buyer withdraws', async ({ server, person }) => {
  test.setTimeout(180_000);
  const deal = await fundedDeal(server, `Extension ${Date.now()}`);
  await call(server, `/escrows/${deal.id}/agree`, { token: deal.seller.token, method: 'POST' });
  await call(server, `/escrows/${deal.id}/ship`, {
    token: deal.seller.token,
    json: { method: 'shipping', carrier: 'DHL Express', tracking: 'JD0146000062' },
  });
  await call(server, `/escrows/${deal.id}/receive`, { token: deal.buyer.token, method: 'POST' });
  const buyerPage = await signedIn(person, deal.buyer, deal.id);

  await test.step('the buyer, inspecting, proposes three more days of inspection', async () => {
    await expect(buyerPage.locator('.escrow-status').getByText('Received; being inspected')).toBeVisible();
    const dialog = await openProposeDialog(buyerPage, 'Extend the inspection period');
    await expect(dialog.locator('.proposal-shares')).toHaveCount(0);
    const days = dialog.getByLabel('By how many days?');
    await days.fill('31');
    await dialog.getByRole('button', { name: 'Send proposal' }).click();
    await expect(dialog.getByText('The days must be a whole number from 1 to 30')).toBeVisible();
    await days.fill('3');
    await shot(buyerPage, 'propose-extension-dialog');
    await dialog.getByRole('button', { name: 'Send proposal' }).click();
    await expect(buyerPage.getByText('Proposal sent. The other party has been told.')).toBeVisible();
    await expect(proposals(buyerPage).getByRole('listitem')).toContainText(
      'Extend the inspection period, proposed by you: waiting for an answer',
    );
  });

  await test.step('the seller declines it; the buyer sees it declined', async () => {
    const sellerPage = await signedIn(person, deal.seller, deal.id);
    const open = proposals(sellerPage).getByRole('listitem');
    await expect(open).toContainText('3 more days');
    await open.getByRole('button', { name: 'Decline' }).click();
    await expect(sellerPage.getByText('Proposal declined.')).toBeVisible();
    await expect(open).toContainText('Extend the inspection period, proposed by the buyer: declined');
    await expect(open.getByRole('button')).toHaveCount(0);
    await buyerPage.reload();
    await expect(proposals(buyerPage).getByRole('listitem')).toContainText('proposed by you: declined');
    await shot(buyerPage, 'proposal-declined');
  });

  await test.step('the buyer proposes again and withdraws it; nothing is left open', async () => {
    const dialog = await openProposeDialog(buyerPage, 'Extend the inspection period');
    await dialog.getByLabel('By how many days?').fill('1');
    await dialog.getByRole('button', { name: 'Send proposal' }).click();
    await expect(buyerPage.getByText('Proposal sent. The other party has been told.')).toBeVisible();
    const items = proposals(buyerPage).getByRole('listitem');
    await expect(items).toHaveCount(2);
    // Newest first.
    await expect(items.first()).toContainText('1 more day');
    await items.first().getByRole('button', { name: 'Withdraw' }).click();
    await expect(buyerPage.getByText('Proposal withdrawn.')).toBeVisible();
    await expect(items.first()).toContainText('Extend the inspection period, proposed by you: withdrawn');
    await expect(items.nth(1)).toContainText('proposed by you: declined');
    await expect(proposals(buyerPage).getByRole('button')).toHaveCount(0);
    await expect(buyerPage.getByRole('button', { name: 'Propose a settlement' })).toBeVisible();
  });
});

test('a split agreed during a dispute: the admin resolves it as agreed, with no outcome to write', async ({
  server,
  person,
}) => {
  test.setTimeout(180_000);
  const deal = await fundedDeal(server, `Disputed split ${Date.now()}`);
  await openDispute(server, deal, 'Two of the five lenses arrived scratched');
  const { proposals: made } = await call<{ proposals: { id: string }[] }>(server, `/escrows/${deal.id}/proposals`, {
    token: deal.seller.token,
    json: { kind: 'split', seller_percent: 60 },
  });
  await call(server, `/escrows/${deal.id}/proposals/${made.at(-1)!.id}/accept`, {
    token: deal.buyer.token,
    method: 'POST',
  });

  await test.step('the disputes tab says they agreed; the dialog asks for no outcome and offers no other resolution', async () => {
    const admin = await person(LAPTOP);
    await signInInBrowser(admin, server.admin);
    await admin.goto('/admin?tab=disputes');
    const card = admin.getByRole('listitem').filter({ hasText: 'Two of the five lenses arrived scratched' });
    await expect(card).toContainText('A split, 60% to the seller: resolve to pay it out as agreed');
    await card.getByRole('button', { name: 'Resolve' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Resolve this dispute' });
    await expect(dialog).toContainText('Both parties agreed to a split, 60% to the seller.');
    await expect(dialog.getByLabel('Resolution')).toHaveCount(0);
    const fact = (term: string) => dialog.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    await expect(fact('Seller gets').locator('strong')).toHaveText(SPLIT.seller);
    await expect(fact('Buyer gets').locator('strong')).toHaveText(SPLIT.buyer);
    await shot(admin, 'resolve-agreed-dialog');
    await dialog.getByRole('button', { name: 'Pay out as agreed' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Dispute resolved' })).toBeVisible();
    await expect(card).toContainText('seller 60%');
  });

  await test.step('the buyer finds the escrow settled as the split they agreed', async () => {
    const buyerPage = await signedIn(person, deal.buyer, deal.id);
    await expect(status(buyerPage)).toHaveText('Split');
    await expect(
      money(buyerPage).locator('dt', { hasText: 'Paid back to the buyer' }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText(SPLIT.buyer);
  });
});
