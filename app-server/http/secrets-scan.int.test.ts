import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSetupLink } from '../accounts/first-admin-setup.ts';
import { normaliseRecoveryCode } from '../accounts/second-factor.ts';
import { hashToken } from '../auth/tokens.ts';
import { exportEvents } from '../event-store/export.ts';
import { bearer, codeFor, form, json, lastMailTo, tokenInMail } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * One realistic session through the whole app, then a scan: no password, password hash, TOTP secret, recovery code
 * or token (nor a hash of one) may appear in any event, the NDJSON export, any log line, any response (body and
 * headers) but the one that hands that secret to its owner, or any table not made to hold it. Mail is exempt: it is
 * how one-time tokens reach people.
 */

const unique = (label: string) => `${label} ${randomBytes(6).toString('hex')}`;
const ADMIN_PASSWORD = unique('admin pass');
const ANN_PASSWORD = unique('ann first pass');
const SAM_PASSWORD = unique('sam pass');
const WRONG_PASSWORD = unique('ann typo pass');
const SHORT_PASSWORD = `Sh${randomBytes(2).toString('hex')}`; // refused as too short: still a password someone typed
const MISMATCHED_PASSWORD = unique('mismatch pass');
const NEW_PASSWORD = unique('ann second pass');
const TEMPORARY_PASSWORD = unique('temporary pass');
const FINAL_PASSWORD = unique('ann final pass');

/** Tables made to hold a secret or its hash (or mail, which carries one-time tokens): not scanned. */
const SECRET_TABLES = new Set([
  'credentials',
  'setup_tokens',
  'sessions',
  'email_tokens',
  'totp_secrets',
  'recovery_codes',
  'mail_outbox',
]);

interface Seen {
  call: string;
  status: number;
  /** Headers and body as text. */
  text: string;
}

let t: TestApp;
/** Every answer the app gave during the session, in order. */
const responses: Seen[] = [];
/** Every secret, by what it is; and which response (by index) legitimately handed it over, if any. */
const secrets = new Map<string, string>();
const handedOverIn = new Map<string, number>();
/** Tokens and codes the database keeps as their SHA-256: those hashes are scanned for too. */
const hashedForms: [string, string][] = [];
/** The export as GET /api/admin/events/export streamed it at the end of the session. */
let httpExport = '';

const keep = (label: string, value: string) => {
  expect(value.length, `${label} is long enough to scan for`).toBeGreaterThanOrEqual(6);
  secrets.set(value, label);
};
/** The last response handed `value` to its owner: it may (and must) contain it there, nowhere else. */
const handedOver = (label: string, value: string) => {
  keep(label, value);
  const index = responses.length - 1;
  expect(responses[index]!.text, `${label} is in the response that hands it over`).toContain(value);
  handedOverIn.set(value, index);
};

