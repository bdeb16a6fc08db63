/**
 * Setting the scene through the API, for steps that are not what a journey is about (an account that already exists,
 * the admin's rate and pool). What a journey is about, it does in the browser.
 */
import type { Page } from '@playwright/test';
import { freshAddress } from '../../app-server/testing/bitcoin.ts';
import { linkIn, waitForMail } from './mail.ts';
import type { E2eServer } from './server-info.ts';

export const PASSWORD = 'an e2e password';
let counter = 0;

/** One call to the API; throws with the server's detail when the status is not the one expected. */
export async function call<T = Record<string, unknown>>(
  server: E2eServer,
  path: string,
  init: {
    method?: string;
    token?: string;
    json?: unknown;
    form?: Record<string, string> | FormData;
    expect?: number;
  } = {},
): Promise<T> {
  const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form instanceof FormData) {
    body = init.form;
  } else if (init.form) {
    body = new URLSearchParams(init.form);
  }
  const res = await fetch(`${server.baseURL}/api${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  const data = (await res.json().catch(() => ({}))) as T & { detail?: string };
  const expected = init.expect ?? (res.ok ? res.status : 200);
  if (res.status !== expected)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${data.detail ?? ''} (expected ${expected})`);
  return data;
}

export async function signIn(server: E2eServer, username: string, password = PASSWORD): Promise<string> {
  const answer = await call<{ access_token: string }>(server, '/auth/login', { json: { username, password } });
  return answer.access_token;
}

export interface Person {
  username: string;
  email: string;
  password: string;
  fullName: string;
  token: string;
}

/** A new account, its e-mail verified through the mailed link, signed in through the API. */
export async function registerVerified(server: E2eServer, role: 'buyer' | 'seller', name = role): Promise<Person> {
  const username = `${name}${Date.now().toString(36)}${counter++}`;
  const email = `${username}@example.com`;
  const fullName = `${name[0]!.toUpperCase()}${name.slice(1)} ${username.slice(-4)}`;
  await call(server, '/auth/register', {
    json: { full_name: fullName, email, username, password: PASSWORD, confirm_password: PASSWORD, role },
    expect: 201,
  });
  const mail = await waitForMail(server.outbox, email, 'Confirm your e-mail');
  const token = new URLSearchParams(linkIn(mail, '/verify-email').split('?')[1]).get('token');
  await call(server, '/auth/verify-email', { json: { token } });
  return { username, email, password: PASSWORD, fullName, token: await signIn(server, username) };
}

export const adminToken = (server: E2eServer) => signIn(server, server.admin.username, server.admin.password);

/** The rate and fee the admin sets, and `count` fresh pool addresses, so escrows can be opened and paid. */
export async function preparePricingAndPool(
  server: E2eServer,
  options: { rate?: string; fee?: string; addresses?: number } = {},
): Promise<void> {
  const token = await adminToken(server);
  await call(server, '/admin/btc-rate', {
    method: 'PUT',
    token,
    form: { btc_usd_rate: options.rate ?? '50000', fee_percentage: options.fee ?? '1.5' },
  });
  for (let i = 0; i < (options.addresses ?? 3); i++)
    await call(server, '/admin/addresses', { token, form: { address_string: freshAddress() }, expect: 201 });
}

/** Signs `page`'s person in through the sign-in form, as they would. */
export async function signInInBrowser(page: Page, person: { username: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The dashboard, or the page that sent the visitor to sign in.
  await page.waitForURL((url) => url.pathname !== '/login');
}
