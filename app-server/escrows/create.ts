import { randomUUID } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import type { z } from 'zod';
import { escrowAggregate } from '../../domain/aggregates.ts';
import type { createEscrowSchema } from '../../domain/escrow/api-schemas.ts';
import { displayBtc, displayUsd, parseUsdToCents } from '../../domain/money.ts';
import { displayUtc } from '../../domain/shared/display-time.ts';
import { DomainError, forbidden } from '../../domain/shared/errors.ts';
import { checkSecondFactor } from '../accounts/second-factor.ts';
import { type CommandMeta, executeCommand } from '../commands/execute.ts';
import { publicUrl } from '../config.ts';
import { PREPARE } from '../db/database.ts';
import type { AppDeps, SignedInUser } from '../http/env.ts';
import { queuedMail } from '../mail/outbox.ts';
import { takeFreeAddress } from './payment-address.ts';

/** Compiled once: every escrow opened reads it. */
const PRICING_IN_FORCE = CompiledQuery.raw(`${PREPARE} SELECT rate_cents, fee_bps FROM settings WHERE id = 1`, []);

/**
 * Opens an escrow at the rate and fee in force. The creator's role decides the side; the counterparty is invited
 * by mail in the same transaction; a buyer's escrow takes a free pool address at once when there is one.
 */
export async function createEscrow(deps: AppDeps, user: SignedInUser, input: z.infer<typeof createEscrowSchema>, meta: Omit<CommandMeta, 'actor'>) {
  const { db } = deps.database;
  if (user.role === 'admin') throw forbidden('Admins do not create escrows; sign in as a buyer or seller');
  if (user.totp_enabled) {
    if (!input.totp_code) throw new DomainError('invalid_input', '2FA code required to create escrow', {}, 'totp_required');
    if (!(await checkSecondFactor(db, deps.secrets, user.id, input.totp_code))) throw new DomainError('invalid_input', 'Invalid 2FA code', {}, 'totp_invalid');
  }
  const side = user.role;
  const counterparty = side === 'buyer' ? input.seller_email : input.buyer_email;
  if (!counterparty) throw new DomainError('invalid_input', side === 'buyer' ? 'seller_email is required' : 'buyer_email is required');
  const [pricing] = (await db.executeQuery<{ rate_cents: number | null; fee_bps: number }>(PRICING_IN_FORCE)).rows;
  if (!pricing?.rate_cents) throw new DomainError('not_ready', 'The BTC/USD rate has not been set yet; escrows cannot be created until an admin sets it');

  const escrowId = randomUUID();
  const actorMeta = { ...meta, actor: user.id };
  const result = await executeCommand(
    { db, store: deps.store },
    escrowAggregate,
    escrowId,
    {
      type: 'create',
      by: side,
      escrow_id: escrowId,
      created_by: user.id,
      creator_side: side,
      creator_email: user.email,
      counterparty_email: counterparty,
      product_service: input.product_service,
      description: input.description,
      amount_cents: parseUsdToCents(input.amount_usd),
      deadline_days: input.deadline_days,
      pricing: { rate_cents: pricing.rate_cents, fee_bps: pricing.fee_bps },
    },
    actorMeta,
    {
      newStream: true,
      alsoInsert: (stored) => {
        const created = stored[0]!;
        if (created.type !== 'EscrowCreated') return [];
        const d = created.data;
        return [queuedMail([
          {
            to: counterparty.toLowerCase(),
            subject: `${user.full_name} invited you to an escrow: ${d.product_service}`,
            text: [
              `${user.full_name} (${user.email}) opened an escrow with you as the ${side === 'buyer' ? 'seller' : 'buyer'}.`,
              '',
              `What: ${d.product_service}`,
              `Amount: ${displayUsd(d.amount_cents)} + ${displayUsd(d.fee_cents)} fee = ${displayUsd(d.total_cents)} (${displayBtc(d.amount_sats)})`,
              `Payment due by: ${displayUtc(d.payment_due_at)}`,
              '',
              `Sign in (or register with this e-mail address and confirm it) to see it: ${publicUrl(deps.config)}/escrow/${escrowId}`,
            ].join('\n'),
          },
        ])];
      },
    },
  );
  if (side === 'buyer') await takeFreeAddress(deps, escrowId, 'buyer', actorMeta, { mailAdminsWhenNone: false });
  return { escrowId, events: result.events };
}
