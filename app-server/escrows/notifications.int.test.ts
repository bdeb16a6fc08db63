import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { form, json, signedInUser, tokenInMail } from '../testing/accounts.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { escrowRef } from '../mail/user-words.ts';

const BASE = 'https://escrow.example';
const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ PUBLIC_URL: BASE });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

interface Mail {
  to: string;
  subject: string;
  body: string;
}
const allMail = async (): Promise<Mail[]> =>
  (await t.database.db.selectFrom('mail_outbox').select(['to_address', 'subject', 'body']).orderBy('id').execute()).map(
    (m) => ({ to: m.to_address, subject: m.subject, body: m.body }),
  );
const mailAbout = async (subjectStart: string) => (await allMail()).filter((m) => m.subject.startsWith(subjectStart));
const ok = async (res: Response | Promise<Response>) => {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBeLessThan(300);
  return answer;
};

/** ann (buyer) opens a $2,000.00 deal with sam (seller) at $50,000/BTC and 1.5%: $2,030.00 = 0.04060000 BTC. */
async function openDeal() {
  const people = await openMarket(t, [ADDRESS]);
  const res = await ok(
    t.app.request(
      '/api/escrows',
      json(
        {
          product_service: 'Camera',
          description: 'Mirrorless body',
          amount_usd: '2000.00',
          deadline_days: 7,
          seller_email: 'sam@example.com',
        },
        people.buyer.token,
      ),
    ),
  );
  const { id } = (await res.json()) as { id: string };
  return { ...people, id };
}
async function fund(deal: Awaited<ReturnType<typeof openDeal>>) {
  await ok(t.app.request(`/api/escrows/${deal.id}/mark-paid`, form({ notes: 'sent' }, deal.buyer.token)));
  await ok(
    t.app.request(
      `/api/admin/escrows/${deal.id}/verify-payment`,
      form({ verified: 'true', notes: 'seen on chain' }, deal.admin.token),
    ),
  );
}

