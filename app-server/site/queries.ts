import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { migrationsApplied } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

/** Whether every migration is applied; throws when the database does not answer at all. */
export async function migrationsReady(db: Kysely<Database>): Promise<boolean> {
  await sql`SELECT 1`.execute(db);
  return migrationsApplied(db);
}
