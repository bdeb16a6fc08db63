import type { Kysely, Selectable } from 'kysely';
import { notFound } from '../../domain/shared/errors.ts';
import type { Database } from '../db/schema.ts';
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

/** The escrow and the user's side in it; 404 when it does not exist or the user is not a party to it. */
export async function findVisibleEscrow(db: Kysely<Database>, id: string, user: SignedInUser) {
  const escrow = await db.selectFrom('escrows').selectAll().where('id', '=', id).executeTakeFirst();
  const side = escrow ? relationTo(escrow, user) : null;
  if (!escrow || !side) throw notFound('Escrow not found');
  return { escrow, side };
}
