import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { createEscrowSchema } from '../../contract/escrow-requests.ts';
import { displayBtc, displayUsd, parseUsdToCents } from '../../domain/money.ts';
import { displayUtc } from '../../domain/shared/display-time.ts';
import { DomainError, forbidden } from '../../domain/shared/errors.ts';
import { passSecondFactor } from '../accounts/second-factor.ts';
import type { CommandMeta } from '../commands/handle.ts';
import { publicUrl } from '../config.ts';
import type { AppDeps, SignedInUser } from '../app-deps.ts';
import { queuedMail } from '../mail/outbox.ts';
import { userWords } from '../mail/user-words.ts';
import { onEscrow } from './commands.ts';
import { creationContext } from './creation-context.ts';
import { takeFreeAddress } from './payment-address.ts';
import { ESCROW_VIEW_SQL } from './view.ts';

const overCapIsNoAddress = (error: unknown) => {
  if (error instanceof DomainError && error.reason === 'unpaid_escrow_limit') return false;
  throw error;
};

/**
 * Opens an escrow at the rate and fee in force. The creator's role decides the side; the counterparty is invited
 * by mail in the same transaction; a buyer's escrow takes a free pool address at once when there is one. Answers the
 * escrow's id, the creator's side and `after`, the escrow as its creation's statement wrote it (its state and view,
 * for the answer without a read), unless taking an address changed it since.
 */
export async function createEscrow(
  deps: AppDeps,
  user: SignedInUser,
  input: z.infer<typeof createEscrowSchema>,
  meta: Omit<CommandMeta, 'actor'>,
) {
  const { db } = deps.database;
  if (user.role === 'admin') throw forbidden('Admins do not create escrows; sign in as a buyer or seller');
  if (!user.email_verified) {
    throw new DomainError(
      'forbidden',
      `Confirm your e-mail address before opening an escrow: open the link we mailed to ${user.email}, or ask for a new one from your profile`,
      {},
      'email_unverified',
    );
  }
  if (user.totp_enabled)
    await passSecondFactor(deps, user, input.totp_code, { missing: '2FA code required to create escrow', meta });
  const side = user.role;
  const counterparty = side === 'buyer' ? input.seller_email : input.buyer_email;
  if (!counterparty)
    throw new DomainError('invalid_input', side === 'buyer' ? 'seller_email is required' : 'buyer_email is required');
  // The per-user limit's slot, the pricing and the counterparty's account: one statement (creation-context.ts).
  const { slot, pricing, counterpartyId, checkpointLine } = await creationContext(db, {
    limit: { bucket: 'escrows-user', max: deps.config.RATE_LIMIT_ESCROWS, windowSeconds: 3600 },
    userId: user.id,
    counterpartyEmail: counterparty,
    detail: 'You have opened too many escrows in the last hour',
  });
  try {
    if (!pricing)
      throw new DomainError(
        'not_ready',
        'The BTC/USD rate has not been set yet; escrows cannot be created until an admin sets it',
      );
    return await open(deps, user, input, meta, { side, counterparty, counterpartyId, pricing, checkpointLine });
  } catch (error) {
    await slot.release();
    throw error;
  }
}

async function open(
  deps: AppDeps,
  user: SignedInUser,
  input: z.infer<typeof createEscrowSchema>,
  meta: Omit<CommandMeta, 'actor'>,
  {
    side,
    counterparty,
    counterpartyId,
    pricing,
    checkpointLine,
  }: {
    side: 'buyer' | 'seller';
    counterparty: string;
    counterpartyId: string | null;
    pricing: { rate_cents: number; fee_bps: number };
    checkpointLine: string | null;
  },
) {
  const escrowId = randomUUID();
  const actorMeta = { ...meta, actor: user.id };
  let view: string | undefined;
  const result = await onEscrow(
    deps.store,
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
      inspection_days: input.inspection_days,
      pricing,
      min_amount_cents: deps.config.MIN_ESCROW_USD,
      counterparty_id: counterpartyId,
    },
    actorMeta,
    {
      newStream: true,
      // The answer's view, written by the creation's own statement: a new escrow has no related rows to miss.
      returning: { table: 'escrows', sql: ESCROW_VIEW_SQL, id: escrowId, take: (value) => (view = value) },
      alsoInsert: (stored) => {
        const created = stored[0]!;
        if (created.type !== 'EscrowCreated') return [];
        const d = created.data;
        return [
          queuedMail([
            {
              to: counterparty.toLowerCase(),
              subject: 'You are invited to an escrow',
              text: [
                `The account ${user.email} opened an escrow with you as the ${side === 'buyer' ? 'seller' : 'buyer'}.`,
                '',
                ...userWords('Their name', user.full_name),
                '',
                ...userWords('What it is for', d.product_service),
                '',
                `Amount: ${displayUsd(d.amount_cents)} + ${displayUsd(d.fee_cents)} fee = ${displayUsd(d.total_cents)} (${displayBtc(d.amount_sats)})`,
                `Payment due by: ${displayUtc(d.payment_due_at)}`,
                '',
                side === 'seller'
                  ? 'Agree to the terms and pay, or decline them, on the escrow page.'
                  : 'Agree to the terms, or decline them, on the escrow page: you ship only once the payment is verified.',
                '',
                `Sign in (or register with this e-mail address and confirm it) to see it: ${publicUrl(deps.config)}/escrow/${escrowId}`,
                ...(checkpointLine ? [checkpointLine] : []),
              ].join('\n'),
            },
          ]),
        ];
      },
    },
  );
  // Over MAX_UNPAID_ESCROWS the escrow opens without an address; Make Payment then says why.
  const addressed =
    side === 'buyer' &&
    (await takeFreeAddress(deps, escrowId, 'buyer', actorMeta, { mailAdminsWhenNone: false, buyerId: user.id }).catch(
      overCapIsNoAddress,
    ));
  // An address taken changed the escrow after its creation's view: the caller reads it again.
  return { escrowId, side, after: addressed || !view ? undefined : { state: result.state, view } };
}
