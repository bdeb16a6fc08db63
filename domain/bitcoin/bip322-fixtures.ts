import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { p2tr, p2wpkh, RawWitness } from '@scure/btc-signer';
import type { BitcoinNetwork } from '../bitcoin-address.ts';
import { toSignTransaction } from './bip322.ts';
import { NETWORK_PARAMS } from './spv.ts';

/** A fixed test key's address of a kind on a network, and a signer of BIP-322 simple signatures with it, as a wallet signs. */
export function testSigner(kind: 'p2wpkh' | 'p2tr', network: BitcoinNetwork, seed = 'seller') {
  const priv = sha256(new TextEncoder().encode(`bip322 test key ${seed}`));
  const pub = secp256k1.getPublicKey(priv, true);
  const payment =
    kind === 'p2wpkh'
      ? p2wpkh(pub, NETWORK_PARAMS[network])
      : p2tr(pub.subarray(1), undefined, NETWORK_PARAMS[network]);
  return {
    address: payment.address!,
    sign(message: string): string {
      const tx = toSignTransaction(payment.script, message, kind === 'p2tr' ? { tapInternalKey: pub.subarray(1) } : {});
      tx.signIdx(priv, 0);
      tx.finalizeIdx(0);
      return Buffer.from(RawWitness.encode(tx.getInput(0).finalScriptWitness!)).toString('base64');
    },
  };
}
