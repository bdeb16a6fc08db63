/**
 * An admin verifies a payment by a proof from their own node (SPV): pastes the raw transaction, gettxoutproof's
 * output and the following headers, sees what they prove before confirming, and the escrow then says "Proven on the
 * chain" in the console and on its page. The suite's server runs with MIN_WORK_BITS at regtest's difficulty, so a
 * chain mined here in milliseconds passes.
 */
import { makeTransaction, regtestProof } from '../../domain/bitcoin/spv-fixtures.ts';
import { call, preparePricingAndPool, signInInBrowser } from '../support/api.ts';
import { markPaid, openDeal, shoot } from '../support/admin-data.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

test.beforeAll(async ({ server }) => {
  await preparePricingAndPool(server, { addresses: 4 });
});

test('verify a payment by a proof: see what it proves, confirm, and the escrow says it was proven on the chain', async ({
  server,
  person,
}) => {
  const product = `Proof ${Date.now()}`;
  const deal = await openDeal(server, product);
  await markPaid(server, deal, 'Paid from my node');
  const escrow = await call<{ assigned_address: string; amount_sats: number }>(server, `/escrows/${deal.id}`, {
    token: deal.buyer.token,
  });
  const short = regtestProof(
    makeTransaction([{ address: escrow.assigned_address, sats: escrow.amount_sats - 1000 }], 'mainnet'),
    { following: 2 },
  );
  const proof = regtestProof(
    makeTransaction([{ address: escrow.assigned_address, sats: escrow.amount_sats + 2500 }], 'mainnet', 2),
    { following: 2 },
  );

  for (const width of [1366, 390]) {
    const page = await person({ width, height: 900 });
    await signInInBrowser(page, server.admin);
    await page.goto('/admin?tab=verifications');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: product }) });
    await card.getByRole('button', { name: 'Verify' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify this payment?' });
    // A short payment: refused, saying how much arrived.
    await dialog.getByLabel('Raw transaction (tx_hex)').fill(short.tx_hex);
    await dialog.getByLabel('Transaction proof (txout_proof)').fill(short.txout_proof);
    await dialog.getByLabel(/Following block headers/).fill(short.headers);
    await dialog.getByRole('button', { name: 'Check proof' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      `only ${escrow.amount_sats - 1000} of the ${escrow.amount_sats} satoshis arrived`,
    );
    await checkPage(page, `verify dialog, proof refused, ${width}`);
    await shoot(page, 'verify-proof-refused');
    // The real one: what it proves, before confirming.
    await dialog.getByLabel('Raw transaction (tx_hex)').fill(proof.tx_hex);
    await dialog.getByLabel('Transaction proof (txout_proof)').fill(proof.txout_proof);
    await dialog.getByLabel(/Following block headers/).fill(proof.headers);
    await dialog.getByRole('button', { name: 'Check proof' }).click();
    await expect(dialog.getByText(/Proven on the chain: 3 confirmations, block/)).toBeVisible();
    await expect(dialog.getByText(/overpaid by 0.00002500 BTC/)).toBeVisible();
    await checkPage(page, `verify dialog, proof checked, ${width}`);
    await shoot(page, 'verify-proof-checked');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    if (width !== 390) {
      await page.keyboard.press('Escape');
      continue;
    }
    await dialog.getByRole('button', { name: 'Verify payment' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Payment proven and verified: the escrow is funded' }),
    ).toBeVisible();
    await page.goto(`/admin?tab=escrows&escrow=${deal.id}`);
    await expect(page.getByText(/Proven on the chain: 3 confirmations, block [0-9a-f]{64}/)).toBeVisible();
    await checkPage(page, 'console escrow with a proven payment');
    await shoot(page, 'console-escrow-proven');
  }

  const buyerPage = await person();
  await signInInBrowser(buyerPage, deal.buyer);
  await buyerPage.goto(`/escrow/${deal.id}`);
  await expect(buyerPage.getByText(/Proven on the chain: 3 confirmations, block [0-9a-f]{64}/)).toBeVisible();
  await checkPage(buyerPage, 'escrow page with a proven payment');
  await shoot(buyerPage, 'escrow-page-proven');
});
