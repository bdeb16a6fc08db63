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
