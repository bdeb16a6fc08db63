import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { takeNotice } from './notices.ts';
import { enqueueMail } from './outbox.ts';

/** Mail to the admins: who they are, the places of the admin console a letter links to, a notice told once. */

/** The admin console's places, as its tabs read them from the URL. */
export const adminConsolePath = {
  verifications: '/admin?tab=verifications',
  disputes: '/admin?tab=disputes',
  addresses: '/admin?tab=addresses',
  escrow: (escrowId: string) => `/admin?tab=escrows&escrow=${encodeURIComponent(escrowId)}`,
  readyToRelease: '/admin?tab=escrows&ready=true',
};

/** The e-mail addresses of every admin who can act (not frozen). */
export async function adminEmails(trx: Kysely<Database>): Promise<string[]> {
  const rows = await trx
    .selectFrom('users')
    .select('email')
    .where('role', '=', 'admin')
    .where('is_frozen', '=', false)
    .execute();
  return rows.map((r) => r.email);
}

/**
 * Mails every admin once per `notice`, across every server process: the notice row is taken in the same transaction
 * as the mail, and stays until the condition is cleared (its owner deletes the row), so the next occurrence is told.
 */
export async function mailAdminsOnce(
  db: Kysely<Database>,
  notice: string,
  mail: { subject: string; lines: string[] },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await takeNotice(trx, notice))) return;
    const admins = await adminEmails(trx);
    await enqueueMail(
      trx,
      admins.map((to) => ({ to, subject: mail.subject, text: mail.lines.join('\n') })),
    );
  });
}
