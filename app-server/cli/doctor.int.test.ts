import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../testing/bitcoin.ts';
import { allowEventTampering } from '../testing/tamper.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { diagnose, formatFindings } from './doctor.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({
    PUBLIC_URL: 'https://escrow.example',
    SMTP_URL: 'smtp://mail.example:587',
    SECRET_KEY: 'ab'.repeat(32),
    PASSWORD_HASH_COST: '17',
  });
});
afterAll(async () => t.close());

const verdicts = async () =>
  Object.fromEntries((await diagnose(t.deps.config, t.database)).map((f) => [f.check, f.verdict]));

describe('doctor', () => {
  it('names what an empty store lacks, with a fix, and exits 1', async () => {
    const findings = await diagnose(t.deps.config, t.database);
    expect(Object.fromEntries(findings.map((f) => [f.check, f.verdict]))).toEqual({
      configuration: 'ok',
      database: 'ok',
      migrations: 'ok',
      chain: 'ok',
      SMTP: 'ok',
      mail: 'ok',
      'address pool': 'problem',
      'BTC rate': 'problem',
      admins: 'problem',
      backup: 'warning',
    });
    const { text, exitCode } = formatFindings(findings);
    expect(exitCode).toBe(1);
    expect(text).toContain('fix: Start the server and open the /setup link it prints');
  });

  it('is satisfied once there is a rate, a pool and no admin without 2FA, but for the admin', async () => {
    await openMarket(t, [freshAddress(), freshAddress(), freshAddress()]);
    expect(await verdicts()).toMatchObject({ 'address pool': 'ok', 'BTC rate': 'ok', admins: 'problem' });
    await t.database.db.updateTable('users').set({ totp_enabled: true }).where('role', '=', 'admin').execute();
    const findings = await diagnose(t.deps.config, t.database);
    expect(formatFindings(findings).exitCode).toBe(0);
  });

  it('reports a tampered chain as a problem', async () => {
    await allowEventTampering(t.database.db); // as an attacker with the owner's rights could
    await t.database.db.updateTable('events').set({ type: 'UserRegistered' }).where('position', '=', 2).execute();
    expect(await verdicts()).toMatchObject({ chain: 'problem' });
  });
});
