import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      BITCOIN_NETWORK: 'mainnet',
      SUPPORT_EMAIL: 'support@example.com',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ BITCOIN_NETWORK: 'litecoin' }, 'BITCOIN_NETWORK'],
    [{ SUPPORT_EMAIL: 'not-an-email' }, 'SUPPORT_EMAIL'],
  ])('refuses %o with one line naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid ${variable}=`));
  });

  it.each([
    [{ SECRET_KEY: 'hunter2-not-hex-but-secret' }, 'SECRET_KEY', 'hunter2-not-hex-but-secret'],
    [{ METRICS_TOKEN: 'short-secret' }, 'METRICS_TOKEN', 'short-secret'],
    [{ DATABASE_URL: 'mysql://app:s3cr3t-pa55@db:5432/escrow' }, 'DATABASE_URL', 's3cr3t-pa55'],
    [{ SMTP_URL: 'http://mailer:m41l-pa55@smtp:25' }, 'SMTP_URL', 'm41l-pa55'],
  ])('never echoes a secret: %o', (env, variable, secret) => {
    let message = '';
    try {
      loadConfig(env);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`^Invalid ${variable}`));
    expect(message).not.toContain(secret);
  });

  it('keeps the rest of a URL to help find the mistake', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://app:s3cr3t@db:5432/escrow' })).toThrow(
      'Invalid DATABASE_URL="mysql://app:***@db:5432/escrow": must start with postgres://',
    );
  });
});
