import { form, json, signedInAdmin, signedInUser, tokenInMail } from './accounts.ts';
import type { TestApp } from './test-app.ts';

/**
 * What every escrow test starts from: an admin who set a BTC rate of $50,000 and put `pool` into the address pool,
 * a buyer `ann` and a seller `sam` whose e-mails are verified (so they may open escrows, and the escrows opened with them are theirs).
 */
export async function openMarket(t: TestApp, pool: readonly string[] = []) {
  const admin = await signedInAdmin(t);
  await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'));
  for (const address of pool) await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token));
  const buyer = await signedInUser(t, 'ann', 'buyer');
  const seller = await signedInUser(t, 'sam', 'seller');
  for (const to of ['sam@example.com', 'ann@example.com']) {
    const mail = await t.database.db.selectFrom('mail_outbox').select('body').where('to_address', '=', to).executeTakeFirstOrThrow();
    await t.app.request('/api/auth/verify-email', json({ token: tokenInMail(mail.body) }));
  }
  return { admin, buyer, seller };
}
