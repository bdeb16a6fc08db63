import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../auth/sessions.ts';
import {
  bearer,
  enableTwoFactorFor,
  form,
  freshCode,
  json,
  lastMailTo,
  multipart,
  PASSWORD,
  signedInAdmin,
  signedInUser,
  signIn,
  tokenInMail,
  verifyEmailOf,
} from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { integrationObjects, type IntegrationObjects, matrixApiTokens } from '../testing/integration-fixtures.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * The authorisation matrix: every route of the app against every kind of caller. The routes are read from the app
 * itself, so a route added without an entry in ROUTES (or an entry left behind by a removed route) fails here.
 * The app runs with its default settings, ADMIN_2FA_REQUIRED on as in production: the admin has 2FA on and sends a
 * fresh code with every call (X-TOTP-Code), as the console does; admin-step-up-routes.int.test.ts checks the powers
 * against an admin without one.
 */

const CALLERS = ['anonymous', 'buyer', 'seller', 'unrelated', 'unverified', 'suspended', 'admin'] as const;
type Caller = (typeof CALLERS)[number];
type SignedIn = Exclude<Caller, 'anonymous'>;

/**
 * Who gets past the route's own check:
 * - public: anyone, anonymous included;
 * - user:   anyone signed in (anonymous: 401);
 * - party:  the escrow's buyer or seller, and admins (anonymous: 401; anyone else: 404, as if it did not exist);
 * - admin:  admins only (anonymous: 401; everyone else: 403 "Admins only").
 * A suspended user holding a live token is stopped with 403 "Account suspended" on every call, public ones too.
 */
type Access = 'public' | 'user' | 'party' | 'admin';

interface Fixtures {
  /** ann (buyer, its creator) and sam (seller, e-mail verified). */
  escrow: string;
  /** Created by ann naming uma as the seller; uma has not verified her e-mail, so it is not hers yet. */
  unverifiedEscrow: string;
  /** Another escrow of ann and sam, for the cancel route: the one above stays open for the other routes. */
  cancellable: string;
  /** A payment evidence file ann uploaded on another escrow of ann and sam. */
  evidence: string;
  /** A dispute sam opened on a third escrow of ann and sam. */
  dispute: string;
  /** A proposal sam made on `escrow` and withdrew: any party's answer to it is refused (409), never hidden. */
  proposal: string;
  review: string;
  /** A pool address for PUT/DELETE /admin/addresses/{id}. */
  address: { id: string; address_string: string };
  /** An available pool address to assign by hand. */
  freeAddress: string;
  /** Accounts the admin user routes act on, so no caller of the matrix is changed. */
  victim: string;
  doomed: string;
  users: Record<SignedIn, { id: string; token: string; spare: string; role: 'buyer' | 'seller' | 'admin' }>;
  /** Webhook endpoints, deliveries and API token rows of each caller; `adminHooks` the admins' endpoints. */
  mine: Record<SignedIn, IntegrationObjects>;
  adminHooks: IntegrationObjects;
}

type Body = { json: unknown } | { form: Record<string, string> } | { multipart: Record<string, string | File> };

interface Entry {
  access: Access;
  /** Callers past the access check whom a domain rule still refuses with 403 (e.g. only the buyer pays). */
  deny?: SignedIn[];
  /** What {id} names, per caller. */
  id?: (f: Fixtures, who: Caller) => string;
  /** What {pid} names. */
  pid?: (f: Fixtures) => string;
  body?: (f: Fixtures, who: Caller) => Body;
  /** Calls with the caller's second session (signing out must not end the one the rest of the matrix uses). */
  spareToken?: true;
  /** The detail of the 404 a non-party gets on a party route. */
  hidden?: string;
}

/** The escrow a caller is shown on escrow routes: uma gets the one naming her; everyone else ann and sam's. */
const escrowOf = (f: Fixtures, who: Caller) => (who === 'unverified' ? f.unverifiedEscrow : f.escrow);
const escrowId = { id: escrowOf };
let registrations = 0;

