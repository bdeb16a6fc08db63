import type { Kysely } from 'kysely';
import {
  addressAggregate,
  escrowAggregate,
  logKeyAggregate,
  reviewAggregate,
  settingsAggregate,
  userAggregate,
} from '../../domain/aggregates.ts';
import { LOG_KEY_ID } from '../../domain/transparency/events.ts';
import { SETTINGS_ID } from '../../domain/events.ts';
import type { EscrowCommand } from '../../domain/escrow/decide.ts';
import { handle } from '../commands/handle.ts';
import { assignPaymentAddress, verifyPayment } from '../escrows/commands.ts';
import type { Database } from '../db/schema.ts';
import type { EventStore } from '../event-store/event-store.ts';

export const fixtureId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const id = fixtureId;
export const FIXTURE_ADMIN = id(1);
const ADMIN = FIXTURE_ADMIN;
const BUYER = id(2);

/** A small but complete history: every event type of the catalogue appears at least once. */
export async function writeEveryEventType(deps: { db: Kysely<Database>; store: EventStore }): Promise<void> {
  let minute = 0;
  const meta = (actor = ADMIN) => ({
    actor,
    requestId: 'fixture',
    now: new Date(Date.UTC(2026, 0, 1) + minute++ * 60_000).toISOString(),
  });
  const user = (userId: string, command: Parameters<typeof userAggregate.decide>[0], actor = ADMIN) =>
    handle(deps.store, userAggregate, userId, command, meta(actor));
  const escrow = (escrowId: string, command: EscrowCommand, actor = ADMIN) =>
    handle(deps.store, escrowAggregate, escrowId, command, meta(actor));
  const address = (addressId: string, command: Parameters<typeof addressAggregate.decide>[0]) =>
    handle(deps.store, addressAggregate, addressId, command, meta());
  const review = (reviewId: string, command: Parameters<typeof reviewAggregate.decide>[0]) =>
    handle(deps.store, reviewAggregate, reviewId, command, meta());

  await handle(
    deps.store,
    settingsAggregate,
    SETTINGS_ID,
    { type: 'setPricing', rate_cents: 5_000_000, fee_bps: 200 },
    meta(),
  );
  // The transparency log's keys (public keys only; two made-up ones of the right form).
  const origin = 'escrow.example/log';
  await handle(
    deps.store,
    logKeyAggregate,
    LOG_KEY_ID,
    { type: 'introduce', origin, vkey: `${origin}+0a1b2c3d+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k` },
    meta('system'),
  );
  await handle(
    deps.store,
    logKeyAggregate,
    LOG_KEY_ID,
    { type: 'rotate', origin, vkey: `${origin}+4e5f6a7b+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW` },
    meta('system'),
  );
  await user(
    ADMIN,
    {
      type: 'register',
      user_id: ADMIN,
      username: 'admin',
      email: 'admin@example.com',
      full_name: 'Admin',
      role: 'admin',
      country: null,
      phone: null,
    },
    'system',
  );
  await user(
    BUYER,
    {
      type: 'register',
      user_id: BUYER,
      username: 'buyer',
      email: 'buyer@example.com',
      full_name: 'Buyer',
      role: 'buyer',
      country: 'DE',
      phone: null,
    },
    'system',
  );
  for (const command of [
    { type: 'verifyEmail', email: 'buyer@example.com' },
    { type: 'switchRole', to: 'seller' },
    { type: 'enableTwoFactor' },
    { type: 'regenerateRecoveryCodes', count: 10 },
    { type: 'disableTwoFactor' },
    { type: 'signIn' },
    { type: 'changePassword' },
    { type: 'resetPassword' },
    { type: 'suspend', reason: 'Check' },
    { type: 'unsuspend' },
    { type: 'update', full_name: 'Buyer Two' },
    { type: 'lockTwoFactor', failures: 5, window_minutes: 15 },
  ] as const) {
    await user(BUYER, command);
  }

  const create = (escrowId: string): EscrowCommand => ({
    type: 'create',
    by: 'buyer',
    escrow_id: escrowId,
    created_by: BUYER,
    creator_side: 'buyer',
    creator_email: 'buyer@example.com',
    counterparty_email: 'seller@example.com',
    product_service: 'Bike',
    description: 'A bike',
    amount_cents: 40_000,
    deadline_days: 1,
    pricing: { rate_cents: 5_000_000, fee_bps: 200 },
  });
  const funded = async (escrowId: string, addressId: string) => {
    await escrow(escrowId, create(escrowId));
    await address(addressId, {
      type: 'add',
      address_id: addressId,
      address: `bc1q${addressId.replaceAll('-', '')}`,
      network: 'mainnet',
    });
    await assignPaymentAddress(
      deps.store,
      { escrowId, addressId, address: `bc1q${addressId.replaceAll('-', '')}`, by: 'buyer' },
      meta(),
    );
    await escrow(escrowId, { type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] });
    await escrow(escrowId, { type: 'rejectPayment', by: 'admin', notes: 'not seen yet' });
    await escrow(escrowId, { type: 'markPaid', by: 'buyer', notes: 'sent again', evidence: [] });
    await verifyPayment(deps.store, { escrowId, notes: 'seen', txid: 'a'.repeat(64) }, meta());
    await escrow(escrowId, { type: 'setPayoutAddress', by: 'seller', address: 'bc1qseller' });
    await escrow(escrowId, { type: 'setPayoutAddress', by: 'buyer', address: 'bc1qbuyer' });
  };

  await funded(id(101), id(201));
  await escrow(id(101), { type: 'agree', by: 'seller' });
  await escrow(id(101), {
    type: 'ship',
    by: 'seller',
    method: 'shipping',
    carrier: 'DHL',
    tracking: 'JD014600006',
    note: 'Boxed',
  });
  await escrow(id(101), { type: 'receive', by: 'buyer' });
  await escrow(id(101), { type: 'confirmReceipt', by: 'buyer' });
  await escrow(id(101), { type: 'freeze', by: 'admin', reason: 'Check' });
  await escrow(id(101), { type: 'unfreeze', by: 'admin', reason: 'Fine' });
  await escrow(id(101), { type: 'release', by: 'admin', notes: 'done', txid: null });
  await escrow(id(101), { type: 'bindParty', by: 'system', side: 'seller', user_id: id(3) }, 'system');
  await funded(id(102), id(202));
  await escrow(id(102), { type: 'refund', by: 'admin', notes: 'no delivery', txid: null });
  await funded(id(103), id(203));
  // The decider draws the dispute's id: a fixed one here, like every other id of the fixture.
  await handle(
    deps.store,
    escrowAggregate,
    id(103),
    { type: 'openDispute', by: 'buyer', reason: 'Half delivered' },
    { ...meta(), newId: () => id(301) },
  );
  // The conversation of the dispute: a party's message, and an admin's with a file (its reference; the bytes stay out).
  const message = (author: string, command: EscrowCommand, messageId: string) =>
    handle(deps.store, escrowAggregate, id(103), command, { ...meta(author), newId: () => messageId });
  await message(BUYER, { type: 'postMessage', by: 'buyer', text: 'Only half of it arrived' }, id(501));
  const photo = {
    evidence_id: id(502),
    filename: 'parcel.png',
    content_type: 'image/png',
    size_bytes: 2048,
    sha256: 'c'.repeat(64),
  };
  await message(ADMIN, { type: 'postMessage', by: 'admin', text: 'Please both send photos', file: photo }, id(503));
  await escrow(id(103), {
    type: 'resolveDispute',
    by: 'admin',
    outcome: 'Split',
    resolution: 'split',
    seller_percent: 50,
    txid: null,
  });
  await escrow(id(104), create(id(104)));
  await escrow(id(104), { type: 'cancel', by: 'buyer' });
  await escrow(id(105), create(id(105)));
  minute += 3 * 24 * 60;
  await escrow(id(105), { type: 'expire', by: 'system' }, 'system');
  // Declined unpaid (cancelled), and accepted by the system at the end of its inspection period.
  await escrow(id(106), create(id(106)));
  await escrow(id(106), { type: 'decline', by: 'seller', reason: 'Sold elsewhere' });
  await funded(id(107), id(207));
  await escrow(id(107), { type: 'agree', by: 'seller' });
  await escrow(id(107), { type: 'ship', by: 'seller', method: 'digital' });
  await escrow(id(107), { type: 'receive', by: 'buyer' });
  minute += 4 * 24 * 60;
  await escrow(id(107), { type: 'acceptAfterInspection', by: 'system' }, 'system');
  // Settlement by agreement: a refund declined, a split withdrawn, then a split accepted and paid out with no dispute.
  const proposal = (command: EscrowCommand, proposalId: string) =>
    handle(deps.store, escrowAggregate, id(108), command, { ...meta(BUYER), newId: () => proposalId });
  await funded(id(108), id(208));
  await proposal({ type: 'propose', by: 'buyer', kind: 'refund', note: 'It never came' }, id(601));
  await escrow(id(108), {
    type: 'declineProposal',
    by: 'seller',
    proposal_id: id(601),
    reason: 'Tracking says delivered',
  });
  await proposal({ type: 'propose', by: 'seller', kind: 'split', seller_percent: 90 }, id(602));
  await escrow(id(108), { type: 'withdrawProposal', by: 'seller', proposal_id: id(602) });
  await proposal({ type: 'propose', by: 'buyer', kind: 'split', seller_percent: 70 }, id(603));
  await escrow(id(108), { type: 'acceptProposal', by: 'seller', proposal_id: id(603) });
  await escrow(id(108), {
    type: 'resolveDispute',
    by: 'admin',
    outcome: '',
    resolution: null,
    seller_percent: null,
    txid: null,
  });

  await address(id(204), { type: 'add', address_id: id(204), address: 'bc1qspare', network: 'mainnet' });
  await address(id(204), { type: 'change', address: 'bc1qspare2' });
  await address(id(204), { type: 'assign', escrow_id: id(104) });
  await address(id(204), { type: 'free', escrow_id: id(104) });
  await address(id(204), { type: 'remove' });

  const submit = (reviewId: string) =>
    review(reviewId, {
      type: 'submit',
      review_id: reviewId,
      name: 'R',
      email: null,
      country: 'DE',
      rating: 4.5,
      text: 'Fine',
      escrow_id: null,
      verified_deal: false,
    });
  await submit(id(401));
  await review(id(401), { type: 'approve' });
  await review(id(401), { type: 'edit', edited_text: 'Fine deal', admin_note: '' });
  await submit(id(402));
  await review(id(402), { type: 'reject', reason: 'Spam' });
  await review(id(402), { type: 'reopen' });
  await review(id(402), { type: 'delete' });
  await user(BUYER, { type: 'delete' });
}
