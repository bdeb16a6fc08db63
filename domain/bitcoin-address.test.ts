import { sha256 } from '@noble/hashes/sha2.js';
import { bech32m, createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { checkBitcoinAddress } from './bitcoin-address.ts';

describe('checkBitcoinAddress', () => {
  it.each([
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'p2wpkh'],
    ['bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'p2wsh'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'p2tr'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'p2pkh'],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'p2sh'],
  ])('accepts %s on mainnet as %s', (address, kind) => {
    expect(checkBitcoinAddress(address, 'mainnet')).toMatchObject({ ok: true, kind });
  });

  it('normalises bech32 to lower case', () => {
    expect(checkBitcoinAddress('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'mainnet')).toMatchObject({
      address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    });
  });

  it.each([
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet or signet address, but this service runs on mainnet'],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'testnet address, but this service runs on mainnet'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'bad checksum'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'bad characters or checksum'],
    ['bc1QW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mixes upper and lower case'],
    // A version 1 program with a bech32 (not bech32m) checksum (BIP350).
    [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
      'wrong checksum for witness version 1',
    ],
    ['', 'is empty'],
    ['hello world', 'not a valid Bitcoin address'],
  ])('refuses %s: %s', (address, reason) => {
    const result = checkBitcoinAddress(address, 'mainnet');
    expect(result.ok).toBe(false);
    expect((result as { reason: string }).reason).toContain(reason);
  });

  it('accepts testnet addresses on testnet and regtest ones on regtest', () => {
    expect(checkBitcoinAddress('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet').ok).toBe(true);
    expect(checkBitcoinAddress('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'signet').ok).toBe(true);
    expect(checkBitcoinAddress('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'regtest').ok).toBe(false);
  });
});

const base58check = createBase58check(sha256);
const legacy = (version: number, length = 20) => base58check.encode(Uint8Array.of(version, ...new Uint8Array(length)));

describe('BIP-173 / BIP-350 vectors', () => {
  it.each([
    ['BC1SW50QGDZ25J', 'mainnet', 'witness'], // version 16, a 2-byte program
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'mainnet', 'witness'], // version 2, 16 bytes
    ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'mainnet', 'witness'], // v1, 40 bytes
    ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'testnet', 'p2tr'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'signet', 'p2wsh'],
  ] as const)('accepts %s on %s as %s, in lower case', (address, network, kind) => {
    expect(checkBitcoinAddress(address, network)).toEqual({ ok: true, kind, address: address.toLowerCase() });
  });

  it.each([
    ['bc1gmk9yu', 'has an invalid witness version'], // no data at all
    ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'has an invalid witness version'], // 17
    ['bc1pw5dgrnzv', 'has an invalid witness program length'], // 1 byte
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav',
      'has an invalid witness program length',
    ], // 41 bytes
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'has an invalid witness program length'], // version 0, 16 bytes
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'uses the wrong checksum for witness version 0'], // bech32m
    ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', 'has a bad checksum or characters'],
    [
      'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut',
      'is not a valid Bitcoin address (bad characters or checksum)',
    ],
  ])('refuses %s: %s', (address, reason) => {
    expect(checkBitcoinAddress(address, 'mainnet')).toEqual({ ok: false, reason });
  });

  // Right checksums over 5-bit words that do not make whole bytes: the decoder threw, and the API answered 500.
  it.each([
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'mainnet'], // excess padding
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'testnet'], // non-zero padding
  ] as const)('refuses %s: a program that is not whole bytes', (address, network) => {
    expect(checkBitcoinAddress(address, network)).toEqual({
      ok: false,
      reason: 'has a witness program that is not whole bytes',
    });
  });

  it('refuses a version 2 program with a bech32 checksum on testnet', () => {
    expect(checkBitcoinAddress('tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', 'testnet')).toEqual({
      ok: false,
      reason: 'uses the wrong checksum for witness version 2',
    });
  });
});