const ROUTES: Record<string, Entry> = {
  'GET /api/health': { access: 'public' },
  'GET /api/ready': { access: 'public' },
  'GET /api/openapi.json': { access: 'public' },
  'GET /api/site': { access: 'public' },
  'GET /api/pgp-key': { access: 'public' },
  'GET /api/transparency/checkpoint': { access: 'public' },
  'GET /api/transparency/key': { access: 'public' },
  'GET /api/transparency/checkpoints': { access: 'public' },
  'GET /api/transparency/inclusion': { access: 'public' },
  'GET /api/transparency/consistency': { access: 'public' },
  'POST /api/contact': {
    access: 'public',
    body: () => ({ json: { name: 'Matrix', email: 'matrix@example.com', message: 'Hello' } }),
  },
  'GET /api/btc-rate': { access: 'public' },
  'GET /api/docs': { access: 'public' },
  'GET /api/docs/swagger-ui.css': { access: 'public' },
  'GET /api/docs/swagger-ui-bundle.js': { access: 'public' },
  'GET /api/docs/init.js': { access: 'public' },
  'POST /api/setup/status': { access: 'public', body: () => ({ json: { token: 'x'.repeat(43) } }) },
  // An admin exists, so every setup link is refused (409), whoever calls.
  'POST /api/setup/admin': {
    access: 'public',
    body: () => ({
      json: {
        token: 'x'.repeat(43),
        full_name: 'Mallory',
        email: 'mallory@example.com',
        username: 'mallory',
        password: PASSWORD,
        confirm_password: PASSWORD,
      },
    }),
  },

  'POST /api/auth/register': {
    access: 'public',
    body: () => {
      const username = `reg${++registrations}`;
      return {
        json: {
          full_name: 'New One',
          email: `${username}@example.com`,
          username,
          password: PASSWORD,
          confirm_password: PASSWORD,
          role: 'buyer',
        },
      };
    },
  },
  'POST /api/auth/login': { access: 'public', body: () => ({ json: { username: 'ann', password: PASSWORD } }) },
  'POST /api/auth/verify-email': { access: 'public', body: () => ({ json: { token: 'x'.repeat(43) } }) },
  'GET /api/auth/me': { access: 'user' },
  'POST /api/auth/logout': { access: 'user', spareToken: true },
  'POST /api/auth/setup-2fa': { access: 'user' },
  'POST /api/auth/verify-2fa': { access: 'user', body: () => ({ form: { totp_code: '000000' } }) },
  'POST /api/auth/disable-2fa': { access: 'user', body: () => ({ form: { totp_code: '000000' } }) },
  'POST /api/auth/recovery-codes': { access: 'user', body: () => ({ form: { totp_code: '000000' } }) },
  'POST /api/auth/resend-verification': { access: 'user' },
  // The current password again: a well-formed call that changes nothing (422), so no session is signed out.
  'POST /api/auth/change-password': {
    access: 'user',
    body: () => ({ json: { current_password: PASSWORD, new_password: PASSWORD } }),
  },
  // Each caller asks for the role it has (422, nothing changes); the admin role cannot be switched at all.
  'POST /api/profile/switch-role': {
    access: 'user',
    deny: ['admin'],
    body: (f, who) => ({ form: { new_role: who === 'anonymous' || who === 'admin' ? 'buyer' : f.users[who].role } }),
  },

  'GET /api/reviews': { access: 'public' },
  'GET /api/reviews/stats': { access: 'public' },
  'GET /api/reviews/countries': { access: 'public' },
  'POST /api/reviews': {
    access: 'public',
    body: () => ({ json: { name: 'Matrix', country: 'Norway', rating: 5, text: 'Fine', terms_accepted: true } }),
  },

  'GET /api/admin/users': { access: 'admin' },
  'PUT /api/admin/users/{id}': {
    access: 'admin',
    id: (f) => f.victim,
    body: () => ({ form: { full_name: 'Vic Renamed' } }),
  },
  'POST /api/admin/users/{id}/suspend': {
    access: 'admin',
    id: (f) => f.victim,
    body: () => ({ form: { reason: 'Matrix check' } }),
  },
  'POST /api/admin/users/{id}/unsuspend': { access: 'admin', id: (f) => f.victim },
  'DELETE /api/admin/users/{id}': { access: 'admin', id: (f) => f.doomed },
  'POST /api/admin/users/{id}/reset-password': {
    access: 'admin',
    id: (f) => f.victim,
    body: () => ({ form: { temporary_password: 'temporary pass' } }),
  },
  // An empty reason: the admin passes the door and is refused for the field (422), so nothing is cancelled.
  'POST /api/admin/users/{id}/cancel-unpaid-escrows': {
    access: 'admin',
    id: (f) => f.victim,
    body: () => ({ form: { reason: ' ' } }),
  },

  'GET /api/admin/reviews/pending': { access: 'admin' },
  'GET /api/admin/reviews': { access: 'admin' },
  'POST /api/admin/reviews/{id}/approve': { access: 'admin', id: (f) => f.review },
  'POST /api/admin/reviews/{id}/reject': {
    access: 'admin',
    id: (f) => f.review,
    body: () => ({ form: { reason: 'Matrix check' } }),
  },
  'POST /api/admin/reviews/{id}/edit': {
    access: 'admin',
    id: (f) => f.review,
    body: () => ({ form: { edited_text: 'Edited', admin_note: 'Matrix' } }),
  },
  'POST /api/admin/reviews/{id}/reopen': { access: 'admin', id: (f) => f.review },
  'DELETE /api/admin/reviews/{id}': { access: 'admin', id: (f) => f.review },

  'PUT /api/admin/btc-rate': { access: 'admin', body: () => ({ form: { btc_usd_rate: '50000' } }) },
  'GET /api/admin/addresses': { access: 'admin' },
  'POST /api/admin/addresses': { access: 'admin', body: () => ({ form: { address_string: freshAddress() } }) },
  'POST /api/admin/addresses/bulk': { access: 'admin', body: () => ({ json: { addresses: [freshAddress()] } }) },
  'PUT /api/admin/addresses/{id}': {
    access: 'admin',
    id: (f) => f.address.id,
    body: (f) => ({ form: { address_string: f.address.address_string } }),
  },
  'DELETE /api/admin/addresses/{id}': { access: 'admin', id: (f) => f.address.id },

  'GET /api/admin/audit-logs': { access: 'admin' },
  'GET /api/admin/events': { access: 'admin' },
  'GET /api/admin/escrows/{id}/history': { access: 'admin', ...escrowId },
  'POST /api/admin/replay': { access: 'admin', body: () => ({ json: { swap: false } }) },
  'GET /api/admin/chain': { access: 'admin' },
  'GET /api/admin/events/export': { access: 'admin' },

  'GET /api/escrows': { access: 'user' },
  'POST /api/escrows': {
    access: 'user',
    deny: ['admin', 'unverified'], // Admins do not create escrows; an unverified e-mail may not open one.
    body: () => ({
      json: {
        product_service: 'Book',
        description: 'A used book',
        amount_usd: '20.00',
        buyer_email: 'ann@example.com',
        seller_email: 'sam@example.com',
      },
    }),
  },
  'GET /api/escrows/{id}': { access: 'party', ...escrowId },
  'GET /api/escrows/{id}/history': { access: 'party', ...escrowId },
  'GET /api/escrows/{id}/proof': { access: 'party', ...escrowId },
  'POST /api/escrows/{id}/request-payment': { access: 'party', deny: ['seller', 'admin'], ...escrowId },
  // ann (the buyer) created the escrow: sam, the counterparty, agrees or declines; the seller ships, the buyer receives.
  'POST /api/escrows/{id}/agree': { access: 'party', deny: ['buyer', 'admin'], ...escrowId },
  'POST /api/escrows/{id}/decline': {
    access: 'party',
    deny: ['buyer', 'admin'],
    ...escrowId,
    body: () => ({ json: { reason: 'Not now' } }),
  },
  'POST /api/escrows/{id}/ship': {
    access: 'party',
    deny: ['buyer', 'admin'],
    ...escrowId,
    body: () => ({ json: { method: 'digital' } }),
  },
  'POST /api/escrows/{id}/receive': { access: 'party', deny: ['seller', 'admin'], ...escrowId },
  // Settlement proposals are the two parties' own: an admin is refused by the escrow's rules.
  'POST /api/escrows/{id}/proposals': {
    access: 'party',
    deny: ['admin'],
    ...escrowId,
    body: () => ({ json: { kind: 'extend_deadline', days: 1 } }),
  },
  'POST /api/escrows/{id}/proposals/{pid}/accept': {
    access: 'party',
    deny: ['admin'],
    ...escrowId,
    pid: (f) => f.proposal,
  },
  'POST /api/escrows/{id}/proposals/{pid}/decline': {
    access: 'party',
    deny: ['admin'],
    ...escrowId,
    pid: (f) => f.proposal,
    body: () => ({ json: {} }),
  },
  'POST /api/escrows/{id}/proposals/{pid}/withdraw': {
    access: 'party',
    deny: ['admin'],
    ...escrowId,
    pid: (f) => f.proposal,
  },
  'POST /api/escrows/{id}/cancel': {
    access: 'party',
    deny: ['seller', 'admin'], // ann, the creator, only
    id: (f, who) => (who === 'unverified' ? f.unverifiedEscrow : f.cancellable),
  },
  'POST /api/escrows/{id}/confirm-receipt': { access: 'party', deny: ['seller', 'admin'], ...escrowId },
  'GET /api/escrows/{id}/address-message': { access: 'party', deny: ['admin'], ...escrowId },
  'POST /api/escrows/{id}/payout-address': {
    access: 'party',
    deny: ['admin'],
    ...escrowId,
    body: () => ({ json: { address: freshAddress() } }),
  },
  'POST /api/escrows/{id}/mark-paid': {
    access: 'party',
    deny: ['seller', 'admin'],
    ...escrowId,
    body: () => ({ multipart: { notes: 'Sent' } }),
  },
  'POST /api/escrows/{id}/open-dispute': {
    access: 'party',
    deny: ['admin'],
    ...escrowId,
    body: () => ({ json: { reason: 'Matrix check' } }),
  },
  'GET /api/escrows/{id}/messages': { access: 'party', ...escrowId },
  'POST /api/escrows/{id}/messages': { access: 'party', ...escrowId, body: () => ({ json: { text: 'Matrix check' } }) },
  'GET /api/evidence/{id}': { access: 'party', hidden: 'Evidence not found', id: (f) => f.evidence },

  'POST /api/admin/escrows/{id}/verify-payment': {
    access: 'admin',
    ...escrowId,
    body: () => ({ form: { verified: 'false', notes: 'Not seen' } }),
  },
  'POST /api/admin/escrows/{id}/payment-proof': {
    access: 'admin',
    ...escrowId,
    body: () => ({ form: { tx_hex: '00', txout_proof: '00' } }),
  },
  'POST /api/admin/escrows/{id}/release': { access: 'admin', ...escrowId, body: () => ({ form: { notes: '' } }) },
  'POST /api/admin/escrows/{id}/refund': { access: 'admin', ...escrowId, body: () => ({ form: { notes: '' } }) },
  'POST /api/admin/escrows/{id}/freeze': {
    access: 'admin',
    ...escrowId,
    body: () => ({ form: { reason: 'Matrix check' } }),
  },
  'POST /api/admin/escrows/{id}/unfreeze': {
    access: 'admin',
    ...escrowId,
    body: () => ({ form: { reason: 'Matrix check' } }),
  },
  'POST /api/admin/escrows/{id}/assign-address': {
    access: 'admin',
    ...escrowId,
    body: (f) => ({ form: { address_id: f.freeAddress } }),
  },
  'POST /api/admin/escrows/{id}/resolve': { access: 'admin', ...escrowId, body: () => ({ form: {} }) },
  'POST /api/admin/escrows/{id}/cancel': { access: 'admin', ...escrowId, body: () => ({ form: { reason: ' ' } }) },
  'POST /api/admin/disputes/{id}/resolve': {
    access: 'admin',
    id: (f) => f.dispute,
    body: () => ({ form: { outcome: 'Matrix check' } }),
  },
  'GET /api/admin/disputes': { access: 'admin' },
  'GET /api/admin/escrows': { access: 'admin' },
  'GET /api/admin/pending-verifications': { access: 'admin' },

  // Integrations: webhooks, API tokens. A caller's own objects; unrelated and uma are shown ann's, which they may
  // not see (404, as for none).
  'GET /api/webhooks': { access: 'user' },
  'POST /api/webhooks': {
    access: 'user',
    body: () => ({ json: { url: 'http://93.184.216.34/hook', event_types: ['escrow.created'] } }),
  },
  'POST /api/webhooks/{id}/disable': {
    access: 'party',
    hidden: 'Webhook endpoint not found',
    id: (f, who) => mineOf(f, who).webhook,
  },
  'POST /api/webhooks/{id}/enable': {
    access: 'party',
    hidden: 'Webhook endpoint not found',
    id: (f, who) => mineOf(f, who).webhook,
  },
  'POST /api/webhooks/{id}/test': {
    access: 'party',
    hidden: 'Webhook endpoint not found',
    id: (f, who) => mineOf(f, who).webhook,
  },
  'GET /api/webhooks/{id}/deliveries': {
    access: 'party',
    hidden: 'Webhook endpoint not found',
    id: (f, who) => mineOf(f, who).webhook,
  },
  'DELETE /api/webhooks/{id}': {
    access: 'party',
    hidden: 'Webhook endpoint not found',
    id: (f, who) => mineOf(f, who).doomedWebhook,
  },
  'POST /api/webhooks/deliveries/{id}/redeliver': {
    access: 'party',
    hidden: 'Webhook delivery not found',
    id: (f, who) => String(mineOf(f, who).delivery),
  },
  'GET /api/admin/webhooks': { access: 'admin' },
  'POST /api/admin/webhooks': {
    access: 'admin',
    body: () => ({ json: { url: 'http://93.184.216.34/hook', event_types: ['escrow.created'] } }),
  },
  'POST /api/admin/webhooks/{id}/disable': { access: 'admin', id: (f) => f.adminHooks.webhook },
  'POST /api/admin/webhooks/{id}/enable': { access: 'admin', id: (f) => f.adminHooks.webhook },
  'POST /api/admin/webhooks/{id}/test': { access: 'admin', id: (f) => f.adminHooks.webhook },
  'GET /api/admin/webhooks/{id}/deliveries': { access: 'admin', id: (f) => f.adminHooks.webhook },
  'DELETE /api/admin/webhooks/{id}': { access: 'admin', id: (f) => f.adminHooks.doomedWebhook },
  'POST /api/admin/webhooks/deliveries/{id}/redeliver': { access: 'admin', id: (f) => String(f.adminHooks.delivery) },
  'GET /api/admin/reports/escrows.csv': { access: 'admin' },
  'GET /api/admin/reports/payouts.csv': { access: 'admin' },
  'GET /api/admin/reports/fees.csv': { access: 'admin' },
  'GET /api/admin/reports/overview': { access: 'admin' },
  'GET /api/tokens': { access: 'user' },
  'POST /api/tokens': { access: 'user', deny: ['admin'], body: () => ({ json: { name: 'Matrix', scopes: ['read'] } }) },
  'DELETE /api/tokens/{id}': {
    access: 'party',
    hidden: 'API token not found',
    id: (f, who) => mineOf(f, who).apiToken,
  },
};

