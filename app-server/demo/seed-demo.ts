import { randomBytes } from 'node:crypto';
import { ensureAdmin } from '../accounts/first-admin.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { createApp } from '../http/app.ts';
import type { AppDeps } from '../app-deps.ts';
import { type DemoCall, demoClient } from './demo-client.ts';
import { DemoDeals, demoAddress, emailOf, txid } from './demo-deals.ts';
import { runInspectionClock } from '../jobs/inspection.ts';
import { seedDealSteps } from './seed-deal-steps.ts';

export class StoreNotEmpty extends Error {}

export interface DemoAccount {
  username: string;
  role: 'admin' | 'buyer' | 'seller';
  email: string;
}

export interface DemoReport {
  accounts: DemoAccount[];
  password: string;
  escrowsByStatus: Record<string, number>;
  addresses: number;
  reviews: Record<string, number>;
  events: number;
}

const PEOPLE: { username: string; full_name: string; role: 'buyer' | 'seller'; country: string }[] = [
  { username: 'alice', full_name: 'Alice Moreau', role: 'buyer', country: 'France' },
  { username: 'bruno', full_name: 'Bruno Keller', role: 'buyer', country: 'Germany' },
  { username: 'chiara', full_name: 'Chiara Rossi', role: 'buyer', country: 'Italy' },
  { username: 'dmitri', full_name: 'Dmitri Volkov', role: 'seller', country: 'Estonia' },
  { username: 'elena', full_name: 'Elena García', role: 'seller', country: 'Spain' },
  { username: 'farid', full_name: 'Farid Haddad', role: 'seller', country: 'Netherlands' },
];
/** The API calls a demo seeding makes (its progress is counted in them). */
export const DEMO_CALLS = 194;

/**
 * Fills an EMPTY store with a believable market, every record made by the real API calls (in-process): an admin
 * (created like create-admin does), six people with confirmed e-mail addresses, a rate, 30 pool addresses for the
 * configured network, escrows in every status with evidence files, each step of a deal (agreed and declined terms,
 * shipment, inspection, ready to release, settlement proposals open, agreed and executed, a conversation), disputes
 * open (with its conversation) and resolved (one split), and reviews in every state. Refuses a store whose log is
 * not empty. The mail it causes is marked sent (nothing is delivered to the example.com addresses).
 */
