import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { Address, OutScript, RawWitness } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import type { BitcoinNetwork } from '../bitcoin-address.ts';
import { testSigner } from './bip322-fixtures.ts';
import { addressProofMessage, bip322MessageHash, verifyBip322Simple } from './bip322.ts';
import { NETWORK_PARAMS, scriptOfAddress } from './spv.ts';

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

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
/** The witness stack of a base64 signature, and back. */
const stackOf = (signature: string) => RawWitness.decode(Uint8Array.from(Buffer.from(signature, 'base64')));
const signatureOf = (stack: Uint8Array[]) => b64(RawWitness.encode(stack));

describe('the message a party signs', () => {
  it('names the origin, the escrow, the address and its use', () => {
    const input = { origin: 'https://escrow.example', escrowId: 'e-42', address: 'bc1qxyz' };
    expect(addressProofMessage({ ...input, side: 'seller' })).toBe(
      "https://escrow.example escrow e-42: I control bc1qxyz and want it as the seller's payout address.",
    );
    expect(addressProofMessage({ ...input, side: 'buyer' })).toBe(
      "https://escrow.example escrow e-42: I control bc1qxyz and want it as the buyer's refund address.",
    );
  });
});

describe('refusals, each with its reason', () => {
  const message = 'escrow 77 payout';
  const wpkh = sign('p2wpkh', 'regtest', message);
  const tr = sign('p2tr', 'regtest', message);
  const check = (address: string, signature: string) => verifyBip322Simple(address, message, signature, 'regtest');

  it('accepts a pasted signature with spaces and a line feed around it', () => {
    expect(check(wpkh.address, `  ${wpkh.signature}\n`)).toEqual({ ok: true, kind: 'p2wpkh' });
  });

  it('refuses text that is not base64: empty, a bad character, a bad length', () => {
    const notBase64 = { ok: false, reason: 'signature is not base64' };
    expect(check(wpkh.address, '   ')).toEqual(notBase64);
    expect(check(wpkh.address, `${wpkh.signature.slice(0, 8)}!${wpkh.signature.slice(9)}`)).toEqual(notBase64);
    expect(check(wpkh.address, wpkh.signature.replace(/=+$/, ''))).toEqual(notBase64);
    expect(check(wpkh.address, 'AAE')).toEqual(notBase64);
  });

  it('refuses base64 that is no witness stack', () => {
    expect(check(wpkh.address, b64(Uint8Array.of(5, 1)))).toEqual({
      ok: false,
      reason: 'signature is not a BIP-322 simple signature (a witness stack, base64)',
    });
  });

  it('refuses a P2WPKH witness without exactly a signature and a compressed key', () => {
    const [sig, pub] = stackOf(wpkh.signature);
    const reason = { ok: false, reason: 'signature is not a P2WPKH witness (signature and public key)' };
    expect(check(wpkh.address, signatureOf([sig!]))).toEqual(reason);
    expect(check(wpkh.address, signatureOf([sig!, pub!, Uint8Array.of(1)]))).toEqual(reason);
    expect(check(wpkh.address, signatureOf([sig!, pub!.subarray(0, 32)]))).toEqual(reason);
  });

  it('refuses a key that is not the address', () => {
    expect(check(wpkh.address, sign('p2wpkh', 'regtest', message, 'someone else').signature)).toEqual({
      ok: false,
      reason: 'signature was made by another key than the address',
    });
  });

  it('compares the key hash byte by byte, not on one matching byte', () => {
    const target = OutScript.decode(scriptOfAddress(wpkh.address, 'regtest'));
    if (target.type !== 'wpkh') throw new Error('expected a P2WPKH address');
    const [sig] = stackOf(wpkh.signature);
    // A key whose hash shares some bytes with the address's, but is another key's.
    let n = 1;
    let pub = secp256k1.getPublicKey(sha256(Uint8Array.of(n)), true);
    while (!ripemd160(sha256(pub)).some((v, i) => v === target.hash[i])) {
      n++;
      pub = secp256k1.getPublicKey(sha256(Uint8Array.of(n)), true);
    }
    expect(check(wpkh.address, signatureOf([sig!, pub]))).toEqual({
      ok: false,
      reason: 'signature was made by another key than the address',
    });
  });

  it('refuses a P2WPKH signature with another sighash type than ALL', () => {
    const [sig, pub] = stackOf(wpkh.signature);
    const single = Uint8Array.from(sig!);
    single[single.length - 1] = 0x03;
    expect(check(wpkh.address, signatureOf([single, pub!]))).toEqual({
      ok: false,
      reason: 'signature must sign with SIGHASH_ALL',
    });
  });

  it('accepts a high-S ECDSA signature, as BIP-322 does not require low S', () => {
    const [sig, pub] = stackOf(wpkh.signature);
    const parsed = secp256k1.Signature.fromBytes(sig!.subarray(0, -1), 'der');
    const n = secp256k1.Point.CURVE().n;
    const high = new secp256k1.Signature(parsed.r, n - parsed.s).toBytes('der');
    expect(check(wpkh.address, signatureOf([Uint8Array.of(...high, 0x01), pub!]))).toEqual({
      ok: true,
      kind: 'p2wpkh',
    });
  });

  it('refuses a P2TR witness that is not one 64- or 65-byte signature', () => {
    const [sig] = stackOf(tr.signature);
    const reason = { ok: false, reason: 'signature is not a P2TR key-path witness (one Schnorr signature)' };
    expect(sig).toHaveLength(64);
    expect(check(tr.address, signatureOf([sig!, Uint8Array.of(1)]))).toEqual(reason);
    expect(check(tr.address, signatureOf([sig!.subarray(0, 63)]))).toEqual(reason);
    expect(check(tr.address, signatureOf([Uint8Array.of(...sig!, 1, 1)]))).toEqual(reason);
  });

  it('reads a 65th byte as the sighash type: ALL is another message, others are refused', () => {
    const [sig] = stackOf(tr.signature);
    expect(check(tr.address, signatureOf([Uint8Array.of(...sig!, 0x01)]))).toEqual({
      ok: false,
      reason: 'signature does not sign this message for this address',
    });
    expect(check(tr.address, signatureOf([Uint8Array.of(...sig!, 0x02)]))).toEqual({
      ok: false,
      reason: 'signature must sign with SIGHASH_DEFAULT or SIGHASH_ALL',
    });
    // BIP-341: a valid 64-byte signature with 0x00 added is invalid; SIGHASH_DEFAULT has no byte of its own.
    expect(check(tr.address, signatureOf([Uint8Array.of(...sig!, 0x00)]))).toEqual({
      ok: false,
      reason: 'signature must sign with SIGHASH_DEFAULT or SIGHASH_ALL',
    });
  });

  it('refuses addresses other than P2WPKH and P2TR as not supported', () => {
    const legacy = Address(NETWORK_PARAMS.regtest).encode({ type: 'pkh', hash: new Uint8Array(20).fill(7) });
    const [sig] = stackOf(tr.signature);
    expect(check(legacy, signatureOf([sig!]))).toEqual({
      ok: false,
      reason: 'signatures by pkh addresses are not supported (P2WPKH and P2TR are)',
    });
  });
});
