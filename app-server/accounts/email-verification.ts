import type { Kysely, Transaction } from 'kysely';
import { userAggregate } from '../../domain/aggregates.ts';
import { invalidInput } from '../../domain/shared/errors.ts';
import { hashToken, newSecretToken } from '../auth/tokens.ts';
import { bindEscrowsOf } from '../party-binding/commands.ts';
import type { CommandMeta } from '../commands/handle.ts';
import { handle } from '../commands/handle.ts';
import type { Database } from '../db/schema.ts';
import type { EventStore } from '../event-store/event-store.ts';
import { enqueueMail } from '../mail/outbox.ts';

export const VERIFICATION_HOURS = 48;

/** Makes a single-use link for `email` and queues the mail that carries it, in the caller's transaction. */
export async function queueVerificationMail(
  trx: Transaction<Database>,
  input: { userId: string; email: string; fullName: string; baseUrl: string; now: Date },
): Promise<void> {
  const token = newSecretToken();
  await trx
    .insertInto('email_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: input.userId,
      email: input.email,
      expires_at: new Date(input.now.getTime() + VERIFICATION_HOURS * 3_600_000).toISOString(),
    })
    .execute();
  await enqueueMail(trx, [
    {
      to: input.email,
      subject: 'Confirm your e-mail address',
      text: [
        'Hello,',
        '',
        'Please confirm this e-mail address by opening the link below. Escrows that name this address become',
        'visible to you once it is confirmed.',
        '',
        `${input.baseUrl}/verify-email?token=${token}`,
        '',
        `The link works once, for ${VERIFICATION_HOURS} hours. If you did not sign up, ignore this mail.`,
      ].join('\n'),
    },
  ]);
}

/** Uses a verification link: the token must be unused, unexpired and for the account's current e-mail. */
export async function verifyEmailToken(
  deps: { db: Kysely<Database>; store: EventStore },
  token: string,
  meta: Omit<CommandMeta, 'actor'>,
): Promise<void> {
  const now = new Date(meta.now ?? Date.now());
  const row = await deps.db
    .selectFrom('email_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.used_at || row.expires_at <= now)
    throw invalidInput('This verification link is invalid or has expired');
  await handle(
    deps.store,
    userAggregate,
    row.user_id,
    { type: 'verifyEmail', email: row.email },
    { ...meta, actor: row.user_id },
    {
      alsoWrite: async (trx) => {
        const used = await trx
          .updateTable('email_tokens')
          .set({ used_at: now.toISOString() })
          .where('token_hash', '=', row.token_hash)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) throw invalidInput('This verification link was already used');
      },
    },
  );
  // A verified account is now the party its invitations name: those escrows stay with this account id.
  await bindEscrowsOf(deps, { id: row.user_id, email: row.email }, meta);
}
