import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { OutScript, RawTx, RawWitness, Transaction } from '@scure/btc-signer';
import type { BitcoinNetwork } from '../bitcoin-address.ts';
import { scriptOfAddress } from './spv.ts';

/**
 * BIP-322 "simple" signatures of a message by an address, checked offline: the virtual `to_spend` transaction commits
 * to the message (tagged hash "BIP0322-signed-message") and pays the address; `to_sign` spends it, and the signature
 * is that input's witness, base64. Supported: P2WPKH (ECDSA, BIP-143) and P2TR key path (Schnorr, BIP-341), what
 * wallets sign with today; others are refused as not supported.
 */

const TAG = sha256(new TextEncoder().encode('BIP0322-signed-message'));
const SIGHASH_ALL = 0x01;
const SIGHASH_DEFAULT = 0x00;

/** The message's tagged hash, as `to_spend`'s input commits to it. */
export function bip322MessageHash(message: string): Uint8Array {
  const bytes = new TextEncoder().encode(message);
  const all = new Uint8Array(64 + bytes.length);
  all.set(TAG, 0);
  all.set(TAG, 32);
  all.set(bytes, 64);
  return sha256(all);
}

/** `to_spend`'s txid in display order (what `to_sign`'s input names). */
function toSpendTxid(script: Uint8Array, message: string): Uint8Array {
  const scriptSig = new Uint8Array(34);
  scriptSig[0] = 0x00;
  scriptSig[1] = 0x20;
  scriptSig.set(bip322MessageHash(message), 2);
  const raw = RawTx.encode({
    version: 0,
    segwitFlag: false,
    inputs: [{ txid: new Uint8Array(32), index: 0xffffffff, finalScriptSig: scriptSig, sequence: 0 }],
    outputs: [{ amount: 0n, script }],
    witnesses: undefined,
    lockTime: 0,
  });
  return sha256(sha256(raw)).reverse();
}

/** The unsigned `to_sign` transaction for an address's output script and a message. */
export function toSignTransaction(
  script: Uint8Array,
  message: string,
  extra: { tapInternalKey?: Uint8Array } = {},
): Transaction {
  const tx = new Transaction({ version: 0, allowUnknownVersion: true, allowUnknownOutputs: true, lockTime: 0 });
  tx.addInput({
    txid: toSpendTxid(script, message),
    index: 0,
    sequence: 0,
    witnessUtxo: { script, amount: 0n },
    ...extra,
  });
  tx.addOutput({ script: Uint8Array.of(0x6a), amount: 0n });
  return tx;
}

/**
 * The exact message a party signs to prove an address (GET /api/escrows/{id}/address-message): it names the origin,
 * the escrow, the side and the address, so a signature is good for nothing else.
 */
export function addressProofMessage(input: {
  origin: string;
  escrowId: string;
  side: 'buyer' | 'seller';
  address: string;
}): string {
  const use = input.side === 'seller' ? "seller's payout" : "buyer's refund";
  return `${input.origin} escrow ${input.escrowId}: I control ${input.address} and want it as the ${use} address.`;
}

export type Bip322Check = { ok: true; kind: 'p2wpkh' | 'p2tr' } | { ok: false; reason: string };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Checks a BIP-322 simple signature (base64) of `message` by `address` on `network`. Never throws. */
export function verifyBip322Simple(
  address: string,
  message: string,
  signature: string,
  network: BitcoinNetwork,
): Bip322Check {
  const text = signature.trim();
  if (!text || !BASE64.test(text) || text.length % 4 !== 0) return { ok: false, reason: 'signature is not base64' };
  let witness: Uint8Array[];
  try {
    const bytes = Uint8Array.from(Buffer.from(text, 'base64'));
    witness = RawWitness.decode(bytes);
  } catch {
    return { ok: false, reason: 'signature is not a BIP-322 simple signature (a witness stack, base64)' };
  }
  let script: Uint8Array;
  try {
    script = scriptOfAddress(address, network);
  } catch {
    return { ok: false, reason: `address is not a ${network} address` };
  }
  const decoded = OutScript.decode(script);
  try {
    const tx = toSignTransaction(script, message);
    if (decoded.type === 'wpkh') {
      const [sig, pub] = witness;
      if (witness.length !== 2 || !sig || !pub || pub.length !== 33)
        return { ok: false, reason: 'signature is not a P2WPKH witness (signature and public key)' };
      if (!equal(ripemd160(sha256(pub)), decoded.hash))
        return { ok: false, reason: 'signature was made by another key than the address' };
      if (sig.at(-1) !== SIGHASH_ALL) return { ok: false, reason: 'signature must sign with SIGHASH_ALL' };
      const hash = tx.preimageWitnessV0(0, OutScript.encode({ type: 'pkh', hash: decoded.hash }), SIGHASH_ALL, 0n);
      const valid = secp256k1.verify(sig.subarray(0, -1), hash, pub, { prehash: false, format: 'der', lowS: false });
      return valid
        ? { ok: true, kind: 'p2wpkh' }
        : { ok: false, reason: 'signature does not sign this message for this address' };
    }
    if (decoded.type === 'tr') {
      const [sig] = witness;
      if (witness.length !== 1 || !sig || (sig.length !== 64 && sig.length !== 65))
        return { ok: false, reason: 'signature is not a P2TR key-path witness (one Schnorr signature)' };
      const hashType = sig.length === 65 ? sig[64]! : SIGHASH_DEFAULT;
      // BIP-341: SIGHASH_DEFAULT is said by a 64-byte signature; a 65th byte of 0x00 makes it invalid.
      if (sig.length === 65 && hashType !== SIGHASH_ALL)
        return { ok: false, reason: 'signature must sign with SIGHASH_DEFAULT or SIGHASH_ALL' };
      const hash = tx.preimageWitnessV1(0, [script], hashType, [0n]);
      const valid = schnorr.verify(sig.subarray(0, 64), hash, decoded.pubkey);
      return valid
        ? { ok: true, kind: 'p2tr' }
        : { ok: false, reason: 'signature does not sign this message for this address' };
    }
    return { ok: false, reason: `signatures by ${decoded.type} addresses are not supported (P2WPKH and P2TR are)` };
  } catch {
    return { ok: false, reason: 'signature is malformed' };
  }
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);