export async function seedDemo(
  deps: AppDeps,
  options: { password?: string; onCall?: (calls: number) => void } = {},
): Promise<DemoReport> {
  const { db } = deps.database;
  const head = await readChainHead(db);
  if (head.position !== 0)
    throw new StoreNotEmpty(
      `the store is not empty (its log holds ${head.position} events): seed-demo fills a new store only; use another DATA_DIR or database`,
    );
  const password = options.password ?? `demo-${randomBytes(6).toString('base64url')}`;
  // The seeding runs on the operator's own machine with the database in hand, as the CLI's create-admin does; its
  // made-up admin has no authenticator, so the admin powers it uses are not stepped up here. The admin it leaves
  // behind signs in like any other: with ADMIN_2FA_REQUIRED, they turn 2FA on before their first admin power.
  let calls = 0;
  const call = demoClient(createApp({ ...deps, config: { ...deps.config, ADMIN_2FA_REQUIRED: false } }), () =>
    options.onCall?.(++calls),
  );
  const network = deps.config.BITCOIN_NETWORK;

  // The operator's admin, as create-admin makes it, then signed in through the API.
  await ensureAdmin(deps, { username: 'admin', email: emailOf('admin'), password });
  const admin = (await call<{ access_token: string }>('POST', '/auth/login', { json: { username: 'admin', password } }))
    .access_token;

  await call('PUT', '/admin/btc-rate', { form: { btc_usd_rate: '64250.00', fee_percentage: '1.5' } }, admin);
  for (let i = 0; i < 30; i++)
    await call('POST', '/admin/addresses', { form: { address_string: demoAddress(network) } }, admin);

  const tokens: Record<string, string> = {};
  for (const person of PEOPLE) {
    await call('POST', '/auth/register', {
      json: {
        full_name: person.full_name,
        email: emailOf(person.username),
        username: person.username,
        password,
        confirm_password: password,
        role: person.role,
        country: person.country,
        phone: null,
      },
    });
    await verifyEmail(deps, call, emailOf(person.username));
    tokens[person.username] = (
      await call<{ access_token: string }>('POST', '/auth/login', { json: { username: person.username, password } })
    ).access_token;
  }
  const as = (username: string) => tokens[username]!;
  const deals = new DemoDeals(call, admin, as, network);

  // Waiting for payment: seller-made (no address until the buyer asks), buyer-made (address given), marked, a mark rejected.
  await deals.open('dmitri', 'alice', 'Vintage Leica M6 camera body', 1450_00, { by: 'seller' });
  await deals.open('alice', 'elena', 'Handmade oak dining table', 2100_00);
  const marked = await deals.open('bruno', 'farid', 'Domain name transfer: quietharbor.io', 3800_00);
  await deals.markPaid(marked, 'bruno', 'Sent from my hardware wallet, 2 confirmations so far');
  const rejected = await deals.open('chiara', 'dmitri', 'Refurbished ThinkPad X1 Carbon', 690_00);
  await deals.markPaid(rejected, 'chiara', 'Paid this morning');
  await call(
    'POST',
    `/admin/escrows/${rejected.id}/verify-payment`,
    {
      form: {
        verified: 'false',
        notes: 'No transaction to this address yet; please check the amount and mark again once sent',
      },
    },
    admin,
  );

  // Funded, one with receipt confirmed.
  const funded = await deals.funded('alice', 'farid', 'Logo and brand identity design', 850_00);
  await deals.funded('chiara', 'elena', 'Road bike, Shimano 105 groupset', 1180_00);
  await deals.confirmReceipt(funded, 'alice');

  // Released: the happy path, with the payout address set.
  const released = await deals.funded('bruno', 'dmitri', 'Used Fender Stratocaster', 920_00);
  await deals.payoutAddress(released, 'dmitri');
  await deals.confirmReceipt(released, 'bruno');
  await call(
    'POST',
    `/admin/escrows/${released.id}/release`,
    { form: { notes: 'Buyer confirmed receipt', txid: txid() } },
    admin,
  );
  const releasedToo = await deals.funded('alice', 'dmitri', 'Translation of a 40-page contract', 480_00);
  await deals.payoutAddress(releasedToo, 'dmitri');
  await call(
    'POST',
    `/admin/escrows/${releasedToo.id}/release`,
    { form: { notes: 'Delivered and confirmed by e-mail', txid: txid() } },
    admin,
  );

  // Refunded by an admin.
  const refunded = await deals.funded('chiara', 'farid', 'Concert tickets (2x)', 310_00);
  await deals.payoutAddress(refunded, 'chiara');
  await call(
    'POST',
    `/admin/escrows/${refunded.id}/refund`,
    { form: { notes: 'The event was cancelled; the seller agreed to a refund', txid: txid() } },
    admin,
  );

  // Disputes: one open, one resolved with a split, one resolved with a refund, one closed without moving money.
  const disputed = await deals.funded('bruno', 'elena', 'Antique writing desk', 1750_00);
  await call(
    'POST',
    `/escrows/${disputed.id}/open-dispute`,
    { json: { reason: 'The desk arrived with a cracked leg that was not in the photos' } },
    as('bruno'),
  );
  // The open dispute's conversation: both parties and an admin.
  for (const [who, text] of [
    ['bruno', 'The front left leg is cracked through; I have photos of the parcel as it arrived.'],
    ['elena', 'It left here in one piece, packed in foam. Did the box show any damage?'],
    [
      'admin',
      'Thank you both. Bruno, please post the photos of the box and the leg here; Elena, the packing photos if you have them.',
    ],
    ['bruno', 'The box had a dent on the same corner, right where the leg was.'],
  ] as const) {
    await deals.say(disputed, who, text);
  }
  const split = await deals.funded('alice', 'dmitri', 'Website development, phase 1', 3200_00);
  await deals.payoutAddress(split, 'dmitri');
  await deals.payoutAddress(split, 'alice');
  await call(
    'POST',
    `/escrows/${split.id}/open-dispute`,
    { json: { reason: 'Only four of the six agreed pages were delivered' } },
    as('alice'),
  );
  await deals.resolve(split, {
    outcome: 'Two thirds of the work was delivered; both parties accepted a 65/35 split',
    resolution: 'split',
    seller_percent: '65',
    txid: txid(),
  });
  const refundDispute = await deals.funded('chiara', 'farid', 'Gaming laptop', 1990_00);
  await deals.payoutAddress(refundDispute, 'chiara');
  await call(
    'POST',
    `/escrows/${refundDispute.id}/open-dispute`,
    { json: { reason: 'The laptop never shipped and the seller stopped answering' } },
    as('chiara'),
  );
  await deals.resolve(refundDispute, {
    outcome: 'No proof of shipment after 10 days; refunded in full',
    resolution: 'refund',
    txid: txid(),
  });
  const settled = await deals.funded('bruno', 'farid', 'Mechanical keyboard', 240_00);
  await call(
    'POST',
    `/escrows/${settled.id}/open-dispute`,
    { json: { reason: 'Tracking has not moved for a week' } },
    as('farid'),
  );
  await deals.resolve(settled, { outcome: 'The parcel was found at the depot and is on its way; the deal continues' });

  // Frozen by an admin, and cancelled by its creator.
  const frozen = await deals.funded('alice', 'elena', 'Watch: Seiko SPB143', 1100_00);
  await call(
    'POST',
    `/admin/escrows/${frozen.id}/freeze`,
    { form: { reason: 'Checking the buyer’s payment source' } },
    admin,
  );
  const cancelled = await deals.open('elena', 'chiara', 'Ceramic tableware set', 260_00, { by: 'seller' });
  await call('POST', `/escrows/${cancelled.id}/cancel`, undefined, as('elena'));

  await seedDealSteps(deals, (now) => runInspectionClock(deps, now));

  // Reviews: published (two with the verified-deal mark, one edited), waiting for moderation, rejected.
  const review = (token: string | undefined, body: Record<string, unknown>) =>
    call<{ id: string }>('POST', '/reviews', { json: { ...body, terms_accepted: true } }, token);
  const verified = await review(as('bruno'), {
    name: 'Bruno K.',
    email: emailOf('bruno'),
    country: 'Germany',
    rating: 5,
    text: 'The guitar arrived as described and the release went out the same afternoon. Clear steps the whole way.',
    escrow_id: released.id,
  });
  const verifiedToo = await review(as('alice'), {
    name: 'Alice',
    email: emailOf('alice'),
    country: 'France',
    rating: 4.5,
    text: 'Good translation, paid safely. The status page told me exactly what to do next.',
    escrow_id: releasedToo.id,
  });
  const plain = await review(undefined, {
    name: 'Sam',
    email: null,
    country: 'Ireland',
    rating: 4,
    text: 'Used it to buy a second-hand lens from a stranger. Took a day for the payment check, but I slept well.',
  });
  const edited = await review(undefined, {
    name: 'Priya',
    email: null,
    country: 'India',
    rating: 4.5,
    text: 'Great service, contact me on t.me/priya_deals for cheap BTC!',
  });
  await review(undefined, {
    name: 'Tomás',
    email: null,
    country: 'Portugal',
    rating: 5,
    text: 'Seller and I were in different countries; the escrow made it possible.',
  });
  const rejectedReview = await review(undefined, {
    name: 'x',
    email: null,
    country: 'Nowhere',
    rating: 3,
    text: 'asdf asdf asdf',
  });
  for (const { id } of [verified, verifiedToo, plain])
    await call('POST', `/admin/reviews/${id}/approve`, undefined, admin);
  await call(
    'POST',
    `/admin/reviews/${edited.id}/edit`,
    { form: { edited_text: 'Great service.', admin_note: 'Removed a link to an outside trading channel' } },
    admin,
  );
  await call('POST', `/admin/reviews/${rejectedReview.id}/reject`, { form: { reason: 'Not about a deal' } }, admin);

  // Nothing is mailed for made-up people: the demo's mail is marked sent.
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: new Date().toISOString(), last_error: 'demo data: not delivered' })
    .where('sent_at', 'is', null)
    .execute();

  const escrows = await db.selectFrom('escrows').select('status').execute();
  const reviews = await db.selectFrom('reviews').select('status').execute();
  const count = (values: string[]) =>
    values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
  return {
    accounts: [
      { username: 'admin', role: 'admin', email: emailOf('admin') },
      ...PEOPLE.map((p) => ({ username: p.username, role: p.role, email: emailOf(p.username) })),
    ],
    password,
    escrowsByStatus: count(escrows.map((e) => e.status)),
    addresses: (await db.selectFrom('addresses').select('id').execute()).length,
    reviews: count(reviews.map((r) => r.status)),
    events: (await readChainHead(db)).position,
  };
}

async function verifyEmail(deps: AppDeps, call: DemoCall, email: string) {
  // The verification link goes out by mail: the demo reads it from the outbox, as the person would from their inbox.
  const mail = await deps.database.db
    .selectFrom('mail_outbox')
    .select('body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const token = /token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1];
  if (!token) throw new Error(`no verification link in the mail to ${email}`);
  await call('POST', '/auth/verify-email', { json: { token } });
}
