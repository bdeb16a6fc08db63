import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { usernamesIn, withUsernames } from './usernames.ts';

/** Actors that are no user: jobs and the CLI, and the public review form. */
const NON_USER_ACTORS = new Set(['system', 'anonymous']);

export interface AuditLogFilter {
  limit: number;
  /** Entries older than this id: the next page. */
  before?: number | undefined;
  /** A username, a user id, `system` or `anonymous`. */
  actor?: string | undefined;
  object_type?: string | undefined;
  object_id?: string | undefined;
  action_type?: string | undefined;
  /** ISO-8601 bounds on the entry's time, both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * One page of the audit log, newest first, with the acting user's name where there is one, the users its summaries
 * name by username, and the username of a user the entry is about (`object_name`).
 */
export async function auditLogPage(db: Kysely<Database>, filter: AuditLogFilter) {
  let query = db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_user_id')
    .select([
      'audit_log.id',
      'action_type',
      'timestamp',
      'object_type',
      'object_id',
      'actor',
      'actor_user_id',
      'summary',
      'users.username as actor_username',
    ])
    .orderBy('audit_log.id', 'desc')
    .limit(filter.limit);
  if (filter.before) query = query.where('audit_log.id', '<', filter.before);
  if (filter.actor) query = query.where('actor', '=', await actorOf(db, filter.actor));
  if (filter.object_type) query = query.where('object_type', '=', filter.object_type);
  if (filter.object_id) query = query.where('object_id', '=', filter.object_id);
  if (filter.action_type) query = query.where('action_type', '=', filter.action_type);
  if (filter.from) query = query.where('timestamp', '>=', new Date(filter.from));
  if (filter.to) query = query.where('timestamp', '<=', new Date(filter.to));
  const rows = await query.execute();
  const names = await usernamesIn(
    db,
    rows.flatMap((r) => [r.summary, ...(r.object_type === 'user' ? [r.object_id] : [])]),
  );
  return rows.map((r) => ({
    ...r,
    timestamp: r.timestamp.toISOString(),
    summary: withUsernames(r.summary, names),
    object_name: r.object_type === 'user' ? (names.get(r.object_id.toLowerCase()) ?? null) : null,
  }));
}

/** The actor a filter names: a username's user id, else the text as given (a user id, `system`, `anonymous`). */
async function actorOf(db: Kysely<Database>, actor: string): Promise<string> {
  if (NON_USER_ACTORS.has(actor)) return actor;
  const user = await db.selectFrom('users').select('id').where('username', '=', actor).executeTakeFirst();
  return user?.id ?? actor;
}
