import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { SecretBox } from '../auth/secret-box.ts';
import { hashToken } from '../auth/tokens.ts';
import { checkTotp } from '../auth/totp.ts';
import type { Database } from '../db/schema.ts';

/**
 * Checks a second factor: a 6-digit TOTP code (each step accepted once: the last used step is advanced with a
 * compare-and-set, so two concurrent uses of one code cannot both pass), or an unused recovery code.
 */
export async function checkSecondFactor(
  db: Kysely<Database>,
  secrets: SecretBox,
  userId: string,
  code: string,
  now = new Date(),
): Promise<boolean> {
  const row = await db.selectFrom('totp_secrets').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return false;
  const trimmed = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(trimmed)) {
    const step = checkTotp(secrets.open(row.secret_encrypted), trimmed, row.last_used_step, now);
    if (step === null) return false;
    const claimed = await db
      .updateTable('totp_secrets')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }
  if (!row.enabled) return false;
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashToken(normaliseRecoveryCode(trimmed)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Recovery codes are typed by people: case and dashes do not matter. */
export const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Whether the user has a second factor switched on. */
export async function hasSecondFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('totp_secrets')
    .select(sql<boolean>`enabled`.as('enabled'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.enabled === true;
}
