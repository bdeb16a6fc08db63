import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// The event log is append-only in the database itself: a row of `events` is never updated or deleted, whoever
// asks (the application never does; replay rebuilds read models, import-events inserts into an empty store). Only a
// role that may ALTER the table (its owner) can switch the trigger off: the application's own role should not be
// that role (see the README's security section for the GRANT set of a role without those rights).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'events is append-only: % refused on event %', TG_OP, OLD.position
        USING ERRCODE = 'insufficient_privilege';
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS events_append_only ON events`.execute(db);
  await sql`DROP FUNCTION IF EXISTS events_append_only()`.execute(db);
}
