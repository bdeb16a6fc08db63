import { randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';

/** A fresh, valid mainnet P2WPKH address (a random key hash): pool or payout addresses no test has used. */
export const freshAddress = () => bech32.encode('bc', [0, ...bech32.toWords(randomBytes(20))]);
