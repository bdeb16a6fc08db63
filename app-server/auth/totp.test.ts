import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { secretBox } from './secret-box.ts';
import { checkTotp, newTotpSecret, totpCodeAt, totpQrDataUrl, totpUri } from './totp.ts';

const now = new Date('2026-05-01T12:00:10.000Z');

describe('TOTP', () => {
  it('accepts the current code and the ones a step either side, and no further', () => {
    const secret = newTotpSecret();
    expect(checkTotp(secret, totpCodeAt(secret, now), null, now)).not.toBeNull();
    expect(checkTotp(secret, totpCodeAt(secret, new Date(now.getTime() - 30_000)), null, now)).not.toBeNull();
    expect(checkTotp(secret, totpCodeAt(secret, new Date(now.getTime() + 30_000)), null, now)).not.toBeNull();
    expect(checkTotp(secret, totpCodeAt(secret, new Date(now.getTime() - 90_000)), null, now)).toBeNull();
  });

  it('refuses a code whose step was already used', () => {
    const secret = newTotpSecret();
    const code = totpCodeAt(secret, now);
    const step = checkTotp(secret, code, null, now)!;
    expect(checkTotp(secret, code, step, now)).toBeNull();
  });

  it('refuses malformed codes', () => {
    const secret = newTotpSecret();
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456'])
      expect(checkTotp(secret, code, null, now)).toBeNull();
  });

  it('draws the QR code locally as a data: URL of an otpauth URI', async () => {
    const uri = totpUri(newTotpSecret(), 'alice', 'Escrow');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Escrow:alice\?/);
    expect(await totpQrDataUrl(uri)).toMatch(/^data:image\/png;base64,/);
  });
});

describe('secret box', () => {
  it('opens what it sealed, and never shows the plaintext', () => {
    const box = secretBox(randomBytes(32));
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a tampered box or the wrong key', () => {
    const box = secretBox(randomBytes(32));
    const sealed = box.seal('secret');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => secretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});
