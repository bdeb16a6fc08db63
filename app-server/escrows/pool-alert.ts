import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { adminConsolePath, adminEmails } from '../mail/admins.ts';
import { takeNotice } from '../mail/notices.ts';

/** Below this many available addresses the admins are told, once, until the pool is topped up again. */
export const LOW_POOL_THRESHOLD = 3;
const NOTICE = 'address_pool_low';

/**
 * An `alsoWrite` hook for every change to the pool: when fewer than three addresses are available the admins get
 * one mail (the notice row remembers it was sent) linking to the console's Addresses tab; when the pool is back at
 * three or more the notice clears, so the next shortage is reported again. Runs in the transaction of the change,
 * so concurrent changes serialise on the notice row's primary key.
 */
export const checkAddressPool =
  (baseUrl: string) =>
  async (trx: Transaction<Database>): Promise<void> => {
    const { available } = await trx
      .selectFrom('addresses')
      .select((eb) => eb.fn.countAll<number>().as('available'))
      .where('status', '=', 'available')
      .executeTakeFirstOrThrow();
    if (Number(available) >= LOW_POOL_THRESHOLD) {
      await trx.deleteFrom('notices').where('name', '=', NOTICE).execute();
      return;
    }
    const raised = await takeNotice(trx, NOTICE);
    // A pool that flaps around the threshold raises the notice again and again: one mail an hour at most.
    if (!raised || !(await claimHourly(trx, `${NOTICE}_mailed`))) return;
    const admins = await adminEmails(trx);
    await enqueueMail(
      trx,
      admins.map((to) => ({
        to,
        subject: `Payment address pool is low: ${available} left`,
        text: [
          `Only ${available} payment address${Number(available) === 1 ? ' is' : 'es are'} available in the pool.`,
          'Buyers who ask for an address when none is free must wait for an admin. Add addresses under Addresses in the admin console.',
          '',
          `Add addresses: ${baseUrl}${adminConsolePath.addresses}`,
        ].join('\n'),
      })),
    );
  };

/**
 * Claims the right to send the alert `name` now: true at most once an hour, across every server process (the notice
 * row's time moves only when the hour has passed, in one statement).
 */
export async function claimHourly(db: Kysely<Database>, name: string): Promise<boolean> {
  const claimed = await db
    .insertInto('notices')
    .values({ name, raised_at: sql`now()` })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ raised_at: sql`now()` })
        .where('notices.raised_at', '<', sql<Date>`now() - interval '1 hour'`),
    )
    .returning('name')
    .executeTakeFirst();
  return claimed !== undefined;
}
