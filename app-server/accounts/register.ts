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
import { queueVerificationMail } from './email-verification.ts';
import { findUserByEmail, findUserByUsername } from './user-view.ts';

export type Registration = z.infer<typeof registerSchema>;

/**
 * Opens an account: the UserRegistered event, the password hash (its own table) and the verification mail, in one
 * transaction. Registration never creates an admin.
 */
export async function register(deps: AppDeps, input: Registration, client: string, meta: Omit<CommandMeta, 'actor'>) {
  const { db } = deps.database;
  await consume(db, { bucket: 'register-ip', max: deps.config.RATE_LIMIT_REGISTER, windowSeconds: 3600 }, client, 'Too many registrations from your address');
  if (await findUserByUsername(db, input.username)) throw conflict('That username is taken');
  if (await findUserByEmail(db, input.email)) throw conflict('That e-mail address is already registered');
  const userId = randomUUID();
  const passwordHash = await hashGateFor(deps.config).run(() => hashPassword(input.password, { log2N: deps.config.PASSWORD_HASH_COST, r: 8, p: 1 }));
  const now = new Date(meta.now ?? Date.now());
  await handle(deps.store, userAggregate,
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
        await trx.insertInto('credentials').values({ user_id: userId, password_hash: passwordHash, updated_at: now.toISOString() }).execute();
        await queueVerificationMail(trx, { userId, email: input.email, fullName: input.full_name, baseUrl: publicUrl(deps.config), now });
      },
    },
  );
  return userId;
}
