-- A database role for the server that cannot change or remove events (see the README's security section).
-- Run as the owner of the schema (the role that runs the migrations), after the migrations, with psql:
--   psql "$OWNER_DATABASE_URL" -v app_role=escrow_app -f deploy/app-role.sql
-- then create the role's password (ALTER ROLE escrow_app PASSWORD '...') and give the server
--   DATABASE_URL=postgres://escrow_app:...@host/db
-- Run it again after every upgrade that adds tables (the default privileges below cover tables the owner creates).
-- The server migrates at start: with this role it finds nothing to do (it may read and lock the migration tables).
-- Upgrades: run the migrations first as the owner (DATABASE_URL of the owner, `npm run cli -- migrate` or one start
-- of the server as the owner), then start the servers with the application role.

SELECT format('CREATE ROLE %I LOGIN', :'app_role')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app_role') \gexec

GRANT USAGE ON SCHEMA public TO :"app_role";
-- Every table: read and write (read models, sessions, mail, idempotency keys...).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO :"app_role";
-- ...but the log: read and append only. No UPDATE, DELETE or TRUNCATE, and not the owner (who alone may switch the
-- append-only trigger off).
REVOKE UPDATE, DELETE, TRUNCATE ON events FROM :"app_role";
REVOKE TRUNCATE ON ALL TABLES IN SCHEMA public FROM :"app_role";
