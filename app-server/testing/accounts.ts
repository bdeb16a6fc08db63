import { ensureAdmin } from '../accounts/first-admin.ts';
import { totpCodeAt } from '../auth/totp.ts';
import type { TestApp } from './test-app.ts';

export const PASSWORD = 'correct horse battery';

export const json = (body: unknown, token?: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
});

export const form = (fields: Record<string, string>, token?: string, method = 'POST') => ({
  method,
  body: new URLSearchParams(fields).toString(),
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
});

/** A multipart form, as a browser sends it: strings and files. */
export const multipart = (fields: Record<string, string | File>, token?: string) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return { method: 'POST', body, headers };
};

export const bearer = (token: string, method = 'GET') => ({ method, headers: { authorization: `Bearer ${token}` } });

export async function registerUser(t: TestApp, username: string, role: 'buyer' | 'seller' = 'buyer') {
  const res = await t.app.request(
    '/api/auth/register',
    json({
      full_name: `${username} Example`,
      email: `${username}@example.com`,
      username,
      password: PASSWORD,
      confirm_password: PASSWORD,
      role,
    }),
  );
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { user_id: string }).user_id;
}

export async function signIn(t: TestApp, username: string, password = PASSWORD, totp_code?: string) {
  const res = await t.app.request('/api/auth/login', json({ username, password, ...(totp_code ? { totp_code } : {}) }));
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function signedInUser(t: TestApp, username: string, role: 'buyer' | 'seller' = 'buyer') {
  const id = await registerUser(t, username, role);
  return { id, token: await signIn(t, username) };
}

/** Confirms the user's e-mail address with the link mailed at registration. */
export async function verifyEmailOf(t: TestApp, username: string) {
  const mail = await lastMailTo(t, `${username}@example.com`);
  const res = await t.app.request('/api/auth/verify-email', json({ token: tokenInMail(mail.body) }));
  if (res.status !== 200) throw new Error(`verify-email ${username}: ${res.status} ${await res.text()}`);
}

/** A signed-in user whose e-mail is verified (only those may open escrows). */
export async function verifiedUser(t: TestApp, username: string, role: 'buyer' | 'seller' = 'buyer') {
  const id = await registerUser(t, username, role);
  await verifyEmailOf(t, username);
  return { id, token: await signIn(t, username) };
}

export async function signedInAdmin(t: TestApp, username = 'root') {
  await ensureAdmin(t.deps, { username, email: `${username}@example.com`, password: PASSWORD });
  const row = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return { id: row.id, token: await signIn(t, username) };
}

/** The newest mail queued for an address. */
export async function lastMailTo(t: TestApp, to: string) {
  return t.database.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

export const tokenInMail = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

/** Plays the authenticator app: the code for the user's secret at a given moment. */
export const codeFor = (secret: string, at = new Date()) => totpCodeAt(secret, at);

/** Switches 2FA on for a signed-in user (setup, then a first code); returns the secret and the recovery codes. */
export async function enableTwoFactorFor(t: TestApp, token: string) {
  const setup = await t.app.request('/api/auth/setup-2fa', bearer(token, 'POST'));
  if (setup.status !== 200) throw new Error(`setup-2fa: ${setup.status} ${await setup.text()}`);
  const { secret } = (await setup.json()) as { secret: string };
  const res = await t.app.request('/api/auth/verify-2fa', form({ totp_code: codeFor(secret) }, token));
  if (res.status !== 200) throw new Error(`verify-2fa: ${res.status} ${await res.text()}`);
  return { secret, recovery: ((await res.json()) as { recovery_codes: string[] }).recovery_codes };
}

/**
 * A code the server will take now: each 30-second step is accepted once, so a test acting several times within one
 * step forgets the step last used first (as if it had waited for the authenticator's next code).
 */
export async function freshCode(t: TestApp, userId: string, secret: string) {
  await t.database.db.updateTable('totp_secrets').set({ last_used_step: null }).where('user_id', '=', userId).execute();
  return codeFor(secret);
}
