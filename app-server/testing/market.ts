import { form, json, signedInAdmin, signedInUser, tokenInMail } from './accounts.ts';
import { freshAddress } from './bitcoin.ts';
import type { TestApp } from './test-app.ts';

/**
 * What every escrow test starts from: an admin who set a BTC rate of $50,000 and put `pool` into the address pool,
 * a buyer `ann` and a seller `sam` whose e-mails are verified (so they may open escrows, and the escrows opened with them are theirs).
 */
export async function openMarket(t: TestApp, pool: readonly string[] = []) {
  const admin = await signedInAdmin(t);
  await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'));
  for (const address of pool)
    await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token));
  const buyer = await signedInUser(t, 'ann', 'buyer');
  const seller = await signedInUser(t, 'sam', 'seller');
  for (const to of ['sam@example.com', 'ann@example.com']) {
    const mail = await t.database.db
      .selectFrom('mail_outbox')
      .select('body')
      .where('to_address', '=', to)
      .executeTakeFirstOrThrow();
    await t.app.request('/api/auth/verify-email', json({ token: tokenInMail(mail.body) }));
  }
  return { admin, buyer, seller };
}

/**
 * A funded escrow on a fresh market: `ann` opened it with `sam`, marked it paid and an admin verified it; then the
 * seller's payout address and the buyer's refund address are set when given. Each step must succeed.
 */
export async function openFundedDeal(t: TestApp, options: { payout?: string; refund?: string } = {}) {
  const market = await openMarket(t, [freshAddress()]);
  const { admin, buyer, seller } = market;
  const step = async (what: string, answer: Response | Promise<Response>, status = 200) => {
    const res = await answer;
    if (res.status !== status) throw new Error(`funded deal: ${what} answered ${res.status} ${await res.text()}`);
    return res;
  };
  const created = await step(
    'create',
    t.app.request(
      '/api/escrows',
      json(
        {
          product_service: 'Camera',
          description: 'Mirrorless',
          amount_usd: '1000.00',
          seller_email: 'sam@example.com',
        },
        buyer.token,
      ),
    ),
    201,
  );
  const { id } = (await created.json()) as { id: string };
  await step('mark-paid', t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token)));
  await step(
    'verify-payment',
    t.app.request(`/api/admin/escrows/${id}/verify-payment`, form({ verified: 'true' }, admin.token)),
  );
  if (options.payout)
    await step(
      'payout address',
      t.app.request(`/api/escrows/${id}/payout-address`, json({ address: options.payout }, seller.token)),
    );
  if (options.refund)
    await step(
      'refund address',
      t.app.request(`/api/escrows/${id}/payout-address`, json({ address: options.refund }, buyer.token)),
    );
  return { ...market, id };
}