/** A caller's own integration objects; unrelated and uma get ann's. */
function mineOf(f: Fixtures, who: Caller): IntegrationObjects {
  return who === 'anonymous' || who === 'unrelated' || who === 'unverified' ? f.mine.buyer : f.mine[who];
}

/** "METHOD /path/{param}" for every handler the app registered under /api (middleware and the catch-all are 'ALL'). */
function routesOf(app: TestApp['app']): string[] {
  const routes = app.routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
    .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
  return [...new Set(routes)];
}

type Outcome = { allowed: true } | { allowed: false; status: 401 | 403 | 404; detail?: string };

function expected(entry: Entry, who: Caller): Outcome {
  if (who === 'suspended') return { allowed: false, status: 403, detail: 'Account suspended' };
  if (entry.access === 'public') return { allowed: true };
  if (who === 'anonymous') return { allowed: false, status: 401, detail: 'Not signed in' };
  if (entry.access === 'admin' && who !== 'admin') return { allowed: false, status: 403, detail: 'Admins only' };
  if (entry.access === 'party' && (who === 'unrelated' || who === 'unverified')) {
    return { allowed: false, status: 404, detail: entry.hidden ?? 'Escrow not found' };
  }
  if (entry.deny?.includes(who)) return { allowed: false, status: 403 };
  return { allowed: true };
}

