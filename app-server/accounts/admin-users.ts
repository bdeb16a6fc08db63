import { sql } from 'kysely';
import { userAggregate } from '../../domain/aggregates.ts';
import type { Role } from '../../domain/shared/schemas.ts';
import { conflict, forbidden, notFound } from '../../domain/shared/errors.ts';
import { hashGateFor } from '../auth/hash-gate.ts';
import { hashPassword } from '../auth/passwords.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import type { AppDeps } from '../app-deps.ts';
import { bindEscrowsOf } from '../party-binding/commands.ts';
import { findUserByEmail, findUserById } from './user-view.ts';
import { FINAL_ESCROW_STATUSES } from '../../domain/escrow/final-statuses.ts';

async function target(deps: AppDeps, id: string) {
  const user = await findUserById(deps.database.db, id);
  if (!user) throw notFound('User not found');
  return user;
}

/**
 * Every sign-in appends to the user's stream, so an admin action can lose the version race to a login landing at
 * the same moment. That must not let someone who keeps signing in dodge a suspension (or a deletion): on a
 * conflict the command is decided again on the fresh stream.
 */
const run = (deps: AppDeps, id: string, command: Parameters<typeof userAggregate.decide>[0], meta: CommandMeta) =>
  handle(deps.store, userAggregate, id, command, meta, { attempts: 10 });

/** Escrows the account is a party to by its verified e-mail stay with it when the address goes (deletion, change). */
const keepEscrows = (deps: AppDeps, user: { id: string; email: string; email_verified: boolean }, meta: CommandMeta) =>
  user.email_verified ? bindEscrowsOf({ db: deps.database.db, store: deps.store }, user, meta) : Promise.resolve();

export async function updateUser(
  deps: AppDeps,
  id: string,
  changes: { full_name?: string; email?: string; role?: Role },
  meta: CommandMeta,
) {
  const user = await target(deps, id);
  if (changes.email) {
    const other = await findUserByEmail(deps.database.db, changes.email);
    if (other && other.id !== id) throw conflict('That e-mail address is already registered');
    if (changes.email.toLowerCase() !== user.email.toLowerCase()) await keepEscrows(deps, user, meta);
  }
  await run(deps, id, { type: 'update', ...changes }, meta);
}

export async function suspendUser(deps: AppDeps, id: string, reason: string, meta: CommandMeta) {
  await target(deps, id);
  await run(deps, id, { type: 'suspend', reason }, meta);
  await revokeUserSessions(deps.database.db, id);
}

export async function unsuspendUser(deps: AppDeps, id: string, meta: CommandMeta) {
  await target(deps, id);
  await run(deps, id, { type: 'unsuspend' }, meta);
}

/** Deletes an account unless it is a party to an escrow that is not over yet. */
export async function deleteUser(deps: AppDeps, id: string, meta: CommandMeta) {
  const { db } = deps.database;
  const user = await target(deps, id);
  if (id === meta.actor) throw forbidden('You cannot delete your own account');
  const active = await db
    .selectFrom('escrows')
    .select('id')
    .where('status', 'not in', FINAL_ESCROW_STATUSES)
    .where((eb) =>
      eb.or([
        eb('created_by', '=', id),
        eb(sql`lower(buyer_email)`, '=', user.email.toLowerCase()),
        eb(sql`lower(seller_email)`, '=', user.email.toLowerCase()),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  if (active) throw conflict('This user is a party to an escrow that is not finished; it cannot be deleted');
  await keepEscrows(deps, user, meta);
  await run(deps, id, { type: 'delete' }, meta);
  await revokeUserSessions(db, id);
}

/** Sets a temporary password the user must change, and signs them out everywhere. */
export async function resetPassword(deps: AppDeps, id: string, temporaryPassword: string, meta: CommandMeta) {
  await target(deps, id);
  const hash = await hashGateFor(deps.config).run(() =>
    hashPassword(temporaryPassword, { log2N: deps.config.PASSWORD_HASH_COST, r: 8, p: 1 }),
  );
  await handle(deps.store, userAggregate, id, { type: 'resetPassword' }, meta, {
    alsoWrite: async (trx) => {
      // An upsert: a store restored from the log (import-events) has users but no credentials yet.
      const values = { password_hash: hash, must_change: true, updated_at: new Date().toISOString() };
      await trx
        .insertInto('credentials')
        .values({ user_id: id, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
  });
  await revokeUserSessions(deps.database.db, id);
}
