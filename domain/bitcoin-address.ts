import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'signet' | 'regtest';
export type AddressKind = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'witness';
export type AddressCheck = { ok: true; kind: AddressKind; address: string } | { ok: false; reason: string };

const base58check = createBase58check(sha256);
const HRP: Record<BitcoinNetwork, string> = { mainnet: 'bc', testnet: 'tb', signet: 'tb', regtest: 'bcrt' };
/** The bech32 prefix of each network's segwit addresses. */
export const HRP_OF_NETWORK: Readonly<Record<BitcoinNetwork, string>> = HRP;
const LEGACY: Record<'mainnet' | 'test', { p2pkh: number; p2sh: number }> = {
  mainnet: { p2pkh: 0x00, p2sh: 0x05 },
  test: { p2pkh: 0x6f, p2sh: 0xc4 },
};
const networkOfHrp = (hrp: string) =>
  hrp === 'bc' ? 'mainnet' : hrp === 'tb' ? 'testnet or signet' : hrp === 'bcrt' ? 'regtest' : null;

function checkSegwit(address: string, network: BitcoinNetwork): AddressCheck {
  if (address !== address.toLowerCase() && address !== address.toUpperCase())
    return { ok: false, reason: 'mixes upper and lower case' };
  const lower = address.toLowerCase();
  const hrp = lower.slice(0, lower.lastIndexOf('1'));
  if (hrp !== HRP[network]) {
    const other = networkOfHrp(hrp);
    return {
      ok: false,
      reason: other ? `is a ${other} address, but this service runs on ${network}` : 'has an unknown prefix',
    };
  }
  let decoded: { words: number[] };
  let variant: 'bech32' | 'bech32m';
  try {
    decoded = bech32.decode(lower as `${string}1${string}`, 90);
    variant = 'bech32';
  } catch {
    try {
      decoded = bech32m.decode(lower as `${string}1${string}`, 90);
      variant = 'bech32m';
    } catch {
      return { ok: false, reason: 'has a bad checksum or characters' };
    }
  }
  const [version, ...rest] = decoded.words;
  if (version === undefined || version > 16) return { ok: false, reason: 'has an invalid witness version' };
  // A right checksum over 5-bit words that do not make whole bytes (BIP-350's "excess/non-zero padding" vectors).
  const program = bech32.fromWordsUnsafe(rest);
  if (!program) return { ok: false, reason: 'has a witness program that is not whole bytes' };
  if (program.length < 2 || program.length > 40) return { ok: false, reason: 'has an invalid witness program length' };
  if (version === 0) {
    if (variant !== 'bech32') return { ok: false, reason: 'uses the wrong checksum for witness version 0' };
    if (program.length === 20) return { ok: true, kind: 'p2wpkh', address: lower };
    if (program.length === 32) return { ok: true, kind: 'p2wsh', address: lower };
    return { ok: false, reason: 'has an invalid witness program length' };
  }
  if (variant !== 'bech32m') return { ok: false, reason: `uses the wrong checksum for witness version ${version}` };
  return { ok: true, kind: version === 1 && program.length === 32 ? 'p2tr' : 'witness', address: lower };
}

function checkLegacy(address: string, network: BitcoinNetwork): AddressCheck {
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return { ok: false, reason: 'is not a valid Bitcoin address (bad characters or checksum)' };
  }
  if (payload.length !== 21) return { ok: false, reason: 'has the wrong length' };
  const version = payload[0];
  const wanted = network === 'mainnet' ? LEGACY.mainnet : LEGACY.test;
  if (version === wanted.p2pkh) return { ok: true, kind: 'p2pkh', address };
  if (version === wanted.p2sh) return { ok: true, kind: 'p2sh', address };
  const other = network === 'mainnet' ? LEGACY.test : LEGACY.mainnet;
  if (version === other.p2pkh || version === other.p2sh) {
    return {
      ok: false,
      reason: `is a ${network === 'mainnet' ? 'testnet' : 'mainnet'} address, but this service runs on ${network}`,
    };
  }
  return { ok: false, reason: 'has an unknown version byte' };
}

/** Checks a Bitcoin address (base58check, bech32, bech32m) for the configured network. Pure, offline. */
export function checkBitcoinAddress(input: string, network: BitcoinNetwork): AddressCheck {
  const address = input.trim();
  if (!address) return { ok: false, reason: 'is empty' };
  if (address.length > 90) return { ok: false, reason: 'is too long' };
  return /^(bc|tb|bcrt)1/i.test(address) ? checkSegwit(address, network) : checkLegacy(address, network);
}
