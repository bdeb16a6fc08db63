/**
 * The account journey against a running server, as a person would go through it: register, open the verification
 * link from the mail (read from the outbox file), sign in, switch 2FA on with an authenticator code, sign out,
 * and sign in again with the next code.
 *   npx tsx e2e/accounts-flow.ts --base http://127.0.0.1:3000 --outbox ./data/mail-outbox.jsonl
 */
import { parseArgs } from 'node:util';
import { totpCodeAt } from '../app-server/auth/totp.ts';
import { client, expect, form, json, waitForMail } from './client.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    outbox: { type: 'string', default: './data/mail-outbox.jsonl' },
  },
});
const { call } = client(values.base!);
const username = `e2e${Date.now().toString(36)}`;
const email = `${username}@example.com`;
const password = 'an e2e password';
const mailFor = (to: string) => waitForMail(values.outbox!, (m) => m.to === to, `to ${to}`);

const registered = await call(
  '/auth/register',
  json({ full_name: 'E2E Person', email, username, password, confirm_password: password, role: 'seller' }),
);
expect(registered.status === 201, 'registration');
const mail = await mailFor(email);
console.log(`mail: "${mail.subject}"`);
const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
expect(Boolean(token), 'a link in the verification mail');
expect((await call('/auth/verify-email', json({ token }))).status === 200, 'e-mail verification');

const first = await call('/auth/login', json({ username, password }));
expect(first.status === 200, 'sign-in');
const session = first.body.access_token as string;
const me = await call('/auth/me', { token: session });
expect(me.body.email_verified === true && me.body.role === 'seller', 'verified seller');

const setup = await call('/auth/setup-2fa', { method: 'POST', token: session });
const secret = setup.body.secret as string;
expect(String(setup.body.qr_code_url).startsWith('data:image/png'), 'QR code drawn locally');
const enabled = await call('/auth/verify-2fa', form({ totp_code: totpCodeAt(secret, new Date()) }, session));
expect(
  enabled.status === 200 && (enabled.body.recovery_codes as string[]).length === 10,
  '2FA enabled with 10 recovery codes',
);
expect((await call('/auth/logout', { method: 'POST', token: session })).status === 200, 'sign-out');

const noCode = await call('/auth/login', json({ username, password }));
expect(noCode.status === 401 && noCode.body.detail === '2FA code required', '2FA asked for');
const next = totpCodeAt(secret, new Date(Date.now() + 30_000));
const withCode = await call('/auth/login', json({ username, password, totp_code: next }));
expect(withCode.status === 200, 'sign-in with the next code');
const again = await call('/auth/login', json({ username, password, totp_code: next }));
expect(
  again.status === 401 && again.body.detail === 'Invalid username, password or 2FA code',
  'the same code refused the second time',
);
console.log('accounts flow: ok');
