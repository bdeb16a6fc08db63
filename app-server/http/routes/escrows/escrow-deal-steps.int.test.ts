import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, json } from '../../../testing/accounts.ts';
import { openFundedDeal } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ PUBLIC_URL: 'https://escrow.example' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const REFUND = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
type Escrow = {
  id: string;
  status: string;
  agreed_at: string | null;
  shipped_at: string | null;
  received_at: string | null;
  refund_due: boolean;
  allowed_actions: string[];
};

const step = async (id: string, path: string, token: string, body?: unknown) => {
  const res = await t.app.request(
    `/api/escrows/${id}/${path}`,
    body === undefined ? bearer(token, 'POST') : json(body, token),
  );
  const answer = (await res.json()) as Escrow & { detail?: string };
  return { status: res.status, detail: answer.detail, escrow: answer };
};
const eventCount = async (id: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('stream_id', 'like', `%${id}`)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('The deal steps over HTTP (agree, decline, ship, receive)', () => {
  it('refuses each step out of turn with 409 and a detail, writing nothing, and takes it in turn', async () => {
    const { buyer, seller, id } = await openFundedDeal(t);
    const before = await eventCount(id);
    expect(before).toBeGreaterThan(2);
    const refusals = [
      await step(id, 'ship', seller.token, { method: 'digital' }),
      await step(id, 'receive', buyer.token),
      await step(id, 'agree', buyer.token),
    ];
    expect(refusals.map((r) => [r.status, r.detail])).toMatchInlineSnapshot(`
      [
        [
          409,
          "Agree to the terms before recording a shipment",
        ],
        [
          409,
          "The seller has not recorded a shipment yet",
        ],
        [
          403,
          "Only the counterparty can agree to the terms of this escrow; its creator agreed by creating it",
        ],
      ]
    `);
    expect(await eventCount(id)).toBe(before);

    expect((await step(id, 'agree', seller.token)).escrow.agreed_at).not.toBeNull();
    const again = await step(id, 'agree', seller.token);
    const lateDecline = await step(id, 'decline', seller.token, { reason: 'Changed my mind' });
    expect([again.status, again.detail, lateDecline.status, lateDecline.detail]).toMatchInlineSnapshot(`
      [
        409,
        "You already agreed to the terms of this escrow",
        409,
        "You already agreed to the terms of this escrow",
      ]
    `);

    const badShipments = [
      await step(id, 'ship', seller.token, { method: 'pigeon' }),
      await step(id, 'ship', seller.token, { method: 'shipping', carrier: 'x'.repeat(61) }),
      await step(id, 'ship', seller.token, { method: 'shipping', carrier: 'DHL', tracking: '1'.repeat(101) }),
    ];
    expect(badShipments.map((r) => [r.status, r.detail])).toMatchInlineSnapshot(`
      [
        [
          422,
          "method must be one of shipping, digital, service",
        ],
        [
          422,
          "carrier must be at most 60 characters",
        ],
        [
          422,
          "tracking must be at most 100 characters",
        ],
      ]
    `);

    const shipped = await step(id, 'ship', seller.token, { method: 'service', note: 'Done on site' });
    expect([shipped.status, shipped.escrow.allowed_actions]).toMatchInlineSnapshot(`
      [
        200,
        [
          "set_payout_address",
          "open_dispute",
          "propose",
          "post_message",
        ],
      ]
    `);
    const twice = await step(id, 'ship', seller.token, { method: 'digital' });
    expect([twice.status, twice.detail]).toMatchInlineSnapshot(`
      [
        409,
        "The shipment is already recorded",
      ]
    `);
    const received = await step(id, 'receive', buyer.token);
    expect(received.escrow.received_at).not.toBeNull();
    const receivedTwice = await step(id, 'receive', buyer.token);
    expect([receivedTwice.status, receivedTwice.detail]).toMatchInlineSnapshot(`
      [
        409,
        "The goods are already marked as received",
      ]
    `);
  });

  it('makes a paid escrow the seller declines a refund the admins owe: queued for them and mailed to them and both parties', async () => {
    const { admin, seller, id } = await openFundedDeal(t, { refund: REFUND });
    const declined = await step(id, 'decline', seller.token, { reason: 'Out of stock' });
    expect([declined.status, declined.escrow.status, declined.escrow.refund_due]).toEqual([200, 'funded', true]);
    const queue = (await (await t.app.request('/api/admin/escrows?refund_due=true', bearer(admin.token))).json()) as {
      refund_due_count: number;
      escrows: Escrow[];
    };
    expect([queue.refund_due_count, queue.escrows.map((e) => e.id)]).toEqual([1, [id]]);
    const mails = await t.database.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'body'])
      .where('subject', 'like', 'Terms declined%')
      .orderBy('to_address')
      .execute();
    expect(mails.map((m) => m.to_address)).toEqual(['ann@example.com', 'root@example.com', 'sam@example.com']);
    for (const mail of mails) expect(mail.body).toContain('Out of stock');
    expect(mails.find((m) => m.to_address === 'root@example.com')!.body).toContain(
      `https://escrow.example/admin?tab=escrows`,
    );
  });
});