describe('Mail about an escrow', () => {
  it('invites the other party with the amounts as the web app shows them, the deadline in readable UTC, and a link to the escrow', async () => {
    const { id } = await openDeal();
    const invitation = (await allMail()).find((m) => m.to === 'sam@example.com' && m.body.includes('Payment due by'));
    expect(invitation).toBeDefined();
    expect(invitation!.body).toContain('Amount: $2,000.00 + $30.00 fee = $2,030.00 (0.04060000 BTC)');
    expect(invitation!.body).toMatch(/Payment due by: \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/);
    expect(invitation!.body).toContain(`${BASE}/escrow/${id}`);
    expect(invitation!.body).not.toMatch(ISO_TIME);
  });

  it("sends admins to the console's place for each thing to do, and parties to the escrow's page", async () => {
    const deal = await openDeal();
    await ok(t.app.request(`/api/escrows/${deal.id}/mark-paid`, form({ notes: 'sent' }, deal.buyer.token)));
    const [marked] = await mailAbout('Payment marked');
    expect(marked!.to).toBe('root@example.com');
    expect(marked!.body).toContain(`Open it in the admin console: ${BASE}/admin?tab=verifications`);
    expect(marked!.body).toContain('Amount: $2,030.00 = 0.04060000 BTC');

    await ok(
      t.app.request(
        `/api/admin/escrows/${deal.id}/verify-payment`,
        form({ verified: 'true', notes: 'seen' }, deal.admin.token),
      ),
    );
    const funded = await mailAbout('Escrow funded');
    expect(funded.map((m) => m.to).sort()).toEqual(['ann@example.com', 'sam@example.com']);
    for (const mail of funded) expect(mail.body).toContain(`Open it: ${BASE}/escrow/${deal.id}`);
  });

  it('mails the other party and the admins when a dispute opens, not the party who opened it', async () => {
    const deal = await openDeal();
    await fund(deal);
    await ok(
      t.app.request(
        `/api/escrows/${deal.id}/open-dispute`,
        json({ reason: 'The camera never arrived' }, deal.buyer.token),
      ),
    );
    const disputes = await mailAbout('Dispute opened');
    expect(disputes.map((m) => m.to).sort()).toEqual(['root@example.com', 'sam@example.com']);
    const toSeller = disputes.find((m) => m.to === 'sam@example.com')!;
    expect(toSeller.body).toContain('The buyer opened a dispute');
    expect(toSeller.body).toContain(`${BASE}/escrow/${deal.id}`);
    const toAdmin = disputes.find((m) => m.to === 'root@example.com')!;
    expect(toAdmin.body).toContain(`${BASE}/admin?tab=disputes`);
  });

  it('tells a buyer when the seller opened the dispute', async () => {
    const deal = await openDeal();
    await fund(deal);
    await ok(
      t.app.request(
        `/api/escrows/${deal.id}/open-dispute`,
        json({ reason: 'Buyer stopped answering' }, deal.seller.token),
      ),
    );
    const toParties = (await mailAbout('Dispute opened')).filter((m) => m.to !== 'root@example.com');
    expect(toParties.map((m) => m.to)).toEqual(['ann@example.com']);
    expect(toParties[0]!.body).toContain('The seller opened a dispute');
  });

  it("mails both parties when an escrow is frozen and unfrozen, without the admin's reason", async () => {
    const deal = await openDeal();
    await fund(deal);
    await ok(
      t.app.request(
        `/api/admin/escrows/${deal.id}/freeze`,
        form({ reason: 'internal: checking the seller' }, deal.admin.token),
      ),
    );
    await ok(
      t.app.request(`/api/admin/escrows/${deal.id}/unfreeze`, form({ reason: 'internal: cleared' }, deal.admin.token)),
    );
    for (const subject of ['Escrow frozen', 'Escrow unfrozen']) {
      const mails = await mailAbout(subject);
      expect(mails.map((m) => m.to).sort(), subject).toEqual(['ann@example.com', 'sam@example.com']);
      for (const mail of mails) {
        expect(mail.body).toContain(`${BASE}/escrow/${deal.id}`);
        expect(mail.body).not.toContain('internal:');
      }
    }
  });

  it('links every mail of a whole deal: parties to the escrow page, admins to the console; no ISO times anywhere', async () => {
    const deal = await openDeal();
    await fund(deal);
    await ok(
      t.app.request(
        `/api/escrows/${deal.id}/payout-address`,
        json({ address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' }, deal.seller.token),
      ),
    );
    await ok(
      t.app.request(`/api/escrows/${deal.id}/confirm-receipt`, {
        method: 'POST',
        headers: { authorization: `Bearer ${deal.buyer.token}` },
      }),
    );
    await ok(
      t.app.request(
        `/api/admin/escrows/${deal.id}/release`,
        form({ notes: 'paid out', txid: 'b'.repeat(64) }, deal.admin.token),
      ),
    );

    const mails = (await allMail()).filter((m) => !m.subject.startsWith('Confirm your e-mail'));
    // Subjects name the escrow by its id, never by the title its creator typed.
    const ref = escrowRef(deal.id);
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining([`Escrow released: ${ref}`, `Escrow funded: ${ref}`, `Payment marked: ${ref}`]),
    );
    for (const mail of mails) {
      const link = mail.to === 'root@example.com' ? `${BASE}/admin?tab=` : `${BASE}/escrow/${deal.id}`;
      expect(mail.body, `${mail.subject} to ${mail.to}`).toContain(link);
      expect(mail.body, `${mail.subject} to ${mail.to}`).not.toMatch(ISO_TIME);
    }
    const released = mails.find((m) => m.subject === `Escrow released: ${ref}` && m.to === 'sam@example.com')!;
    expect(released.body).toMatch(/\d\.\d{8} BTC was released/);
  });
});

describe('Mail at each step of a deal, to whoever acts next', () => {
  it("a seller's shipped deal: the buyer is asked to agree, each step mails the party who acts next with the escrow's page", async () => {
    const { admin, buyer, seller } = await openMarket(t, []);
    const created = await ok(
      t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Lamp',
            description: 'Desk lamp',
            amount_usd: '50.00',
            inspection_days: 2,
            buyer_email: 'ann@example.com',
          },
          seller.token,
        ),
      ),
    );
    const { id } = (await created.json()) as { id: string };
    const page = `Open it: ${BASE}/escrow/${id}`;
    const post = (path: string, token: string, body?: unknown) =>
      t.app.request(
        `/api/escrows/${id}/${path}`,
        body === undefined ? { method: 'POST', headers: { authorization: `Bearer ${token}` } } : json(body, token),
      );
    const only = async (subject: string, to: string) => {
      const mails = await mailAbout(subject);
      expect(
        mails.map((m) => m.to),
        subject,
      ).toEqual([to]);
      expect(mails[0]!.body, subject).not.toMatch(ISO_TIME);
      return mails[0]!.body;
    };

    const invitation = (await allMail()).find(
      (m) => m.to === 'ann@example.com' && m.subject === 'You are invited to an escrow',
    )!;
    expect(invitation.body).toContain('Agree to the terms and pay, or decline them, on the escrow page');

    await ok(post('agree', buyer.token));
    expect(await only('Terms agreed', 'sam@example.com')).toContain(page);

    expect((await post('request-payment', buyer.token)).status).toBe(409);
    const added = await ok(t.app.request('/api/admin/addresses', form({ address_string: ADDRESS }, admin.token)));
    const { id: addressId } = (await added.json()) as { id: string };
    await ok(t.app.request(`/api/admin/escrows/${id}/assign-address`, form({ address_id: addressId }, admin.token)));
    const ready = await only('Payment address ready', 'ann@example.com');
    expect(ready).toContain(ADDRESS);
    expect(ready).toContain(page);

    await ok(t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token)));
    await ok(
      t.app.request(`/api/admin/escrows/${id}/verify-payment`, form({ verified: 'true', notes: 'seen' }, admin.token)),
    );
    await ok(post('ship', seller.token, { method: 'shipping', carrier: 'DHL', tracking: 'JD1' }));
    const shipped = await only('Shipped', 'ann@example.com');
    expect(shipped).toContain('with DHL, tracking JD1');
    expect(shipped).toContain(page);

    await ok(post('receive', buyer.token));
    const received = await only('Received by the buyer', 'sam@example.com');
    expect(received).toMatch(/The inspection period ends \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/);
    expect(received).toContain(page);

    await ok(post('confirm-receipt', buyer.token));
    const accepted = await only('Accepted', 'sam@example.com');
    expect(accepted).toContain('The buyer accepted escrow');
    expect(accepted).toContain('Set your payout address on the escrow page');
    expect(accepted).toContain(page);
    expect(await mailAbout('Ready to release')).toEqual([]);

    await ok(post('payout-address', seller.token, { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' }));
    expect(await only('Ready to release', 'root@example.com')).toContain(`${BASE}/admin?tab=escrows&ready=true`);
  });
});

