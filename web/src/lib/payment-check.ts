import type { Escrow } from '../../../contract/escrows.ts';

/**
 * How a funded escrow's payment was checked, in words: proven on the chain by an SPV proof (with what it showed) or
 * checked by an admin by hand. Null while the payment is not verified.
 */
export function paymentCheckText(escrow: Pick<Escrow, 'funded_at' | 'payment_proof'>): string | null {
  if (!escrow.funded_at) return null;
  const proof = escrow.payment_proof;
  if (!proof) return 'Checked by an admin';
  const confirmations = `${proof.confirmations} confirmation${proof.confirmations === 1 ? '' : 's'}`;
  return `Proven on the chain: ${confirmations}, block ${proof.block_hash}${proof.work_judged ? '' : ' (test network: work not judged)'}`;
}
