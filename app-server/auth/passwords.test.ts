import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, OWASP_SCRYPT, verifyPassword } from './passwords.ts';

const fast = { log2N: 10, r: 8, p: 1 };

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery', fast);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('salts every hash and never contains the password', async () => {
    const a = await hashPassword('same password', fast);
    const b = await hashPassword('same password', fast);
    expect(a).not.toBe(b);
    expect(a).not.toContain('same password');
  });

  it('uses OWASP parameters by default and reports weaker hashes for rehashing', async () => {
    const strong = await hashPassword('s3cret-pass');
    expect(strong.startsWith(`scrypt$${OWASP_SCRYPT.log2N}$8$1$`)).toBe(true);
    expect(needsRehash(strong)).toBe(false);
    expect(needsRehash(await hashPassword('s3cret-pass', fast))).toBe(true);
  });

  it('never matches a malformed stored hash', async () => {
    expect(await verifyPassword('x', 'plaintext')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$40$8$1$AAAA$AAAA')).toBe(false);
  });
});