describe('Mail of a deal with no inspection period', () => {
  it('tells the seller once that the goods were accepted on receipt, with no inspection period to wait for', async () => {
    const people = await openMarket(t, [ADDRESS]);
    const res = await ok(
      t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Key',
            description: 'Licence key',
            amount_usd: '20.00',
            inspection_days: 0,
            seller_email: 'sam@example.com',
          },
          people.buyer.token,
        ),
      ),
    );
    const deal = { ...people, id: ((await res.json()) as { id: string }).id };
    const post = (path: string, token: string, body?: unknown) =>
      t.app.request(
        `/api/escrows/${deal.id}/${path}`,
        body === undefined ? { method: 'POST', headers: { authorization: `Bearer ${token}` } } : json(body, token),
      );
    await ok(post('agree', deal.seller.token));
    await fund(deal);
    await ok(post('ship', deal.seller.token, { method: 'digital' }));
    await ok(post('receive', deal.buyer.token));
    const toSeller = (await allMail())
      .filter((m) => m.to === 'sam@example.com')
      .map((m) => m.subject.replace(/:.*/, ''));
    expect(toSeller.slice(-2)).toEqual(['Escrow funded', 'Accepted']);
  });
});

describe('Mail to admins about the payment address pool', () => {
  it("links the pool-low alert to the console's Addresses tab, and an escrow left without an address to that escrow", async () => {
    const { buyer } = await openMarket(t, [ADDRESS]);
    const [low] = await mailAbout('Payment address pool is low');
    expect(low!.to).toBe('root@example.com');
    expect(low!.body).toContain(`${BASE}/admin?tab=addresses`);

    await ok(
      t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Lens',
            description: 'Takes the pool address',
            amount_usd: '10.00',
            seller_email: 'sam@example.com',
          },
          buyer.token,
        ),
      ),
    );
    const seller = await signedInUser(t, 'sue', 'seller');
    const confirmation = (await allMail()).find(
      (m) => m.to === 'sue@example.com' && m.subject === 'Confirm your e-mail address',
    )!;
    await ok(t.app.request('/api/auth/verify-email', json({ token: tokenInMail(confirmation.body) })));
    const res = await ok(
      t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Tripod',
            description: 'Waits for an address',
            amount_usd: '10.00',
            buyer_email: 'ann@example.com',
          },
          seller.token,
        ),
      ),
    );
    const { id } = (await res.json()) as { id: string };
    expect(
      (
        await t.app.request(`/api/escrows/${id}/request-payment`, {
          method: 'POST',
          headers: { authorization: `Bearer ${buyer.token}` },
        })
      ).status,
    ).toBe(409);
    const [empty] = await mailAbout('The payment address pool is empty');
    expect(empty!.body).toContain(`${BASE}/admin?tab=escrows&escrow=${id}`);
    expect(empty!.body).toContain(`${BASE}/admin?tab=addresses`);
  });
});
