import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportEvents } from '../../../event-store/export.ts';
import {
  bearer,
  codeFor,
  form,
  json,
  lastMailTo,
  PASSWORD,
  signedInAdmin,
  signIn,
  tokenInMail,
} from '../../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(async () => t.close());

describe('secrets stay out of the log, exports and log lines', () => {
  it('never stores or prints a password, hash, TOTP secret, recovery code or token', async () => {
    const secrets: string[] = [PASSWORD];
    const register = await t.app.request(
      '/api/auth/register',
      json({
        full_name: 'Ann',
        email: 'ann@example.com',
        username: 'ann',
        password: PASSWORD,
        confirm_password: PASSWORD,
      }),
    );
    expect(register.status).toBe(201);
    const verification = tokenInMail((await lastMailTo(t, 'ann@example.com')).body);
    secrets.push(verification);
    expect((await t.app.request('/api/auth/verify-email', json({ token: verification }))).status).toBe(200);

    const token = await signIn(t, 'ann');
    secrets.push(token);
    const setup = (await (await t.app.request('/api/auth/setup-2fa', bearer(token, 'POST'))).json()) as {
      secret: string;
    };
    secrets.push(setup.secret);
    const enabled = (await (
      await t.app.request('/api/auth/verify-2fa', form({ totp_code: codeFor(setup.secret) }, token))
    ).json()) as {
      recovery_codes: string[];
    };
    secrets.push(...enabled.recovery_codes);
    const second = await signIn(t, 'ann', PASSWORD, enabled.recovery_codes[0]);
    secrets.push(second);
    const newPassword = 'a brand new password';
    secrets.push(newPassword);
    expect(
      (
        await t.app.request(
          '/api/auth/change-password',
          json({ current_password: PASSWORD, new_password: newPassword }, second),
        )
      ).status,
    ).toBe(200);
    const admin = await signedInAdmin(t);
    secrets.push(admin.token);
    const annId = (
      await t.database.db.selectFrom('users').select('id').where('username', '=', 'ann').executeTakeFirstOrThrow()
    ).id;
    const temporary = 'temporary password 9';
    secrets.push(temporary);
    expect(
      (
        await t.app.request(
          `/api/admin/users/${annId}/reset-password`,
          form({ temporary_password: temporary }, admin.token),
        )
      ).status,
    ).toBe(200);
    // A wrong password attempt must not be logged either.
    const typo = 'typo in my password';
    secrets.push(typo);
    await t.app.request('/api/auth/login', json({ username: 'ann', password: typo }));

    const stored = await t.database.db.selectFrom('credentials').select('password_hash').execute();
    const sealed = await t.database.db.selectFrom('totp_secrets').select('secret_encrypted').execute();
    secrets.push(...stored.map((r) => r.password_hash), ...sealed.map((r) => r.secret_encrypted));
    expect(secrets.length).toBeGreaterThan(18);

    const events = await sql<{ text: string }>`SELECT data::text || metadata::text AS text FROM events`.execute(
      t.database.db,
    );
    let exported = '';
    await exportEvents(t.database.db, (line) => {
      exported += line;
    });
    const logged = t.logLines.join('\n');
    expect(events.rows.length).toBeGreaterThan(8);
    expect(exported.split('\n').length).toBeGreaterThan(events.rows.length);
    expect(logged).toContain('/api/auth/login');
    for (const secret of secrets) {
      for (const [where, text] of [
        ['events', events.rows.map((r) => r.text).join('\n')],
        ['export', exported],
        ['logs', logged],
      ] as const) {
        expect(text.includes(secret), `${where} contains a secret`).toBe(false);
      }
    }
  });
});
