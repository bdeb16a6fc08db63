import { type Kysely, type MigrationResultSet, Migrator, sql } from 'kysely';
import { migrations } from '../../migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * Unordered migrations are allowed: branches developed side by side each add one (0006_setup_tokens,
 * 0007_idempotency_lease, ...), and a database that applied a later-numbered one first must still take the other
 * when it arrives rather than refuse to start. Each migration touches only its own tables and columns.
 */
function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
}

const UNDEFINED_TABLE = '42P01';

/**
 * True when every known migration is recorded as applied: one query, where the Migrator's own check takes a
 * dozen (it creates its tables and takes its lock first). Run at every start and by every readiness check.
 */
async function nothingPending(db: Kysely<Database>): Promise<boolean> {
  return (await pendingMigrations(db)).length === 0;
}

/** The known migrations the database has not applied, in order (all of them on a new database). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`
    .execute(db)
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === UNDEFINED_TABLE) return { rows: [] }; // a new database
      throw error;
    });
  const applied = new Set(rows.map((r) => r.name));
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  if (await nothingPending(db)) return [];
  const result: MigrationResultSet = await migrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String((result.error as Error).message ?? result.error)}`);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied. */
export async function migrationsApplied(db: Kysely<Database>): Promise<boolean> {
  return nothingPending(db);
}
