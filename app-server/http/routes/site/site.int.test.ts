import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json } from '../../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

const KEY_FILE = fileURLToPath(new URL('../../../testing/fixtures/support-key.asc', import.meta.url));
let t: TestApp;
let bare: TestApp;
beforeAll(async () => {
  t = await openTestApp({
    PGP_PUBLIC_KEY_FILE: KEY_FILE,
    SUPPORT_EMAIL: 'help@escrow.example',
    RATE_LIMIT_CONTACT: '2',
  });
  bare = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => {
  await t.close();
  await bare.close();
});

describe('GET /api/site and /api/pgp-key', () => {
  it('gives the configured support contacts and the Bitcoin network addresses are checked for', async () => {
    expect(await (await t.app.request('/api/site')).json()).toEqual({
      support_email: 'help@escrow.example',
      support_hours: 'Mon-Fri 9:00 AM-6:00 PM GMT',
      pgp_key_configured: true,
      bitcoin_network: 'mainnet',
    });
    const testnet = await openTestApp({ BITCOIN_NETWORK: 'testnet' });
    expect(await (await testnet.app.request('/api/site')).json()).toMatchObject({ bitcoin_network: 'testnet' });
    await testnet.close();
  });

  it('reads the key type, id and fingerprint from the key itself', async () => {
    const key = (await (await t.app.request('/api/pgp-key')).json()) as Record<string, string>;
    expect(key.armored).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
    expect(key.key_type).toMatch(/^(EdDSA|Ed25519)/);
    expect(key.key_id).toMatch(/^[0-9A-F]{16}$/);
    expect(key.fingerprint!.replaceAll(' ', '').endsWith(key.key_id!)).toBe(true);
    expect(key.user_id).toBe('Escrow Support <support@example.com>');
  });

  it('says plainly when no key is published', async () => {
    const res = await bare.app.request('/api/pgp-key');
    expect([res.status, ((await res.json()) as { detail: string }).detail]).toEqual([
      404,
      'No PGP key is published for support yet',
    ]);
  });
});

describe('POST /api/contact', () => {
  it('puts the message in the mail to support, and limits how often one address may write', async () => {
    const message = { name: 'Ann', email: 'ann@example.com', message: 'Where is my refund?' };
    const first = await t.app.request('/api/contact', json(message));
    expect([first.status, ((await first.json()) as { detail: string }).detail]).toEqual([
      202,
      "Thank you! We'll get back to you soon.",
    ]);
    const mail = await t.database.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ to_address: 'help@escrow.example', subject: 'Contact form message' });
    expect(mail.body).toContain('Reply to: ann@example.com');
    expect(mail.body).toContain('Name given (their own words, not checked by us):\n> Ann');
    expect(mail.body).toContain('> Where is my refund?');
    expect((await t.app.request('/api/contact', json(message))).status).toBe(202);
    const third = await t.app.request('/api/contact', json(message));
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it.each([
    [{ name: '', email: 'a@example.com', message: 'x' }, 'name is required'],
    [{ name: 'A', email: 'not-an-email', message: 'x' }, 'email must be a valid e-mail address'],
    [{ name: 'A', email: 'a@example.com', message: '   ' }, 'message is required'],
  ])('refuses %o', async (body, detail) => {
    const res = await t.app.request('/api/contact', json(body));
    expect([res.status, ((await res.json()) as { detail: string }).detail]).toEqual([422, detail]);
    expect(await t.database.db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
  });
});