const label = (o: Outcome) => (o.allowed ? 'allowed' : String(o.status));
/** [name, case]: named like "POST /api/escrows/{id}/cancel as unrelated -> 404". */
const CASES = Object.entries(ROUTES).flatMap(([route, entry]) =>
  CALLERS.map((who) => [`${route} as ${who} -> ${label(expected(entry, who))}`, { route, entry, who }] as const),
);

let t: TestApp;
let f: Fixtures;

function requestFor(route: string, entry: Entry, who: Caller, id?: string): [string, RequestInit] {
  const [method, template] = route.split(' ') as [string, string];
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'pid' && entry.pid) return entry.pid(f);
    if (name !== 'id' || !entry.id) throw new Error(`${route}: no fixture for {${name}}; give its entry an id`);
    return id ?? entry.id(f, who);
  });
  const token = who === 'anonymous' ? undefined : entry.spareToken ? f.users[who].spare : f.users[who].token;
  const body = entry.body?.(f, who);
  if (!body) return [path, token ? bearer(token, method) : { method }];
  if ('json' in body) return [path, { ...json(body.json, token), method }];
  if ('form' in body) return [path, form(body.form, token, method)];
  return [path, { ...multipart(body.multipart, token), method }];
}

/** A fresh code of the admin's authenticator: each 30-second step is accepted once. */
let adminCode: () => Promise<string>;
const withCode = async (init: RequestInit): Promise<RequestInit> => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), 'x-totp-code': await adminCode() },
});

