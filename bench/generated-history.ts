/**
 * Generated but rule-abiding history for benchmarks and replay checks: users, pool addresses, escrows that are
 * released, refunded, disputed and split, or cancelled, and reviews. Every event comes out of the real deciders;
 * the `Runner` decides how commands reach the store (one append per command, or many deals per append).
 * Never run against real data.
 */
import { randomUUID } from 'node:crypto';
import {
  type Aggregate,
  addressAggregate,
  escrowAggregate,
  reviewAggregate,
  userAggregate,
} from '../domain/aggregates.ts';
import type { Part } from '../app-server/commands/handle.ts';

export interface Runner {
  one<State, Command>(aggregate: Aggregate<State, Command>, id: string, command: Command, actor: string): Promise<void>;
  across(parts: Part<unknown, unknown>[], actor: string): Promise<void>;
}

const TXID = 'c'.repeat(64);
export const PRICING = { rate_cents: 6_543_210, fee_bps: 150 };
const part = <S, C>(p: Part<S, C>) => p as Part<unknown, unknown>;

export async function generatedUser(run: Runner, role: 'buyer' | 'seller' | 'admin', id = randomUUID()) {
  const username = `${role}-${id.replaceAll('-', '').slice(0, 16)}`;
  const email = `${username}@example.com`;
  await run.one(
    userAggregate,
    id,
    {
      type: 'register',
      user_id: id,
      username,
      email,
      full_name: `Generated ${role}`,
      role,
      country: 'DE',
      phone: null,
    },
    'system',
  );
  await run.one(userAggregate, id, { type: 'verifyEmail', email }, id);
  return { id, email };
}

/** One whole deal between two new users; `n` picks its ending (7 in 10 released, 1 refunded, 1 split, 1 cancelled). */
export async function generatedDeal(run: Runner, n: number, admin: string) {
  const [buyer, seller] = await Promise.all([generatedUser(run, 'buyer'), generatedUser(run, 'seller')]);
  const escrowId = randomUUID();
  const addressId = randomUUID();
  const address = `bc1q${addressId.replaceAll('-', '')}`;
  await run.one(
    addressAggregate,
    addressId,
    { type: 'add', address_id: addressId, address, network: 'mainnet' },
    admin,
  );
  await run.one(
    escrowAggregate,
    escrowId,
    {
      type: 'create',
      by: 'buyer',
      escrow_id: escrowId,
      created_by: buyer.id,
      creator_side: 'buyer',
      creator_email: buyer.email,
      counterparty_email: seller.email,
      product_service: `Item ${n}`,
      description: 'Generated deal',
      amount_cents: 1_000 + ((n * 7919) % 5_000_000),
      deadline_days: 7,
      pricing: PRICING,
    },
    buyer.id,
  );
  if (n % 10 === 9) {
    await run.one(escrowAggregate, escrowId, { type: 'cancel', by: 'buyer' }, buyer.id);
    return;
  }
  await run.across(
    [
      part({
        aggregate: escrowAggregate,
        id: escrowId,
        command: { type: 'requestPayment', by: 'buyer', address_id: addressId, address },
      }),
      part({ aggregate: addressAggregate, id: addressId, command: { type: 'assign', escrow_id: escrowId } }),
    ],
    buyer.id,
  );
  await run.one(escrowAggregate, escrowId, { type: 'markPaid', by: 'buyer', notes: 'Sent', evidence: [] }, buyer.id);
  await run.across(
    [
      part({
        aggregate: escrowAggregate,
        id: escrowId,
        command: { type: 'verifyPayment', by: 'admin', notes: 'Seen on chain', txid: TXID },
      }),
      part({ aggregate: addressAggregate, id: addressId, command: { type: 'markUsed', escrow_id: escrowId } }),
    ],
    admin,
  );
  await run.one(
    escrowAggregate,
    escrowId,
    { type: 'setPayoutAddress', by: 'seller', address: 'bc1qsellerpayout' },
    seller.id,
  );
  await run.one(
    escrowAggregate,
    escrowId,
    { type: 'setPayoutAddress', by: 'buyer', address: 'bc1qbuyerrefund' },
    buyer.id,
  );
  if (n % 10 === 7) {
    await run.one(
      escrowAggregate,
      escrowId,
      { type: 'openDispute', by: 'buyer', reason: 'Partly delivered' },
      buyer.id,
    );
    await run.one(
      escrowAggregate,
      escrowId,
      {
        type: 'resolveDispute',
        by: 'admin',
        outcome: 'Split agreed',
        resolution: 'split',
        seller_percent: 60,
        txid: TXID,
      },
      admin,
    );
  } else if (n % 10 === 8) {
    await run.one(
      escrowAggregate,
      escrowId,
      { type: 'refund', by: 'admin', notes: 'Seller could not deliver', txid: TXID },
      admin,
    );
  } else {
    await run.one(escrowAggregate, escrowId, { type: 'confirmReceipt', by: 'buyer' }, buyer.id);
    await run.one(escrowAggregate, escrowId, { type: 'release', by: 'admin', notes: 'Delivered', txid: TXID }, admin);
  }
  if (n % 4 === 0) {
    const reviewId = randomUUID();
    const country = ['DE', 'FR', 'US', 'BR'][Math.floor(n / 4) % 4]!;
    await run.one(
      reviewAggregate,
      reviewId,
      {
        type: 'submit',
        review_id: reviewId,
        name: 'Generated',
        email: null,
        country,
        rating: 4.5,
        text: 'Went smoothly',
        escrow_id: escrowId,
        verified_deal: true,
      },
      'system',
    );
    await run.one(reviewAggregate, reviewId, { type: 'approve' }, admin);
  }
}
