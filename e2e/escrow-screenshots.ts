/**
 * Screenshots of the escrow screens (dashboard empty and filled, the create form without a rate, filled and with
 * errors, the payment dialog, and the escrow page in each status for each side) at 1366 and 390 px, in Debian's
 * Chromium, against a running server with an empty store and its outbox file. Fails on sideways scrolling at
 * 360 px, a console error or a request to another host.
 *   ADMIN_USERNAME=admin ADMIN_EMAIL=admin@example.com ADMIN_PASSWORD=... ADMIN_2FA_REQUIRED=false \
 *     MAX_UNPAID_ESCROWS=100 RATE_LIMIT_ESCROWS=1000 npm start
 * (the admin's steps go through the API without a 2FA code; one buyer opens a score of escrows, more than the
 * default limit on unpaid escrows, 3, allows)
 *   npx tsx e2e/escrow-screenshots.ts --base http://127.0.0.1:3000 --outbox ./data/mail-outbox.jsonl --admin admin:PASSWORD
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { freshAddress } from '../app-server/testing/bitcoin.ts';
import { send, waitForMail } from './client.ts';
import { onConsoleError, onRequestElsewhere, sidewaysOverflow, storeSession } from './screenshot-page.ts';
import { chromiumLaunchOptions } from './support/chromium.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    outbox: { type: 'string', default: './data/mail-outbox.jsonl' },
    admin: { type: 'string', default: 'admin:' },
    out: { type: 'string', default: 'e2e/screenshots/escrows' },
    only: { type: 'string' },
  },
});
const base = values.base!;
const api = (path: string) => `${base}/api${path}`;
const run = Date.now().toString(36);
const password = 'a screenshot password';

async function must(what: string, answer: Promise<{ status: number; body: Record<string, unknown> }>) {
  const { status, body } = await answer;
  if (status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}
const signIn = async (username: string, pass = password) =>
  (await must(`sign-in ${username}`, send(api('/auth/login'), { json: { username, password: pass } })))
    .access_token as string;
async function person(name: string, role: 'buyer' | 'seller', verify = true) {
  const username = `${name}${run}`;
  const email = `${username}@example.com`;
  await must(
    `register ${username}`,
    send(api('/auth/register'), {
      json: { full_name: `${name} Example`, email, username, password, confirm_password: password, role },
    }),
  );
  if (verify) {
    const mail = await waitForMail(
      values.outbox!,
      (m) => m.to === email && m.subject === 'Confirm your e-mail address',
      `to ${email}`,
    );
    await must(
      'verify',
      send(api('/auth/verify-email'), { json: { token: /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] } }),
    );
  }
  return { email, token: await signIn(username) };
}

const [adminName, ...rest] = values.admin!.split(':');
const admin = await signIn(adminName!, rest.join(':'));
const buyer = await person('ann', 'buyer');
const seller = await person('sam', 'seller');
const newcomer = await person('nina', 'buyer', false);
const fresh = await person('fred', 'buyer');

type Step = (id: string) => Promise<unknown>;
const adminForm = (path: string, form: Record<string, string>) => must(path, send(api(path), { token: admin, form }));
const steps = {
  mark: (id: string) =>
    must('mark', send(api(`/escrows/${id}/mark-paid`), { token: buyer.token, form: { notes: 'Sent from my wallet' } })),
  reject: (id: string) =>
    adminForm(`/admin/escrows/${id}/verify-payment`, { verified: 'false', notes: 'Nothing on chain yet' }),
  verify: (id: string) =>
    adminForm(`/admin/escrows/${id}/verify-payment`, { verified: 'true', notes: 'Seen', txid: 'ab'.repeat(32) }),
  payout: (id: string) =>
    must(
      'payout',
      send(api(`/escrows/${id}/payout-address`), { token: seller.token, json: { address: freshAddress() } }),
    ),
  refundAddress: (id: string) =>
    must(
      'refund address',
      send(api(`/escrows/${id}/payout-address`), { token: buyer.token, json: { address: freshAddress() } }),
    ),
  confirm: (id: string) =>
    must('confirm', send(api(`/escrows/${id}/confirm-receipt`), { token: buyer.token, method: 'POST' })),
  release: (id: string) => adminForm(`/admin/escrows/${id}/release`, { notes: 'Delivered', txid: 'cd'.repeat(32) }),
  refund: (id: string) => adminForm(`/admin/escrows/${id}/refund`, { notes: 'Not delivered', txid: 'ef'.repeat(32) }),
  dispute: (id: string) =>
    must(
      'dispute',
      send(api(`/escrows/${id}/open-dispute`), {
        token: buyer.token,
        json: { reason: 'The camera arrived with a cracked screen.' },
      }),
    ),
  freeze: (id: string) => adminForm(`/admin/escrows/${id}/freeze`, { reason: 'Checking a chargeback' }),
  cancel: (id: string) => must('cancel', send(api(`/escrows/${id}/cancel`), { token: buyer.token, method: 'POST' })),
  split: async (id: string) => {
    const disputes = (await send(api('/admin/disputes'), { token: admin })).body as unknown as Array<{
      id: string;
      escrow_id: string;
    }>;
    const dispute = disputes.find((d) => d.escrow_id === id)!;
    return adminForm(`/admin/disputes/${dispute.id}/resolve`, {
      outcome: 'Half delivered: 60% to the seller, 40% back to the buyer.',
      resolution: 'split',
      seller_percent: '60',
    });
  },
} satisfies Record<string, Step>;

async function deal(name: string, by: 'buyer' | 'seller', then: Step[]) {
  const token = by === 'buyer' ? buyer.token : seller.token;
  const counterparty = by === 'buyer' ? { seller_email: seller.email } : { buyer_email: buyer.email };
  const created = await must(
    `create ${name}`,
    send(api('/escrows'), {
      token,
      json: {
        product_service: name,
        description: `${name}: a long description of what is sold, how it ships and what counts as delivered, to see the preview cut at sixty characters.`,
        amount_usd: '1234.56',
        deadline_days: 7,
        ...counterparty,
      },
    }),
  );
  const id = created.id as string;
  for (const step of then) await step(id);
  return id;
}

// The create form before any rate is set, then the market opens.
const shots: Array<{ name: string; token: string; path: string; act?: (page: Page) => Promise<void> }> = [];
const createDialog = async (page: Page) => {
  await page.getByRole('button', { name: '+ Create Escrow' }).click();
  await page.getByRole('dialog').waitFor();
};
shots.push({ name: 'create-no-rate', token: fresh.token, path: '/dashboard', act: createDialog });
const prepare: Array<() => Promise<void>> = [];
prepare.push(async () => {
  await must(
    'rate',
    send(api('/admin/btc-rate'), {
      token: admin,
      method: 'PUT',
      form: { btc_usd_rate: '64250.37', fee_percentage: '1.5' },
    }),
  );
  for (let i = 0; i < 12; i++) await adminForm('/admin/addresses', { address_string: freshAddress() });
});

const statuses: Array<[string, 'buyer' | 'seller', Array<keyof typeof steps>]> = [
  ['seller-created-unpaid', 'seller', []],
  ['address-given', 'buyer', []],
  ['marked', 'buyer', ['mark']],
  ['rejected', 'buyer', ['mark', 'reject']],
  ['funded', 'buyer', ['mark', 'verify']],
  ['confirmed', 'buyer', ['mark', 'verify', 'payout', 'confirm']],
  ['disputed', 'buyer', ['mark', 'verify', 'dispute']],
  ['frozen', 'buyer', ['mark', 'verify', 'freeze']],
  ['released', 'buyer', ['mark', 'verify', 'payout', 'confirm', 'release']],
  ['split', 'buyer', ['mark', 'verify', 'payout', 'refundAddress', 'dispute', 'split']],
  ['refunded', 'buyer', ['mark', 'verify', 'refundAddress', 'refund']],
  ['cancelled', 'buyer', ['cancel']],
];

const viewports = [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
  ['narrow', { width: 360, height: 740 }],
] as const;
mkdirSync(values.out!, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
const problems: string[] = [];

async function shoot(list: typeof shots) {
  for (const [viewportName, viewport] of viewports) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    onConsoleError(page, (text) => problems.push(`${viewportName} console error: ${text}`));
    onRequestElsewhere(page, base, (url) => problems.push(`request to another host: ${url}`));
    for (const shot of list) {
      if (values.only && !shot.name.includes(values.only)) continue;
      await storeSession(page, base, shot.token);
      await page.goto(`${base}${shot.path}`, { waitUntil: 'networkidle' });
      await page.locator('h1').first().waitFor();
      if (shot.act) await shot.act(page);
      await page.waitForTimeout(400);
      const overflow = await sidewaysOverflow(page);
      if (overflow > 0) problems.push(`${shot.name} scrolls sideways by ${overflow}px at ${viewport.width} px`);
      if (viewportName === 'narrow') continue;
      await page.screenshot({ path: `${values.out}/${shot.name}-${viewportName}.png`, fullPage: true });
    }
    await context.close();
  }
}

try {
  await shoot(shots);
  shots.length = 0;
  for (const step of prepare) await step();
  shots.push({ name: 'dashboard-empty', token: fresh.token, path: '/dashboard' });
  shots.push({ name: 'dashboard-unverified', token: newcomer.token, path: '/dashboard' });
  shots.push({
    name: 'create-filled',
    token: fresh.token,
    path: '/dashboard',
    act: async (page) => {
      await createDialog(page);
      await page.getByLabel('Product or service').fill('Vintage guitar');
      await page.getByLabel("Seller's e-mail").fill(seller.email);
      await page.getByLabel('Amount in USD').fill('2000');
      await page.getByLabel('Description and terms').fill('1968 hollow body, shipped insured.');
    },
  });
  shots.push({
    name: 'create-errors',
    token: fresh.token,
    path: '/dashboard',
    act: async (page) => {
      await createDialog(page);
      await page.getByLabel('Amount in USD').fill('12.345');
      await page.getByRole('button', { name: 'Create Escrow' }).click();
    },
  });
  for (const [name, by, then] of statuses) {
    const id = await deal(
      name,
      by,
      then.map((s) => steps[s]),
    );
    shots.push({ name: `escrow-${name}-buyer`, token: buyer.token, path: `/escrow/${id}` });
    shots.push({ name: `escrow-${name}-seller`, token: seller.token, path: `/escrow/${id}` });
    if (name === 'address-given') {
      shots.push({
        name: 'payment-dialog',
        token: buyer.token,
        path: `/escrow/${id}?pay=1`,
        act: async (page) => void (await page.getByRole('dialog').locator('svg.qr-code').waitFor()),
      });
      shots.push({
        name: 'mark-paid-dialog',
        token: buyer.token,
        path: `/escrow/${id}`,
        act: (page) => page.getByRole('button', { name: 'Mark as Paid' }).click(),
      });
    }
    if (name === 'funded')
      shots.push({
        name: 'address-dialog-error',
        token: seller.token,
        path: `/escrow/${id}`,
        act: async (page) => {
          await page.getByRole('button', { name: 'Set payout address' }).click();
          await page.getByLabel('Your payout address').fill('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
          await page.getByRole('button', { name: 'Save address' }).click();
        },
      });
  }
  shots.push({ name: 'dashboard-filled', token: buyer.token, path: '/dashboard' });
  shots.push({ name: 'dashboard-needs-action', token: seller.token, path: '/dashboard?filter=needs_action' });
  await shoot(shots);
} finally {
  await browser.close();
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`screenshots in ${values.out}`);
