import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import type { escrowStatusSchema } from '../../contract/escrows.ts';
import type { Database } from '../db/schema.ts';
import { jsonArray } from '../db/json-view.ts';
import { actingOnRow, ESCROW_STATE_COLUMNS } from './allowed-actions.ts';
import { escrowViewJson, withSide } from './view.ts';

export interface AdminEscrowQuery {
  status?: z.infer<typeof escrowStatusSchema> | undefined;
  /** Part of an escrow id (from its start) or of the buyer's or seller's e-mail. */
  search?: string | undefined;
  /** 'true': only escrows ready to release; 'true' refund_due: only escrows the admins owe a refund. */
  ready?: 'true' | 'false' | undefined;
  refund_due?: 'true' | 'false' | undefined;
  limit: number;
  offset: number;
}

/** `%` and `_` typed into the search box are letters, not wildcards. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type Queue = 'ready_to_release' | 'refund_due';

/**
 * The open escrows that may stand in a queue (receipt confirmed, terms declined, or a refund or split agreed), judged one by one by the
 * escrow's rules: whether one is ready to release depends on its machine and on the time (a held payout address).
 */
async function queueRows(db: Kysely<Database>) {
  const now = new Date().toISOString();
  const rows = await db
    .selectFrom('escrows as e')
    .select([...ESCROW_STATE_COLUMNS, 'e.buyer_email', 'e.seller_email', 'e.created_at'])
    .where('e.closed_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('e.buyer_confirmed_at', 'is not', null),
        eb('e.declined_at', 'is not', null),
        eb('e.settlement_proposal_id', 'is not', null),
      ]),
    )
    .execute();
  return rows.map((row) => ({ id: row.id, acting: actingOnRow(row, 'admin', now) }));
}

/**
 * One page of every escrow as admins see them, newest first, filtered by status (or by queue: ready to release,
 * refund due) and searched by id or e-mail, with how many match in all (the console's pager) and how many stand in
 * each queue. The answer's escrows are the same JSON as GET /api/escrows/{id}.
 */
export async function listEscrowsForAdmin(db: Kysely<Database>, query: AdminEscrowQuery): Promise<string> {
  const queued = await queueRows(db);
  const inQueue = (queue: Queue) => queued.filter((r) => r.acting[queue]).map((r) => r.id);
  const ready = inQueue('ready_to_release');
  const refundDue = inQueue('refund_due');
  let filtered = db.selectFrom('escrows as e');
  if (query.status) filtered = filtered.where('e.status', '=', query.status);
  for (const [asked, ids] of [
    [query.ready, ready],
    [query.refund_due, refundDue],
  ] as const) {
    if (asked === 'true')
      filtered = ids.length ? filtered.where('e.id', 'in', ids) : filtered.where(sql<boolean>`false`);
  }
  const search = query.search?.trim().toLowerCase();
  if (search) {
    const prefix = `${literal(search)}%`;
    const part = `%${literal(search)}%`;
    filtered = filtered.where((eb) =>
      eb.or([
        eb(sql`e.id::text`, 'like', prefix),
        eb('e.buyer_email', 'like', part),
        eb('e.seller_email', 'like', part),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    filtered
      .select([...ESCROW_STATE_COLUMNS, escrowViewJson().as('view')])
      .orderBy('e.created_at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const now = new Date().toISOString();
  const escrows = jsonArray(rows.map((r) => withSide(r.view, 'admin', actingOnRow(r, 'admin', now))));
  return `{"total":${Number(count.total)},"ready_count":${ready.length},"refund_due_count":${refundDue.length},"escrows":${escrows}}`;
}
