import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { replayProjections } from '../replay.ts';
import { json } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { DEMO_CALLS, type DemoReport, seedDemo, StoreNotEmpty } from './seed-demo.ts';

let t: TestApp;
let report: DemoReport;
let calls = 0;
beforeAll(async () => {
  // The production default: seed-demo must work where admin powers need a fresh code.
  t = await openTestApp({ BITCOIN_NETWORK: 'regtest', ADMIN_2FA_REQUIRED: 'true' });
  report = await seedDemo(t.deps, { onCall: (n) => (calls = n) });
}, 120_000);
afterAll(async () => t.close());

describe('seed-demo', () => {
  it('makes as many API calls as its progress counts on', () => {
    expect(calls).toBe(DEMO_CALLS);
  });

  it('makes escrows in every status, 20 pool addresses of the configured network, evidence, disputes and reviews', async () => {
    expect(Object.keys(report.escrowsByStatus).sort()).toEqual(['cancelled', 'disputed', 'frozen', 'funded', 'pending_payment', 'refunded', 'released']);
    const addresses = await t.database.db.selectFrom('addresses').select(['address_string', 'status']).execute();
    expect(addresses).toHaveLength(20);
    for (const { address_string } of addresses) expect(checkBitcoinAddress(address_string, 'regtest')).toMatchObject({ ok: true });
    expect(new Set(addresses.map((a) => a.status))).toEqual(new Set(['available', 'assigned', 'used']));
    expect((await t.database.db.selectFrom('evidence_files').select('evidence_id').execute()).length).toBeGreaterThan(10);
    const disputes = await t.database.db.selectFrom('disputes').select(['status', 'resolution', 'seller_percent']).execute();
    expect(disputes).toEqual(expect.arrayContaining([
      expect.objectContaining({ status: 'open' }),
      expect.objectContaining({ status: 'resolved', resolution: 'split', seller_percent: 65 }),
      expect.objectContaining({ status: 'resolved', resolution: 'refund' }),
      expect.objectContaining({ status: 'resolved', resolution: null }),
    ]));
    expect(Object.keys(report.reviews).sort()).toEqual(['approved', 'edited_by_admin', 'pending', 'rejected']);
    const rate = await t.app.request('/api/btc-rate');
    expect(rate.status).toBe(200);
  });

  it('made every record through the log: rebuilding the read models from it changes nothing', async () => {
    const replay = await replayProjections(t.database);
    expect(replay.match).toBe(true);
    const actors = await t.database.db.selectFrom('events').select('metadata').execute();
    expect(actors.length).toBe(report.events);
  });

  it('prints sign-ins that work for every role, with verified e-mail addresses', async () => {
    expect(report.accounts.map((a) => a.role).sort()).toEqual(['admin', 'buyer', 'buyer', 'buyer', 'seller', 'seller', 'seller']);
    for (const account of report.accounts) {
      const res = await t.app.request('/api/auth/login', json({ username: account.username, password: report.password }));
      expect(res.status, account.username).toBe(200);
      expect(((await res.json()) as { user: { email_verified: boolean; role: string } }).user).toMatchObject({ email_verified: true, role: account.role });
    }
  });

  it('delivers no mail to the made-up people, and refuses a store that is not empty', async () => {
    expect(await t.database.db.selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).execute()).toEqual([]);
    await expect(seedDemo(t.deps)).rejects.toBeInstanceOf(StoreNotEmpty);
  });
});
