import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { UserRow } from '../../projections/users/table.ts';
import type { Database } from '../db/schema.ts';

/** A user as the API shows it: never a secret. `must_change_password`: signed in with a temporary password. */
export function userView(user: Selectable<UserRow>, mustChangePassword = false) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.email_verified,
    full_name: user.full_name,
    role: user.role,
    country: user.country,
    phone: user.phone,
    created_at: user.created_at.toISOString(),
    is_frozen: user.is_frozen,
    suspension_reason: user.suspension_reason,
    totp_enabled: user.totp_enabled,
    must_change_password: mustChangePassword,
  };
}

export const findUserById = (db: Kysely<Database>, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByUsername = (db: Kysely<Database>, username: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();

export const findUserByEmail = (db: Kysely<Database>, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
