import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { adminConsolePath, adminEmails } from './notifications.ts';

/** Below this many available addresses the admins are told, once, until the pool is topped up again. */
export const LOW_POOL_THRESHOLD = 3;
const NOTICE = 'address_pool_low';

/**
 * An `alsoWrite` hook for every change to the pool: when fewer than three addresses are available the admins get
 * one mail (the notice row remembers it was sent) linking to the console's Addresses tab; when the pool is back at
 * three or more the notice clears, so the next shortage is reported again. Runs in the transaction of the change,
 * so concurrent changes serialise on the notice row's primary key.
 */
export const checkAddressPool = (baseUrl: string) => async (trx: Transaction<Database>): Promise<void> => {
  const { available } = await trx
    .selectFrom('addresses')
    .select((eb) => eb.fn.countAll<number>().as('available'))
    .where('status', '=', 'available')
    .executeTakeFirstOrThrow();
  if (Number(available) >= LOW_POOL_THRESHOLD) {
    await trx.deleteFrom('notices').where('name', '=', NOTICE).execute();
    return;
  }
  const raised = await trx.insertInto('notices').values({ name: NOTICE }).onConflict((oc) => oc.doNothing()).returning('name').executeTakeFirst();
  if (!raised) return;
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
