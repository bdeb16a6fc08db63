import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A full user id, as the event sentences (projections/audit-log/summary.ts) name users. */
const USER_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The usernames of the users the texts name by id (one query); a deleted user is not in the answer. */
export async function usernamesIn(db: Kysely<Database>, texts: readonly string[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const text of texts) for (const [id] of text.matchAll(USER_ID)) ids.add(id.toLowerCase());
  if (ids.size === 0) return new Map();
  const users = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(users.map((u) => [u.id.toLowerCase(), u.username]));
}

/** The text with each user id replaced by the username, or by `user 1a2b3c4d` for a user no longer there. */
export const withUsernames = (text: string, names: ReadonlyMap<string, string>) =>
  text.replace(USER_ID, (id) => names.get(id.toLowerCase()) ?? `user ${id.slice(0, 8)}`);

/** The texts with their users named, in one query. */
export async function nameUsers(db: Kysely<Database>, texts: readonly string[]): Promise<string[]> {
  const names = await usernamesIn(db, texts);
  return texts.map((text) => withUsernames(text, names));
}
