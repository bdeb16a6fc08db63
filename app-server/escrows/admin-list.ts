import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { jsonArray } from '../db/json-view.ts';
import { allowedActionsOfRow, ESCROW_STATE_COLUMNS } from './allowed-actions.ts';
import { escrowViewJson, withSide } from './view.ts';

export const ESCROW_STATUSES = ['pending_payment', 'funded', 'released', 'disputed', 'frozen', 'cancelled', 'refunded'] as const;

export interface AdminEscrowQuery {
  status?: (typeof ESCROW_STATUSES)[number] | undefined;
  /** Part of an escrow id (from its start) or of the buyer's or seller's e-mail. */
  search?: string | undefined;
  limit: number;
  offset: number;
}

/** `%` and `_` typed into the search box are letters, not wildcards. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of every escrow as admins see them, newest first, filtered by status and searched by id or e-mail, with
 * how many match in all (the console's pager). The answer's escrows are the same JSON as GET /api/escrows/{id}.
 */
export async function listEscrowsForAdmin(db: Kysely<Database>, query: AdminEscrowQuery): Promise<string> {
  let filtered = db.selectFrom('escrows as e');
  if (query.status) filtered = filtered.where('e.status', '=', query.status);
  const search = query.search?.trim().toLowerCase();
  if (search) {
    const prefix = `${literal(search)}%`;
    const part = `%${literal(search)}%`;
    filtered = filtered.where((eb) =>
      eb.or([eb(sql`e.id::text`, 'like', prefix), eb('e.buyer_email', 'like', part), eb('e.seller_email', 'like', part)]),
    );
  }
  const [rows, count] = await Promise.all([
    filtered.select([...ESCROW_STATE_COLUMNS, escrowViewJson().as('view')]).orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(query.limit).offset(query.offset).execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return `{"total":${Number(count.total)},"escrows":${jsonArray(rows.map((r) => withSide(r.view, 'admin', allowedActionsOfRow(r, 'admin'))))}}`;
}
