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
});