describe('the network an address belongs to', () => {
  const mainnetP2wpkh = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

  it('names the network of a segwit address of another network', () => {
    expect(checkBitcoinAddress(mainnetP2wpkh, 'testnet')).toEqual({
      ok: false,
      reason: 'is a mainnet address, but this service runs on testnet',
    });
    expect(checkBitcoinAddress('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', 'mainnet')).toEqual({
      ok: false,
      reason: 'is a regtest address, but this service runs on mainnet',
    });
    expect(checkBitcoinAddress('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'regtest')).toEqual({
      ok: false,
      reason: 'is a testnet or signet address, but this service runs on regtest',
    });
    expect(checkBitcoinAddress('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', 'regtest')).toMatchObject({
      ok: true,
      kind: 'p2wpkh',
    });
  });

  it('refuses a prefix no network uses', () => {
    expect(checkBitcoinAddress('bc1qqq1qqqqqq', 'mainnet')).toEqual({ ok: false, reason: 'has an unknown prefix' });
  });

  it('names the network of a legacy address of another network', () => {
    expect(checkBitcoinAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'testnet')).toEqual({
      ok: false,
      reason: 'is a mainnet address, but this service runs on testnet',
    });
    expect(checkBitcoinAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'regtest')).toEqual({
      ok: false,
      reason: 'is a mainnet address, but this service runs on regtest',
    });
    expect(checkBitcoinAddress(legacy(0xc4), 'mainnet')).toEqual({
      ok: false,
      reason: 'is a testnet address, but this service runs on mainnet',
    });
    expect(checkBitcoinAddress(legacy(0xc4), 'testnet')).toEqual({ ok: true, kind: 'p2sh', address: legacy(0xc4) });
    expect(checkBitcoinAddress(legacy(0x6f), 'signet')).toEqual({ ok: true, kind: 'p2pkh', address: legacy(0x6f) });
  });

  it('refuses a legacy payload of the wrong length or an unknown version byte', () => {
    expect(checkBitcoinAddress(legacy(0x00, 19), 'mainnet')).toEqual({ ok: false, reason: 'has the wrong length' });
    expect(checkBitcoinAddress(legacy(0x00, 21), 'mainnet')).toEqual({ ok: false, reason: 'has the wrong length' });
    expect(checkBitcoinAddress(legacy(0x30), 'mainnet')).toEqual({ ok: false, reason: 'has an unknown version byte' });
    expect(checkBitcoinAddress(legacy(0x30), 'testnet')).toEqual({ ok: false, reason: 'has an unknown version byte' });
  });

  it('reads a legacy address as legacy even when "bc1" or "tb1" appears inside it', () => {
    let address = '';
    for (let i = 0; !/(bc|tb|bcrt)1/i.test(address); i++)
      address = base58check.encode(Uint8Array.of(0x00, ...sha256(Uint8Array.of(i >> 8, i & 0xff)).slice(0, 20)));
    expect(checkBitcoinAddress(address, 'mainnet')).toEqual({ ok: true, kind: 'p2pkh', address });
  });
});

describe('what is pasted', () => {
  it('trims spaces around the address', () => {
    expect(checkBitcoinAddress('  1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa \n', 'mainnet')).toEqual({
      ok: true,
      kind: 'p2pkh',
      address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    });
    expect(checkBitcoinAddress('   ', 'mainnet')).toEqual({ ok: false, reason: 'is empty' });
  });

  it('refuses more than 90 characters before decoding, and decodes 90', () => {
    expect(checkBitcoinAddress('1'.repeat(91), 'mainnet')).toEqual({ ok: false, reason: 'is too long' });
    expect(checkBitcoinAddress('1'.repeat(90), 'mainnet')).toEqual({
      ok: false,
      reason: 'is not a valid Bitcoin address (bad characters or checksum)',
    });
  });
});

describe('taproot is version 1 only', () => {
  it('reads a 32-byte program of a later witness version as a generic witness address, not P2TR', () => {
    const program = new Uint8Array(32).fill(0x42);
    const v2 = bech32m.encode('bc', [2, ...bech32m.toWords(program)]);
    const v1 = bech32m.encode('bc', [1, ...bech32m.toWords(program)]);
    expect(checkBitcoinAddress(v2, 'mainnet')).toEqual({ ok: true, kind: 'witness', address: v2 });
    expect(checkBitcoinAddress(v1, 'mainnet')).toEqual({ ok: true, kind: 'p2tr', address: v1 });
  });
});
