import { describe, expect, it } from 'vitest';
import type { BitcoinNetwork } from '../bitcoin-address.ts';
import { testSigner } from './bip322-fixtures.ts';
import { bip322MessageHash, verifyBip322Simple } from './bip322.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A BIP-322 simple signature made here with a fixed key, as a wallet makes it. */
function sign(kind: 'p2wpkh' | 'p2tr', network: BitcoinNetwork, message: string, seed = 'seller') {
  const signer = testSigner(kind, network, seed);
  return { address: signer.address, signature: signer.sign(message) };
}

describe('BIP-322 vectors (bip-0322.mediawiki)', () => {
  it('hashes messages with the BIP0322-signed-message tag', () => {
    expect(hex(bip322MessageHash(''))).toBe('c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1');
    expect(hex(bip322MessageHash('Hello World'))).toBe(
      'f0eb03b1a75ac6d9847f55c624a99169b5dccba2a31f5b23bea77ba270de0a7a',
    );
  });

  const address = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l';
  it.each([
    [
      '',
      'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
    ],
    [
      '',
      'AkgwRQIhAPkJ1Q4oYS0htvyuSFHLxRQpFAY56b70UvE7Dxazen0ZAiAtZfFz1S6T6I23MWI2lK/pcNTWncuyL8UL+oMdydVgzAEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
    ],
    [
      'Hello World',
      'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
    ],
    [
      'Hello World',
      'AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
    ],
  ])('P2WPKH %j: %s', (message, signature) => {
    expect(verifyBip322Simple(address, message, signature, 'mainnet')).toEqual({ ok: true, kind: 'p2wpkh' });
    expect(verifyBip322Simple(address, `${message}!`, signature, 'mainnet').ok).toBe(false);
  });

  it('P2TR "Hello World"', () => {
    const taproot = 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3';
    const signature = 'AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ==';
    expect(verifyBip322Simple(taproot, 'Hello World', signature, 'mainnet')).toEqual({ ok: true, kind: 'p2tr' });
    expect(verifyBip322Simple(taproot, 'Hello World.', signature, 'mainnet').ok).toBe(false);
  });
});

describe('signatures made here with fixed keys', () => {
  const networks: BitcoinNetwork[] = ['mainnet', 'testnet', 'signet', 'regtest'];
  it.each(networks.flatMap((n) => (['p2wpkh', 'p2tr'] as const).map((k) => [k, n] as const)))(
    '%s on %s: verifies; a wrong message, a wrong address and a malformed signature do not',
    (kind, network) => {
      const message = `escrow 1234 seller payout address on ${network}`;
      const { address, signature } = sign(kind, network, message);
      expect(verifyBip322Simple(address, message, signature, network)).toEqual({ ok: true, kind });
      expect(verifyBip322Simple(address, `${message} changed`, signature, network)).toMatchObject({
        ok: false,
        reason: expect.stringContaining('does not sign'),
      });
      const other = sign(kind, network, message, 'someone else').address;
      expect(verifyBip322Simple(other, message, signature, network).ok).toBe(false);
      expect(verifyBip322Simple(address, message, 'not base64!', network)).toEqual({
        ok: false,
        reason: 'signature is not base64',
      });
      expect(verifyBip322Simple(address, message, signature.slice(0, 20), network).ok).toBe(false);
      expect(verifyBip322Simple(address, message, Buffer.from('garbage').toString('base64'), network).ok).toBe(false);
    },
  );

  it('refuses an address of another network', () => {
    const { address, signature } = sign('p2wpkh', 'mainnet', 'm');
    expect(verifyBip322Simple(address, 'm', signature, 'testnet')).toEqual({
      ok: false,
      reason: 'address is not a testnet address',
    });
  });
});
