import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Every account, newest first, with whether it holds a temporary password (`must_change`; null without credentials). */
export const usersForAdmin = (db: Kysely<Database>) =>
  db
    .selectFrom('users')
    .leftJoin('credentials', 'credentials.user_id', 'users.id')
    .selectAll('users')
    .select('credentials.must_change')
    .orderBy('users.created_at', 'desc')
    .execute();

/** The stored password hash of an account with credentials. */
export const passwordHashOf = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('credentials').select('password_hash').where('user_id', '=', userId).executeTakeFirstOrThrow())
    .password_hash;
