import type { Kysely, Selectable } from 'kysely';
import type { EscrowActor } from '../../domain/escrow/decide.ts';
import { notFound } from '../../domain/shared/errors.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import { executePrepared, preparedQuery } from '../db/database.ts';
import { jsonArray } from '../db/json-view.ts';
import type { Database } from '../db/schema.ts';
import type { SignedInUser } from '../app-deps.ts';
import { actingOn, actingOnRow, ESCROW_STATE_COLUMNS, escrowStateOfRow } from './allowed-actions.ts';
import { actionsChangeAt } from '../../domain/escrow/allowed-actions.ts';
import type { Computed } from '../caching/answers-at-position.ts';
import { escrowViewJson, withSide } from './view.ts';

type Parties = Pick<
  Selectable<EscrowRow>,
  'created_by' | 'creator_side' | 'buyer_email' | 'seller_email' | 'buyer_id' | 'seller_id'
>;

/**
 * How a signed-in user stands to an escrow: admins act as admin; the creator on their side; a side bound to an
 * account belongs to that account id only; the counterparty's side, while no account is bound to it, to whoever has
 * verified its e-mail address. Null: not a party (the API answers 404, as for no escrow).
 */
export function relationTo(escrow: Parties, user: SignedInUser): EscrowActor | null {
  if (user.role === 'admin') return 'admin';
  if (escrow.created_by === user.id) return escrow.creator_side;
  if (escrow.buyer_id === user.id) return 'buyer';
  if (escrow.seller_id === user.id) return 'seller';
  if (!user.email_verified) return null;
  const counterparty = escrow.creator_side === 'buyer' ? 'seller' : 'buyer';
  const bound = counterparty === 'buyer' ? escrow.buyer_id : escrow.seller_id;
  if (bound !== null) return null;
  const email = counterparty === 'buyer' ? escrow.buyer_email : escrow.seller_email;
  return email === user.email.toLowerCase() ? counterparty : null;
}

const ONE_ESCROW = preparedQuery((db, p: { id: string }) =>
  db.selectFrom('escrows as e').selectAll('e').select(escrowViewJson().as('view')).where('e.id', '=', p.id),
);

/**
 * The escrow, the user's side in it and the API's answer for it (JSON text); 404 when it does not exist or the user
 * is not a party to it.
 */
export async function findVisibleEscrow(db: Kysely<Database>, id: string, user: SignedInUser) {
  const [found] = await ONE_ESCROW(db, { id });
  const side = found ? relationTo(found, user) : null;
  if (!found || !side) throw notFound('Escrow not found');
  const { view, ...escrow } = found;
  return { escrow, side, answer: withSide(view, side, actingOnRow(escrow, side)) };
}

/**
 * Escrows the user created or is a party to by a verified e-mail (admins: all), newest first, as one JSON text. A side
 * bound to an account is matched by its id only; an unbound one by its e-mail. It holds until the first time at which
 * what one of them allows changes by the clock.
 */
export async function listVisibleEscrows(db: Kysely<Database>, user: SignedInUser, limit: number): Promise<Computed> {
  const all = db
    .selectFrom('escrows as e')
    .select([...ESCROW_STATE_COLUMNS, 'e.buyer_email', 'e.seller_email', escrowViewJson().as('view')])
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit);
  const email = user.email_verified ? user.email.toLowerCase() : null;
  const rows = await executePrepared(
    db,
    user.role === 'admin'
      ? all
      : all.where((eb) =>
          eb.or([
            eb('e.created_by', '=', user.id),
            eb('e.buyer_id', '=', user.id),
            eb('e.seller_id', '=', user.id),
            ...(email === null
              ? []
              : [
                  eb.and([eb('e.buyer_email', '=', email), eb('e.buyer_id', 'is', null)]),
                  eb.and([eb('e.seller_email', '=', email), eb('e.seller_id', 'is', null)]),
                ]),
          ]),
        ),
  );
  const now = new Date().toISOString();
  let until = Infinity;
  const escrows = rows.flatMap((row) => {
    const side = relationTo(row, user);
    if (!side) return [];
    const state = escrowStateOfRow(row);
    until = Math.min(until, actionsChangeAt(state, now) ?? Infinity);
    return [withSide(row.view, side, actingOn(state, side, now))];
  });
  return { text: jsonArray(escrows), until };
}