async function call(route: string, entry: Entry, who: Caller, id?: string) {
  const [path, init] = requestFor(route, entry, who, id);
  const res = await t.app.request(path, who === 'admin' ? await withCode(init) : init);
  const text = await res.text();
  let detail: unknown;
  if (res.status >= 400) {
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
  }
  return { status: res.status, detail, text };
}

const KEY_FILE = fileURLToPath(new URL('../testing/fixtures/support-key.asc', import.meta.url));
const LIMIT = '100000';

beforeAll(async () => {
  t = await openTestApp({
    PGP_PUBLIC_KEY_FILE: KEY_FILE,
    RATE_LIMIT_LOGIN: LIMIT,
    RATE_LIMIT_REGISTER: LIMIT,
    RATE_LIMIT_REVIEWS: LIMIT,
    RATE_LIMIT_CONTACT: LIMIT,
    MAX_UNPAID_ESCROWS: LIMIT,
    ADMIN_2FA_REQUIRED: undefined, // the default: on
  });
  const ok = async (res: Response | Promise<Response>, status = 200) => {
    const answer = await res;
    if (answer.status !== status) throw new Error(`fixture: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as Record<string, unknown> & { id: string };
  };
  // The market of openMarket, the admin acting with 2FA: a rate, one pool address for each escrow below, ann and sam.
  const admin = await signedInAdmin(t);
  const { secret } = await enableTwoFactorFor(t, admin.token);
  adminCode = () => freshCode(t, admin.id, secret);
  await ok(t.app.request('/api/admin/btc-rate', await withCode(form({ btc_usd_rate: '50000' }, admin.token, 'PUT'))));
  for (let i = 0; i < 5; i++)
    await ok(
      t.app.request('/api/admin/addresses', await withCode(form({ address_string: freshAddress() }, admin.token))),
      201,
    );
  const buyer = await signedInUser(t, 'ann', 'buyer');
  const seller = await signedInUser(t, 'sam', 'seller');
  await verifyEmailOf(t, 'ann');
  await verifyEmailOf(t, 'sam');
  const deal = (counterparty: string) =>
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: counterparty },
      buyer.token,
    );

  const unrelated = await signedInUser(t, 'ulf', 'buyer');
  await ok(
    t.app.request(
      '/api/auth/verify-email',
      json({ token: tokenInMail((await lastMailTo(t, 'ulf@example.com')).body) }),
    ),
  );
  const unverified = await signedInUser(t, 'uma', 'seller');
  const suspended = await signedInUser(t, 'sue', 'buyer');
  const victim = await signedInUser(t, 'vic', 'buyer');
  const doomed = await signedInUser(t, 'dee', 'buyer');

  const escrow = await ok(t.app.request('/api/escrows', deal('sam@example.com')), 201);
  const proposed = await ok(
    t.app.request(`/api/escrows/${escrow.id}/proposals`, json({ kind: 'extend_deadline', days: 2 }, seller.token)),
  );
  const proposal = (proposed.proposals as { id: string }[])[0]!.id;
  await ok(t.app.request(`/api/escrows/${escrow.id}/proposals/${proposal}/withdraw`, bearer(seller.token, 'POST')));
  const unverifiedEscrow = await ok(t.app.request('/api/escrows', deal('uma@example.com')), 201);
  const cancellable = await ok(t.app.request('/api/escrows', deal('sam@example.com')), 201);
  const withEvidence = await ok(t.app.request('/api/escrows', deal('sam@example.com')), 201);
  const receipt = new File(['txid 4a5e1e4b, sent 0.0203 BTC\n'], 'receipt.txt', { type: 'text/plain' });
  await ok(
    t.app.request(
      `/api/escrows/${withEvidence.id}/mark-paid`,
      multipart({ notes: 'Sent', file: receipt }, buyer.token),
    ),
  );
  const evidence = await t.database.db
    .selectFrom('payment_evidence')
    .select('evidence_id')
    .where('escrow_id', '=', withEvidence.id)
    .executeTakeFirstOrThrow();
  const disputed = await ok(t.app.request('/api/escrows', deal('sam@example.com')), 201);
  await ok(
    t.app.request(`/api/escrows/${disputed.id}/open-dispute`, json({ reason: 'Nothing arrived' }, seller.token)),
  );
  const dispute = await t.database.db
    .selectFrom('disputes')
    .select('id')
    .where('escrow_id', '=', disputed.id)
    .executeTakeFirstOrThrow();
  const review = await ok(
    t.app.request(
      '/api/reviews',
      json({ name: 'Rita', country: 'Norway', rating: 5, text: 'Smooth deal', terms_accepted: true }),
    ),
    201,
  );
  const address = await ok(
    t.app.request('/api/admin/addresses', await withCode(form({ address_string: freshAddress() }, admin.token))),
    201,
  );
  const freeAddress = await ok(
    t.app.request('/api/admin/addresses', await withCode(form({ address_string: freshAddress() }, admin.token))),
    201,
  );

  // Suspended through the admin route, which signs the user out everywhere; the sessions below stand for tokens that
  // outlived it (issued in a race, or restored from a backup): the middleware must still refuse them.
  await ok(
    t.app.request(
      `/api/admin/users/${suspended.id}/suspend`,
      await withCode(form({ reason: 'Chargeback fraud' }, admin.token)),
    ),
  );
  const suspendedTokens = [
    await openSession(t.database.db, suspended.id),
    await openSession(t.database.db, suspended.id),
  ] as const;

  // A signed checkpoint covering the fixtures, for the transparency routes.
  await t.deps.transparency!.introduceKey(t.deps.store);
  await t.deps.transparency!.signIfGrown();
  f = {
    escrow: escrow.id,
    unverifiedEscrow: unverifiedEscrow.id,
    cancellable: cancellable.id,
    evidence: evidence.evidence_id,
    dispute: dispute.id,
    proposal,
    review: review.id,
    address: { id: address.id, address_string: address.address_string as string },
    freeAddress: freeAddress.id,
    victim: victim.id,
    doomed: doomed.id,
    users: {
      buyer: { ...buyer, spare: await signIn(t, 'ann'), role: 'buyer' },
      seller: { ...seller, spare: await signIn(t, 'sam'), role: 'seller' },
      unrelated: { ...unrelated, spare: await signIn(t, 'ulf'), role: 'buyer' },
      unverified: { ...unverified, spare: await signIn(t, 'uma'), role: 'seller' },
      suspended: { id: suspended.id, token: suspendedTokens[0], spare: suspendedTokens[1], role: 'buyer' },
      admin: { ...admin, spare: await signIn(t, 'root', PASSWORD, await adminCode()), role: 'admin' },
    },
    mine: {
      buyer: await integrationObjects(t, buyer.id, 'user'),
      seller: await integrationObjects(t, seller.id, 'user'),
      unrelated: await integrationObjects(t, unrelated.id, 'user'),
      unverified: await integrationObjects(t, unverified.id, 'user'),
      suspended: await integrationObjects(t, suspended.id, 'user'),
      admin: await integrationObjects(t, admin.id, 'user'),
    },
    adminHooks: await integrationObjects(t, admin.id, 'admin'),
  };
  // The fixtures are what their names say.
  const me = async (token: string) =>
    (await t.app.request('/api/auth/me', bearer(token))).json() as Promise<{ email_verified: boolean }>;
  expect((await me(f.users.unrelated.token)).email_verified).toBe(true);
  expect((await me(f.users.unverified.token)).email_verified).toBe(false);
  expect((await t.app.request('/api/auth/me', bearer(suspended.token))).status).toBe(401);
});
afterAll(async () => t.close());

describe('the route table', () => {
  it('has exactly one entry per route of the app: a new route needs its line in ROUTES', () => {
    const inApp = routesOf(t.app);
    const missing = inApp.filter((route) => !(route in ROUTES));
    const stale = Object.keys(ROUTES).filter((route) => !inApp.includes(route));
    expect(missing, `routes of the app with no entry in the authorisation matrix: ${missing.join(', ')}`).toEqual([]);
    expect(stale, `entries of the authorisation matrix for no route of the app: ${stale.join(', ')}`).toEqual([]);
  });

  it('names a fixture for every path parameter', () => {
    const unnamed = Object.entries(ROUTES)
      .filter(([route, entry]) => route.includes('{') && !entry.id)
      .map(([route]) => route);
    expect(unnamed).toEqual([]);
  });
});

describe('every route x every caller', () => {
  it.each(CASES)('%s', async (_name, { route, entry, who }) => {
    const want = expected(entry, who);
    const got = await call(route, entry, who);
    const seen = `${route} as ${who}: ${got.status} ${got.text.slice(0, 200)}`;
    expect(got.status, seen).toBeLessThan(500);
    if (got.status >= 400) expect(typeof got.detail, seen).toBe('string');
    if (want.allowed) {
      expect([401, 403, 404], seen).not.toContain(got.status);
    } else {
      expect(got.status, seen).toBe(want.status);
      if (want.detail) expect(got.detail, seen).toBe(want.detail);
    }
  });
});

/** Another user's object answers exactly as an object that does not exist: nothing tells a caller it is there. */
const OBJECT_CASES = Object.entries(ROUTES)
  .filter(([route, entry]) => route.includes('{id}') && entry.access !== 'public')
  .flatMap(([route, entry]) =>
    (['unrelated', 'unverified'] as const).map((who) => {
      const outcome = entry.access === 'party' ? 404 : 403;
      return [
        `${route} as ${who} with another user's id -> ${outcome}, the same as for no such object`,
        { route, entry, who, outcome },
      ] as const;
    }),
  );

