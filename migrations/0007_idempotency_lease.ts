import type { Kysely } from 'kysely';

/**
 * An Idempotency-Key's claim is a short lease (who holds it, until when), and the command it carried is marked
 * committed in the same transaction as its events, with the stream it acted on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('idempotency_keys')
    .addColumn('lease_token', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('committed_at', 'timestamptz')
    .addColumn('committed_stream', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('idempotency_keys')
    .dropColumn('lease_token')
    .dropColumn('lease_until')
    .dropColumn('committed_at')
    .dropColumn('committed_stream')
    .execute();
}
