import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Takes the notice `name`: true the first time, false while its row stands (until its owner deletes it), across
 * every server process. Taken in the transaction that sends what it tells, so a rollback gives it back.
 */
export async function takeNotice(trx: Kysely<Database>, name: string): Promise<boolean> {
  const taken = await trx
    .insertInto('notices')
    .values({ name })
    .onConflict((oc) => oc.doNothing())
    .returning('name')
    .executeTakeFirst();
  return taken !== undefined;
}
