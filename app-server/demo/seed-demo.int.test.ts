import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { replayProjections } from '../replay.ts';
import type { Escrow } from '../../contract/escrows.ts';
import type { Message } from '../../contract/messages.ts';
import { bearer, json } from '../testing/accounts.ts';
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

const signIn = async (username: string) => {
  const res = await t.app.request('/api/auth/login', json({ username, password: report.password }));
  return ((await res.json()) as { access_token: string }).access_token;
};

describe('seed-demo', () => {
  it('makes as many API calls as its progress counts on', () => {
    expect(calls).toBe(DEMO_CALLS);
  });

  it('makes escrows in every status, 30 pool addresses of the configured network, evidence, disputes and reviews', async () => {
    expect(Object.keys(report.escrowsByStatus).sort()).toEqual([
      'cancelled',
      'disputed',
      'frozen',
      'funded',
      'pending_payment',
      'refunded',
      'released',
    ]);
    const addresses = await t.database.db.selectFrom('addresses').select(['address_string', 'status']).execute();
    expect(addresses).toHaveLength(30);
    for (const { address_string } of addresses)
      expect(checkBitcoinAddress(address_string, 'regtest')).toMatchObject({ ok: true });
    expect(new Set(addresses.map((a) => a.status))).toEqual(new Set(['available', 'assigned', 'used']));
    expect((await t.database.db.selectFrom('evidence_files').select('evidence_id').execute()).length).toBeGreaterThan(
      10,
    );
    const disputes = await t.database.db
      .selectFrom('disputes')
      .select(['status', 'resolution', 'seller_percent'])
      .execute();
    expect(disputes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'open' }),
        expect.objectContaining({ status: 'resolved', resolution: 'split', seller_percent: 65 }),
        expect.objectContaining({ status: 'resolved', resolution: 'refund' }),
        expect.objectContaining({ status: 'resolved', resolution: null }),
      ]),
    );
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

  it('leaves each step of a deal standing, as its parties see it', async () => {
    const deal = async (username: string, product: string) => {
      const escrows = (await (await t.app.request('/api/escrows', bearer(await signIn(username)))).json()) as Escrow[];
      const found = escrows.find((e) => e.product_service === product);
      if (!found) throw new Error(`${username} sees no escrow for ${product}`);
      return found;
    };
    const waiting = await deal('alice', 'Vintage Leica M6 camera body');
    expect(waiting).toMatchObject({
      status: 'pending_payment',
      creator_side: 'seller',
      agreed_at: null,
      assigned_address: null,
    });
    expect(waiting.allowed_actions).toEqual(expect.arrayContaining(['agree', 'decline']));

    const agreedAndAsked = await deal('bruno', 'Refurbished iPhone 13, 128 GB, midnight');
    expect(agreedAndAsked).toMatchObject({
      status: 'pending_payment',
      creator_side: 'seller',
      agreed_at: expect.any(String),
      assigned_address: expect.any(String),
    });
    expect(agreedAndAsked.allowed_actions).toContain('mark_paid');

    const declinedUnpaid = await deal('alice', 'Bose QuietComfort 45 headphones');
    expect(declinedUnpaid).toMatchObject({
      status: 'cancelled',
      declined_at: expect.any(String),
      decline_reason: expect.stringContaining('sold them locally'),
      refund_due: false,
    });

    const declinedPaid = await deal('chiara', 'Nintendo Switch OLED with two controllers');
    expect(declinedPaid).toMatchObject({
      status: 'funded',
      declined_at: expect.any(String),
      refund_due: true,
      refund_address: expect.any(String),
    });

    const shipped = await deal('bruno', 'Hand-knotted Persian wool rug, 2 x 3 m');
    expect(shipped).toMatchObject({
      status: 'funded',
      shipped_at: expect.any(String),
      received_at: null,
      shipment: { method: 'shipping', carrier: 'DHL Parcel', tracking: '00340434161094032136' },
    });
    expect(shipped.allowed_actions).toContain('receive');
    const talk = (await (
      await t.app.request(`/api/escrows/${shipped.id}/messages`, bearer(await signIn('elena')))
    ).json()) as Message[];
    expect(talk.map((m) => m.side)).toEqual(['buyer', 'seller', 'buyer']);

    const inspecting = await deal('alice', 'Sony A7 III body with FE 28-70 mm lens');
    expect(inspecting).toMatchObject({
      status: 'funded',
      inspection_days: 5,
      buyer_confirmed_at: null,
      ready_to_release: false,
    });
    expect(Date.parse(inspecting.inspection_ends_at!) - Date.parse(inspecting.received_at!)).toBe(5 * 24 * 3600_000);
    expect(inspecting.allowed_actions).toEqual(expect.arrayContaining(['confirm_receipt', 'open_dispute']));

    const lapsed = await deal('bruno', 'Garmin Fenix 7 Sapphire watch');
    expect(lapsed).toMatchObject({ status: 'funded', inspection_days: 1, buyer_confirmed_at: expect.any(String) });
    expect(lapsed.allowed_actions).not.toContain('confirm_receipt');
    const lapsedHistory = (await (
      await t.app.request(`/api/escrows/${lapsed.id}/history`, bearer(await signIn('bruno')))
    ).json()) as { summary: string; actor_side: string }[];
    expect(lapsedHistory).toContainEqual(
      expect.objectContaining({
        summary: 'Accepted: the inspection period ended with no dispute',
        actor_side: 'system',
      }),
    );

    const ready = await deal('farid', 'Shopify store setup with 40 product pages');
    expect(ready).toMatchObject({
      status: 'funded',
      shipment: { method: 'service' },
      buyer_confirmed_at: expect.any(String),
      payout_address: expect.any(String),
      ready_to_release: true,
    });

    const haggled = await deal('dmitri', 'Rancilio Silvia V6 espresso machine');
    expect(haggled.proposals).toMatchObject([
      { kind: 'refund', status: 'declined', proposed_by: 'buyer' },
      { kind: 'split', status: 'open', proposed_by: 'buyer', seller_percent: 85 },
    ]);
    expect(haggled.proposals[1]!.seller_sats! + haggled.proposals[1]!.buyer_sats!).toBeLessThanOrEqual(
      haggled.amount_sats,
    );
    expect(haggled.allowed_actions).toEqual(expect.arrayContaining(['accept_proposal', 'decline_proposal']));

    const splitAgreed = await deal('bruno', 'Set of four oak bar stools');
    expect(splitAgreed).toMatchObject({
      status: 'funded',
      ready_to_release: true,
      proposals: [{ kind: 'split', status: 'accepted', seller_percent: 75 }],
    });

    const splitExecuted = await deal('chiara', 'Jazz vinyl collection, 120 LPs');
    expect(splitExecuted).toMatchObject({
      status: 'released',
      payout_txid: expect.any(String),
      proposals: [{ kind: 'split', status: 'accepted', proposed_by: 'seller', seller_percent: 90 }],
    });
    expect(splitExecuted.seller_sats).toBe(splitExecuted.proposals[0]!.seller_sats);
    expect(splitExecuted.buyer_sats).toBe(splitExecuted.proposals[0]!.buyer_sats);
  });

  it('prints sign-ins that work for every role, with verified e-mail addresses', async () => {
    expect(report.accounts.map((a) => a.role).sort()).toEqual([
      'admin',
      'buyer',
      'buyer',
      'buyer',
      'seller',
      'seller',
      'seller',
    ]);
    for (const account of report.accounts) {
      const res = await t.app.request(
        '/api/auth/login',
        json({ username: account.username, password: report.password }),
      );
      expect(res.status, account.username).toBe(200);
      expect(((await res.json()) as { user: { email_verified: boolean; role: string } }).user).toMatchObject({
        email_verified: true,
        role: account.role,
      });
    }
  });

  it('delivers no mail to the made-up people, and refuses a store that is not empty', async () => {
    expect(await t.database.db.selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).execute()).toEqual(
      [],
    );
    await expect(seedDemo(t.deps)).rejects.toBeInstanceOf(StoreNotEmpty);
  });
});