describe("someone else's object id", () => {
  it.each(OBJECT_CASES)('%s', async (_name, { route, entry, who, outcome }) => {
    const theirs = await call(route, entry, who);
    const none = await call(route, entry, who, randomUUID());
    expect(theirs.status, `${route} as ${who}: ${theirs.text}`).toBe(outcome);
    expect({ status: theirs.status, detail: theirs.detail }).toEqual({ status: none.status, detail: none.detail });
  });
});

/**
 * API tokens against every route: ann's read token, her read-and-write token and a revoked one. A token never
 * reaches admin routes, the tokens, sign-in, password, 2FA or the profile (403, whatever its scopes; GET
 * /api/auth/me excepted); a read token only GETs (403 otherwise); within those, a token is ann; a revoked token is
 * no one (401 where a user is needed).
 */
const TOKEN_KINDS = ['read token', 'write token', 'revoked token'] as const;
type TokenKind = (typeof TOKEN_KINDS)[number];
const OUT_OF_REACH = /^\/api\/(admin|tokens|auth|profile|setup)(\/|$)/;

function expectedWithToken(route: string, entry: Entry, kind: TokenKind): Outcome {
  if (kind === 'revoked token') return expected(entry, 'anonymous');
  const [method, path] = route.split(' ') as [string, string];
  if (OUT_OF_REACH.test(path) && route !== 'GET /api/auth/me')
    return {
      allowed: false,
      status: 403,
      detail:
        'API tokens cannot be used here: admin routes, tokens, sign-in, password and 2FA need a signed-in session',
    };
  if (kind === 'read token' && method !== 'GET')
    return { allowed: false, status: 403, detail: 'This API token has no write scope' };
  return expected(entry, 'buyer');
}

