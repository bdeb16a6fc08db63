import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { userAggregate } from '../../domain/aggregates.ts';
import { conflict } from '../../domain/shared/errors.ts';
import type { registerSchema } from '../../contract/user-requests.ts';
import { hashGateFor } from '../auth/hash-gate.ts';
import { hashPassword } from '../auth/passwords.ts';
import { consume } from '../auth/rate-limit.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import { publicUrl } from '../config.ts';
import type { AppDeps } from '../app-deps.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { queueVerificationMail } from './email-verification.ts';
import { findUserByEmail, findUserByUsername } from './user-view.ts';

export type Registration = z.infer<typeof registerSchema>;

/**
 * Opens an account: the UserRegistered event, the password hash (its own table) and the verification mail, in one
 * transaction. Registration never creates an admin.
 *
 * An e-mail address that already has an account gets the same answer, after the same work (the password is hashed
 * all the same), so nobody learns from it whose address is registered: its owner is mailed instead, and the id
 * answered belongs to no account. A taken username is still refused: usernames are shown to other people anyway.
 */
export async function register(deps: AppDeps, input: Registration, client: string, meta: Omit<CommandMeta, 'actor'>) {
  const { db } = deps.database;
  await consume(
    db,
    { bucket: 'register-ip', max: deps.config.RATE_LIMIT_REGISTER, windowSeconds: 3600 },
    client,
    'Too many registrations from your address',
  );
  if (await findUserByUsername(db, input.username)) throw conflict('That username is taken');
  const known = await findUserByEmail(db, input.email);
  const userId = randomUUID();
  const passwordHash = await hashGateFor(deps.config).run(() =>
    hashPassword(input.password, { log2N: deps.config.PASSWORD_HASH_COST, r: 8, p: 1 }),
  );
  if (known) {
    await mailOwnerOfKnownAddress(deps, known.email);
    return userId;
  }
  const now = new Date(meta.now ?? Date.now());
  await handle(
    deps.store,
    userAggregate,
    userId,
    {
      type: 'register',
      user_id: userId,
      username: input.username,
      email: input.email,
      full_name: input.full_name,
      role: input.role,
      country: input.country,
      phone: input.phone,
    },
    { ...meta, actor: userId, now: now.toISOString() },
    {
      alsoWrite: async (trx) => {
        await trx
          .insertInto('credentials')
          .values({ user_id: userId, password_hash: passwordHash, updated_at: now.toISOString() })
          .execute();
        await queueVerificationMail(trx, {
          userId,
          email: input.email,
          fullName: input.full_name,
          baseUrl: publicUrl(deps.config),
          now,
        });
      },
    },
  );
  return userId;
}

/** Someone tried to open an account with an address that has one: its owner hears of it, nobody else does. */
async function mailOwnerOfKnownAddress(deps: AppDeps, email: string) {
  await deps.database.db.transaction().execute((trx) =>
    enqueueMail(trx, [
      {
        to: email,
        subject: 'Someone tried to register with your e-mail address',
        text: [
          'Hello,',
          '',
          'Someone just tried to open a new account with this e-mail address, which already belongs to your account. No new account was opened and your account is unchanged.',
          '',
          `If it was you: sign in with your username at ${publicUrl(deps.config)}/login. If you forgot your password, contact support.`,
          'If it was not you, there is nothing to do.',
        ].join('\n'),
      },
    ]),
  );
}
