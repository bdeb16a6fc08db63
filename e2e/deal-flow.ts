/**
 * Two whole deals against a running server, as the three people in them would go through them.
 * 1. Create, get an address, mark paid with a file, admin rejects, mark again, admin verifies, buyer confirms,
 *    seller sets a payout address, admin releases.
 * 2. Create, mark, verify, both set addresses, buyer opens a dispute, admin resolves it with a 60/40 split.
 * Then every mail those steps call for must be in the outbox file.
 *   ADMIN_USERNAME=admin ADMIN_EMAIL=admin@example.com ADMIN_PASSWORD=... npm start
 *   npx tsx e2e/deal-flow.ts --base http://127.0.0.1:3000 --outbox ./data/mail-outbox.jsonl --admin admin --admin-password ...
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { totpCodeAt } from '../app-server/auth/totp.ts';
import { freshAddress } from '../app-server/testing/bitcoin.ts';
import { bearer, client, expect, form, json, multipart, outbox, waitForMail } from './client.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    outbox: { type: 'string', default: './data/mail-outbox.jsonl' },
    admin: { type: 'string', default: process.env.ADMIN_USERNAME ?? 'admin' },
    'admin-password': { type: 'string', default: process.env.ADMIN_PASSWORD ?? '' },
  },
});
const { call } = client(values.base!);
const box = values.outbox!;
const run = Date.now().toString(36);
const password = 'an e2e password';

async function signIn(username: string, pass = password) {
  const answer = await call('/auth/login', json({ username, password: pass }));
  expect(answer.status === 200, `sign-in of ${username}`);
  return answer.body.access_token as string;
}
async function person(name: string, role: 'buyer' | 'seller') {
  const username = `${name}${run}`;
  const email = `${username}@example.com`;
  const registered = await call(
    '/auth/register',
    json({ full_name: `${name} E2E`, email, username, password, confirm_password: password, role }),
  );
  expect(registered.status === 201, `registration of ${username}`);
  const mail = await waitForMail(
    box,
    (m) => m.to === email && m.subject === 'Confirm your e-mail address',
    `to ${email}`,
  );
  const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect((await call('/auth/verify-email', json({ token }))).status === 200, `e-mail verification of ${username}`);
  return { email, token: await signIn(username) };
}

// --- setting up: the admin sets the rate and fills the pool; a buyer and a seller sign up ---
const admin = await signIn(values.admin!, values['admin-password']);
// The admin works as production asks (ADMIN_2FA_REQUIRED): 2FA on, a fresh code with every power. This script is the
// authenticator app: the next step's code while it is still ahead of the clock (each step is accepted once), then
// the recovery codes. 2FA is switched off again at the end, so other scripts can sign in with the password alone.
const setup = await call('/auth/setup-2fa', { method: 'POST', token: admin });
expect(setup.status === 200, 'the admin sets up 2FA');
const secret = String(setup.body.secret);
const enabled = await call('/auth/verify-2fa', form({ totp_code: totpCodeAt(secret, new Date()) }, admin));
expect(enabled.status === 200, "the admin's 2FA is on");
const recovery = [...(enabled.body.recovery_codes as string[])];
let nextStep = Math.floor(Date.now() / 30_000) + 1;
async function adminCode(): Promise<string> {
  if (nextStep <= Math.floor(Date.now() / 30_000) + 1) return totpCodeAt(secret, new Date(nextStep++ * 30_000));
  const code = recovery.shift();
  if (code) return code;
  // Out of codes for now: wait for the authenticator's next step, as a person would.
  await new Promise((resolve) => setTimeout(resolve, (nextStep - 1) * 30_000 - Date.now() + 100));
  return adminCode();
}
const power = async (fields: Record<string, string>, method = 'POST') =>
  form({ ...fields, totp_code: await adminCode() }, admin, method);
const withoutCode = await call('/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin, 'PUT'));
expect(
  withoutCode.status === 422 && withoutCode.body.code === 'totp_required',
  'an admin power without a code is refused',
);
expect(
  (await call('/admin/btc-rate', await power({ btc_usd_rate: '50000', fee_percentage: '1.5' }, 'PUT'))).status === 200,
  'rate set',
);
for (let i = 0; i < 4; i++)
  expect(
    (await call('/admin/addresses', await power({ address_string: freshAddress() }))).status === 201,
    'address added',
  );
const buyer = await person('buyer', 'buyer');
const seller = await person('seller', 'seller');
const payoutAddress = freshAddress();
const refundAddress = freshAddress();

// --- deal 1: the happy path with one rejected mark ---
const created = await call(
  '/escrows',
  json(
    {
      product_service: `Camera ${run}`,
      description: 'Mirrorless, boxed',
      amount_usd: '1000.00',
      deadline_days: 7,
      seller_email: seller.email,
    },
    buyer.token,
  ),
);
expect(created.status === 201 && created.body.status === 'pending_payment', 'escrow created');
expect(created.body.total_usd === 1015 && created.body.amount_sats === 2_030_000, 'figures: 1015.00 USD, 0.0203 BTC');
expect(typeof created.body.assigned_address === 'string', 'an address at once');
const deal = created.body.id as string;
expect(
  (await call(`/escrows/${deal}`, bearer(seller.token))).body.side === 'seller',
  'the seller sees it by their verified e-mail',
);

const receipt = new TextEncoder().encode(`Sent 0.0203 BTC for escrow ${deal}\n`);
const marked = await call(
  `/escrows/${deal}/mark-paid`,
  multipart(
    { notes: 'Sent from my wallet', file: new File([receipt], 'receipt.txt', { type: 'text/plain' }) },
    buyer.token,
  ),
);
expect(marked.status === 200 && marked.body.payment_marked_at, 'marked as paid with a file');
const queue = (await call('/admin/pending-verifications', bearer(admin))).body as unknown as Array<{
  escrow: { id: string };
  evidence: Array<{ url: string; sha256: string }>;
}>;
const entry = queue.find((q) => q.escrow.id === deal);
expect(entry && entry.evidence.length === 1, 'the mark waits for the admin, with its evidence');
const download = await call(entry!.evidence[0]!.url.replace(/^\/api/, ''), bearer(admin));
const bytes = download.body.bytes as Uint8Array;
expect(
  createHash('sha256').update(bytes).digest('hex') === entry!.evidence[0]!.sha256,
  'the evidence downloads with the recorded SHA-256',
);

expect(
  (
    await call(
      `/admin/escrows/${deal}/verify-payment`,
      await power({ verified: 'false', notes: 'Nothing on chain yet' }),
    )
  ).body.payment_marked_at === null,
  'mark rejected',
);
expect(
  (await call(`/escrows/${deal}/mark-paid`, form({ notes: 'Confirmed now, 3 confirmations' }, buyer.token))).status ===
    200,
  'marked again',
);
const funded = await call(
  `/admin/escrows/${deal}/verify-payment`,
  await power({ verified: 'true', notes: 'Seen on chain', txid: 'a1'.repeat(32) }),
);
expect(funded.body.status === 'funded', 'funded');
expect(
  (await call(`/escrows/${deal}/confirm-receipt`, bearer(buyer.token, 'POST'))).body.buyer_confirmed_at,
  'receipt confirmed',
);
const early = await call(`/admin/escrows/${deal}/release`, await power({ notes: 'go' }));
expect(early.status === 409, 'no release before a payout address');
expect(
  (await call(`/escrows/${deal}/payout-address`, json({ address: payoutAddress }, seller.token))).body
    .payout_address === payoutAddress,
  'payout address set',
);
const released = await call(
  `/admin/escrows/${deal}/release`,
  await power({ notes: 'Delivered', txid: 'b2'.repeat(32) }),
);
expect(
  released.body.status === 'released' && released.body.seller_sats === 2_000_000 && released.body.fee_sats === 30_000,
  'released: 2,000,000 sats to the seller, 30,000 fee',
);

// --- deal 2: a dispute resolved with a split ---
const second = await call(
  '/escrows',
  json(
    { product_service: `Lens ${run}`, description: 'Two lenses', amount_usd: '1000.00', seller_email: seller.email },
    buyer.token,
  ),
);
const disputed = second.body.id as string;
await call(`/escrows/${disputed}/mark-paid`, form({ notes: 'sent' }, buyer.token));
expect(
  (await call(`/admin/escrows/${disputed}/verify-payment`, await power({ verified: 'true', notes: 'Seen' }))).body
    .status === 'funded',
  'second escrow funded',
);
await call(`/escrows/${disputed}/payout-address`, json({ address: payoutAddress }, seller.token));
expect(
  (await call(`/escrows/${disputed}/payout-address`, json({ address: refundAddress }, buyer.token))).body
    .refund_address === refundAddress,
  'refund address set',
);
expect(
  (await call(`/escrows/${disputed}/open-dispute`, json({ reason: 'Only one of the two lenses arrived' }, buyer.token)))
    .body.status === 'disputed',
  'dispute opened',
);
const disputes = (await call('/admin/disputes', bearer(admin))).body as unknown as Array<{
  id: string;
  escrow_id: string;
}>;
const dispute = disputes.find((d) => d.escrow_id === disputed);
const split = await call(
  `/admin/disputes/${dispute!.id}/resolve`,
  await power({ outcome: 'One lens delivered: 60% to the seller', resolution: 'split', seller_percent: '60' }),
);
expect(
  split.body.status === 'released' &&
    split.body.seller_sats === 1_200_000 &&
    split.body.buyer_sats === 800_000 &&
    split.body.fee_sats === 30_000,
  'split: 1,200,000 / 800,000 sats, 30,000 fee',
);

// --- the mails those steps called for ---
// Subjects name an escrow by the start of its id, never by the text its creator typed.
const camera = `escrow ${deal.slice(0, 8)}`;
const lens = `escrow ${disputed.slice(0, 8)}`;
const expected: Array<[string, string]> = [
  [seller.email, 'You are invited to an escrow'],
  [buyer.email, `Payment not confirmed: ${camera}`],
  [buyer.email, `Escrow funded: ${camera}`],
  [seller.email, `Escrow funded: ${camera}`],
  [buyer.email, `Escrow released: ${camera}`],
  [seller.email, `Escrow released: ${camera}`],
  [buyer.email, `Dispute resolved: ${lens}`],
  [seller.email, `Dispute resolved: ${lens}`],
];
for (const [to, subject] of expected)
  await waitForMail(box, (m) => m.to === to && m.subject === subject, `"${subject}" to ${to}`);
const invitation = outbox(box).find((m) => m.to === seller.email && m.subject === 'You are invited to an escrow');
expect(
  invitation?.text.includes(`What it is for (their own words, not checked by us):\n> Camera ${run}`) === true,
  "the invitation marks the creator's words",
);
const adminMails = outbox(box).filter(
  (m) => m.subject === `Payment marked: ${camera}` || m.subject === `Dispute opened: ${lens}`,
);
expect(adminMails.length >= 2, 'admins told of the mark and of the dispute');
expect(
  (await call('/auth/disable-2fa', form({ totp_code: await adminCode() }, admin))).status === 200,
  "the admin's 2FA is off again",
);
console.log(
  `deal flow: ok (${outbox(box).filter((m) => m.subject.includes(camera) || m.subject.includes(lens)).length} mails about these deals in the outbox)`,
);