const TOKEN_CASES = Object.entries(ROUTES).flatMap(([route, entry]) =>
  TOKEN_KINDS.map(
    (kind) =>
      [
        `${route} with ann's ${kind} -> ${label(expectedWithToken(route, entry, kind))}`,
        { route, entry, kind },
      ] as const,
  ),
);

describe('every route x API token scopes', () => {
  let tokens: Record<TokenKind, string>;
  beforeAll(async () => {
    const made = await matrixApiTokens(t, { id: f.users.buyer.id, role: 'buyer' });
    tokens = { 'read token': made.read, 'write token': made.write, 'revoked token': made.revoked };
    f.mine.buyer = await integrationObjects(t, f.users.buyer.id, 'user'); // the ones above were deleted by ann's session
  });

  it.each(TOKEN_CASES)('%s', async (_name, { route, entry, kind }) => {
    const want = expectedWithToken(route, entry, kind);
    const [path, init] = requestFor(route, entry, 'buyer');
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${tokens[kind]}`);
    const res = await t.app.request(path, { ...init, headers });
    const text = await res.text();
    const seen = `${route} with ${kind}: ${res.status} ${text.slice(0, 200)}`;
    expect(res.status, seen).toBeLessThan(500);
    if (want.allowed) {
      expect([401, 403, 404], seen).not.toContain(res.status);
    } else {
      expect(res.status, seen).toBe(want.status);
      if (want.detail) expect((JSON.parse(text) as { detail?: string }).detail, seen).toBe(want.detail);
    }
  });

  it('a token of an account made admin since carries nothing', async () => {
    const made = await matrixApiTokens(t, { id: f.users.seller.id, role: 'seller' });
    await t.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', f.users.seller.id).execute();
    try {
      const res = await t.app.request('/api/escrows', bearer(made.write));
      expect(res.status).toBe(403);
    } finally {
      await t.database.db.updateTable('users').set({ role: 'seller' }).where('id', '=', f.users.seller.id).execute();
    }
  });
});
