import type { Selectable } from 'kysely';
import type { EscrowActor } from '../../domain/escrow/decide.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import type { SignedInUser } from '../http/env.ts';

/**
 * How a signed-in user stands to an escrow: admins act as admin; the creator on their side; anyone else only
 * through an e-mail address they have verified. Null: not a party (the API answers 404, as for no escrow).
 */
export function relationTo(escrow: Selectable<EscrowRow>, user: SignedInUser): EscrowActor | null {
  if (user.role === 'admin') return 'admin';
  if (escrow.created_by === user.id) return escrow.creator_side;
  if (!user.email_verified) return null;
  const email = user.email.toLowerCase();
  if (escrow.buyer_email === email) return 'buyer';
  if (escrow.seller_email === email) return 'seller';
  return null;
}
