import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// The public list filters on two statuses; one boolean with indexes in each sort order serves it without sorting.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('reviews')
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`UPDATE reviews SET published = status IN ('approved', 'edited_by_admin')`.execute(db);
  await sql`CREATE INDEX reviews_published_newest_idx ON reviews (published, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX reviews_published_highest_idx ON reviews (published, rating DESC, created_at DESC, id DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX reviews_published_country_idx ON reviews (published, country, created_at DESC, id DESC)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'reviews_published_newest_idx',
    'reviews_published_highest_idx',
    'reviews_published_country_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.alterTable('reviews').dropColumn('published').execute();
}