beforeAll(async () => {
  t = await openTestApp({ RATE_LIMIT_LOGIN: '100000', RATE_LIMIT_REGISTER: '100000' });
  const original = t.app.request.bind(t.app);
  const recording = async (input: string | Request | URL, init?: RequestInit) => {
    const res = await original(input, init);
    const headers = [...res.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    responses.push({
      call: `${init?.method ?? 'GET'} ${String(input)}`,
      status: res.status,
      text: `${headers}\n\n${await res.clone().text()}`,
    });
    return res;
  };
  t.app.request = recording as typeof t.app.request;
  await session();
});
afterAll(async () => t?.close());

async function call(path: string, init?: RequestInit) {
  const res = await t.app.request(path, init);
  const text = await res.text();
  const isJson = res.headers.get('content-type')?.startsWith('application/json') ?? false;
  return { status: res.status, text, body: (isJson ? JSON.parse(text) : {}) as Record<string, unknown> };
}
async function login(username: string, password: string, totp_code?: string, headers: Record<string, string> = {}) {
  const res = await call(
    '/api/auth/login',
    json({ username, password, ...(totp_code ? { totp_code } : {}) }, undefined, headers),
  );
  expect(res.status, `login ${username}: ${res.text}`).toBe(200);
  const token = res.body.access_token as string;
  handedOver(`session token of ${username}`, token);
  hashedForms.push([`session token of ${username}`, token]);
  return token;
}
async function register(username: string, password: string, role: 'buyer' | 'seller') {
  const res = await call(
    '/api/auth/register',
    json({
      full_name: `${username} Example`,
      email: `${username}@example.com`,
      username,
      password,
      confirm_password: password,
      role,
    }),
  );
  expect(res.status).toBe(201);
}
async function verifyEmail(username: string) {
  const token = tokenInMail((await lastMailTo(t, `${username}@example.com`)).body);
  keep(`e-mail verification token of ${username}`, token);
  hashedForms.push([`e-mail verification token of ${username}`, token]);
  expect((await call('/api/auth/verify-email', json({ token }))).status).toBe(200);
}
async function collectHashes() {
  for (const row of await t.database.db.selectFrom('credentials').select(['user_id', 'password_hash']).execute())
    keep(`password hash of ${row.user_id}`, row.password_hash);
  for (const row of await t.database.db.selectFrom('totp_secrets').select(['user_id', 'secret_encrypted']).execute())
    keep(`sealed TOTP secret of ${row.user_id}`, row.secret_encrypted);
  for (const row of await t.database.db.selectFrom('recovery_codes').select('code_hash').execute())
    keep('recovery code hash', row.code_hash);
}

/** The session: every call a user and an admin make in a life of an account, refused ones included. */
async function session() {
  // The operator's admin, and the figures escrows need.
  // The first start: the operator opens the one-time setup link and creates the admin there.
  const setupToken = new URL((await issueSetupLink(t.deps))!).searchParams.get('token')!;
  keep('setup link token', setupToken);
  hashedForms.push(['setup link token', setupToken]);
  keep('admin password', ADMIN_PASSWORD);
  expect((await call('/api/setup/status', json({ token: setupToken }))).body).toEqual({
    valid: true,
    admin_2fa_required: false,
  });
  const firstAdmin = await call(
    '/api/setup/admin',
    json({
      token: setupToken,
      full_name: 'Root Admin',
      email: 'root@example.com',
      username: 'root',
      password: ADMIN_PASSWORD,
      confirm_password: ADMIN_PASSWORD,
    }),
  );
  expect(firstAdmin.status).toBe(201);
  handedOver('session token of the setup', firstAdmin.body.access_token as string);
  expect(
    (
      await call(
        '/api/setup/admin',
        json({
          token: setupToken,
          full_name: 'Root Admin',
          email: 'root2@example.com',
          username: 'root2',
          password: ADMIN_PASSWORD,
          confirm_password: ADMIN_PASSWORD,
        }),
      )
    ).status,
  ).toBe(409);
  const admin = await login('root', ADMIN_PASSWORD);
  expect((await call('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin, 'PUT'))).status).toBe(200);

  // Registration, refused and accepted.
  for (const [label, value] of [
    ['wrong password', WRONG_PASSWORD],
    ['too short password', SHORT_PASSWORD],
    ['mismatched confirmation', MISMATCHED_PASSWORD],
    ['ann password', ANN_PASSWORD],
    ['sam password', SAM_PASSWORD],
    ['ann new password', NEW_PASSWORD],
    ['temporary password', TEMPORARY_PASSWORD],
    ['ann final password', FINAL_PASSWORD],
  ] as const) {
    keep(label, value);
  }
  const short = await call(
    '/api/auth/register',
    json({
      full_name: 'Ann',
      email: 'ann@example.com',
      username: 'ann',
      password: SHORT_PASSWORD,
      confirm_password: SHORT_PASSWORD,
    }),
  );
  expect(short.status).toBe(422);
  const mismatch = await call(
    '/api/auth/register',
    json({
      full_name: 'Ann',
      email: 'ann@example.com',
      username: 'ann',
      password: ANN_PASSWORD,
      confirm_password: MISMATCHED_PASSWORD,
    }),
  );
  expect([mismatch.status, mismatch.body.detail]).toEqual([422, 'confirm_password: Passwords do not match']);
  await register('ann', ANN_PASSWORD, 'buyer');
  await register('sam', SAM_PASSWORD, 'seller');
  const taken = await call(
    '/api/auth/register',
    json({
      full_name: 'Ann',
      email: 'ann2@example.com',
      username: 'ann',
      password: ANN_PASSWORD,
      confirm_password: ANN_PASSWORD,
    }),
  );
  expect(taken.status).toBe(409);
  await collectHashes();

  // E-mail verification: a wrong token, then the mailed ones.
  expect((await call('/api/auth/verify-email', json({ token: 'x'.repeat(43) }))).status).toBe(422);
  await verifyEmail('ann');
  await verifyEmail('sam');

  // Signing in: a wrong password, then right, with an Idempotency-Key as a careful API client sends on a POST.
  const typo = await call('/api/auth/login', json({ username: 'ann', password: WRONG_PASSWORD }));
  expect([typo.status, typo.body.detail]).toEqual([401, 'Invalid username or password']);
  const nobody = await call('/api/auth/login', json({ username: 'nobody', password: ANN_PASSWORD }));
  expect(nobody.status).toBe(401);
  const first = await login('ann', ANN_PASSWORD, undefined, { 'idempotency-key': 'ann-login-1' });
  expect((await call('/api/auth/me', bearer(first))).status).toBe(200);
  const sam = await login('sam', SAM_PASSWORD);

  // 2FA: enrol, a wrong code, confirm; recovery codes are shown once.
  const setup = await call('/api/auth/setup-2fa', {
    ...bearer(first, 'POST'),
    headers: { authorization: `Bearer ${first}`, 'idempotency-key': 'ann-2fa-setup' },
  });
  expect(setup.status).toBe(200);
  const totpSecret = setup.body.secret as string;
  handedOver('TOTP secret of ann', totpSecret);
  const wrongCode = await call(
    '/api/auth/verify-2fa',
    form({ totp_code: codeFor(totpSecret, new Date(Date.now() - 10 * 60_000)) }, first),
  );
  expect([wrongCode.status, wrongCode.body.detail]).toEqual([422, 'Invalid 2FA code']);
  const enabling = form({ totp_code: codeFor(totpSecret) }, first);
  const enabled = await call('/api/auth/verify-2fa', {
    ...enabling,
    headers: { ...enabling.headers, 'idempotency-key': 'ann-2fa-verify' },
  });
  expect(enabled.status).toBe(200);
  const recoveryCodes = enabled.body.recovery_codes as string[];
  expect(recoveryCodes).toHaveLength(10);
  recoveryCodes.forEach((code, i) => {
    handedOver(`recovery code ${i} of ann`, code);
    keep(`recovery code ${i} of ann, without dashes`, normaliseRecoveryCode(code));
    hashedForms.push([`recovery code ${i} of ann`, normaliseRecoveryCode(code)]);
  });
  await collectHashes();

  // Signing in with 2FA on: no code, a wrong code, a recovery code, a TOTP code.
  const noCode = await call('/api/auth/login', json({ username: 'ann', password: ANN_PASSWORD }));
  expect([noCode.status, noCode.body.detail]).toEqual([401, '2FA code required']);
  const badCode = await call(
    '/api/auth/login',
    json({ username: 'ann', password: ANN_PASSWORD, totp_code: 'AAAA-BBBB-CCCC-DDDD' }),
  );
  expect([badCode.status, badCode.body.detail]).toEqual([401, 'Invalid username, password or 2FA code']);
  const second = await login('ann', ANN_PASSWORD, recoveryCodes[0]);
  await login('ann', ANN_PASSWORD, codeFor(totpSecret, new Date(Date.now() + 30_000)));

  // An escrow (2FA asked for), seen by both parties and the admin.
  const noSecondFactor = await call(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '100.00', seller_email: 'sam@example.com' },
      second,
    ),
  );
  expect(noSecondFactor.status).toBe(422);
  const escrow = await call(
    '/api/escrows',
    json(
      {
        product_service: 'Camera',
        description: 'Mirrorless',
        amount_usd: '100.00',
        seller_email: 'sam@example.com',
        totp_code: recoveryCodes[1],
      },
      second,
    ),
  );
  expect(escrow.status).toBe(201);
  const escrowId = escrow.body.id as string;
  expect((await call(`/api/escrows/${escrowId}`, bearer(sam))).status).toBe(200);
  expect((await call('/api/escrows', bearer(second))).status).toBe(200);

  // Changing the password: the wrong current one, then right; other sessions are signed out.
  const wrongCurrent = await call(
    '/api/auth/change-password',
    json({ current_password: WRONG_PASSWORD, new_password: NEW_PASSWORD }, second),
  );
  expect(wrongCurrent.status).toBe(403);
  expect(
    (
      await call(
        '/api/auth/change-password',
        json({ current_password: ANN_PASSWORD, new_password: NEW_PASSWORD }, second),
      )
    ).status,
  ).toBe(200);
  expect((await call('/api/auth/me', bearer(first))).status).toBe(401);
  await collectHashes();

  // There is no self-service reset: an admin sets a temporary password, the user signs in and replaces it.
  const annId = (
    await t.database.db.selectFrom('users').select('id').where('username', '=', 'ann').executeTakeFirstOrThrow()
  ).id;
  const tooShortReset = await call(
    `/api/admin/users/${annId}/reset-password`,
    form({ temporary_password: SHORT_PASSWORD }, admin),
  );
  expect(tooShortReset.status).toBe(422);
  expect(
    (await call(`/api/admin/users/${annId}/reset-password`, form({ temporary_password: TEMPORARY_PASSWORD }, admin)))
      .status,
  ).toBe(200);
  await collectHashes();
  const afterReset = await login('ann', TEMPORARY_PASSWORD, recoveryCodes[2]);
  expect(
    (
      await call(
        '/api/auth/change-password',
        json({ current_password: TEMPORARY_PASSWORD, new_password: FINAL_PASSWORD }, afterReset),
      )
    ).status,
  ).toBe(200);
  await collectHashes();

  // Switching 2FA off with a recovery code, a wrong one first; then signing out.
  expect((await call('/api/auth/disable-2fa', form({ totp_code: '1234-5678-9ABC-DEF0' }, afterReset))).status).toBe(
    422,
  );
  expect((await call('/api/auth/disable-2fa', form({ totp_code: recoveryCodes[3]! }, afterReset))).status).toBe(200);
  const last = await login('ann', FINAL_PASSWORD);
  expect((await call('/api/auth/logout', bearer(last, 'POST'))).status).toBe(200);
  expect((await call('/api/auth/me', bearer(last))).status).toBe(401);
  expect((await call('/api/auth/login', json({ username: 'ann', password: ANN_PASSWORD }))).status).toBe(401);

  // What an admin can read: users, audit log, raw events, an escrow's history, the chain, the export.
  for (const path of [
    '/api/admin/users',
    '/api/admin/audit-logs',
    '/api/admin/events',
    `/api/admin/escrows/${escrowId}/history`,
    '/api/admin/chain',
  ]) {
    expect((await call(path, bearer(admin))).status, path).toBe(200);
  }
  const exported = await call('/api/admin/events/export', bearer(admin));
  expect(exported.status).toBe(200);
  httpExport = exported.text;

  // Every token and code as the database keeps it (hashed): those hashes must not travel either.
  for (const row of await t.database.db.selectFrom('sessions').select('token_hash').execute())
    keep('session token hash', row.token_hash);
  for (const row of await t.database.db.selectFrom('email_tokens').select('token_hash').execute())
    keep('e-mail token hash', row.token_hash);
  for (const [label, value] of hashedForms) keep(`${label}, hashed as stored`, hashToken(value));
}

/**
 * The Idempotency-Key middleware keeps the first answer to a POST in plain text to replay it. For the calls that hand
 * out a secret (login: the bearer token; setup-2fa: the TOTP secret; verify-2fa: the recovery codes) that puts the
 * secret at rest in idempotency_keys.response_body, where the sessions, totp_secrets and recovery_codes tables only
 * ever keep a hash or a sealed copy. Scanned on its own so the rest of the scan stays strict.
 */
const KNOWN_LEAK_TABLE = 'idempotency_keys';

/** Every place `secret` appears but the response that handed it over: `label in place` lines. */
function leaksIn(places: readonly [string, string][]) {
  const leaks: string[] = [];
  let checks = 0;
  for (const [where, text] of places) {
    const responseIndex = where.startsWith('response ') ? Number(where.split(' ')[1]) : -1;
    for (const [secret, label] of secrets) {
      if (handedOverIn.get(secret) === responseIndex) continue;
      checks += 1;
      if (text.includes(secret)) leaks.push(`${label} in ${where}`);
    }
  }
  return { leaks, checks };
}

const tableText = async (table: string) => {
  const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(t.database.db);
  return rows.rows.map((row) => JSON.stringify(row)).join('\n');
};

describe('secrets produced by a whole session', () => {
  it('stay out of events, the export, log lines, every other response and every table not made for them', async () => {
    const events = await sql<Record<string, unknown>>`SELECT * FROM events ORDER BY position`.execute(t.database.db);
    let exported = '';
    await exportEvents(t.database.db, (chunk) => {
      exported += chunk;
    });
    const tables = await sql<{
      tablename: string;
    }>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%' ORDER BY tablename`.execute(
      t.database.db,
    );
    const places: [string, string][] = [
      ['the event log (every column)', events.rows.map((row) => JSON.stringify(row)).join('\n')],
      ['the NDJSON export (exportEvents)', exported],
      ['the NDJSON export (GET /api/admin/events/export)', httpExport],
      ['the log lines', t.logLines.join('\n')],
    ];
    const scannedTables = tables.rows
      .map((r) => r.tablename)
      .filter((name) => !SECRET_TABLES.has(name) && name !== 'events' && name !== KNOWN_LEAK_TABLE);
    for (const table of scannedTables) places.push([`table ${table}`, await tableText(table)]);
    responses.forEach((seen, i) => places.push([`response ${i} (${seen.call} -> ${seen.status})`, seen.text]));

    // The scan must be able to see: the material is all there.
    expect(events.rows.length).toBeGreaterThan(15);
    expect(exported.trim().split('\n')).toHaveLength(events.rows.length + 1);
    expect(httpExport).toBe(exported);
    expect(t.logLines.length).toBeGreaterThanOrEqual(responses.length);
    expect(responses.filter((r) => r.status >= 400).length, 'error bodies are in the scan').toBeGreaterThan(10);
    expect(scannedTables).toEqual(expect.arrayContaining(['audit_log', 'users', 'security_log', 'escrows']));
    expect(secrets.size).toBeGreaterThan(40);

    const { leaks, checks } = leaksIn(places);
    expect(leaks, 'secrets found outside the one response that hands them over').toEqual([]);
    expect(checks).toBeGreaterThan(secrets.size * responses.length);
    console.info(
      `secrets scan: ${secrets.size} secrets x ${places.length} places (${responses.length} responses, ${t.logLines.length} log lines, ${events.rows.length} events + 2 exports, ${scannedTables.length} tables) = ${checks} checks`,
    );
  });

  it(`keep no secret in plain text in ${KNOWN_LEAK_TABLE} (login, setup-2fa and verify-2fa sent with an Idempotency-Key)`, async () => {
    const { leaks } = leaksIn([[`table ${KNOWN_LEAK_TABLE}`, await tableText(KNOWN_LEAK_TABLE)]]);
    expect(leaks).toEqual([]);
  });
});
