/**
 * Fills the configured store (DATABASE_URL, else PGlite under DATA_DIR) with generated but rule-abiding history,
 * through the real command handlers: users, pool addresses, escrows that are released, refunded, disputed and
 * split, or cancelled, and reviews. For benchmarks and replay checks only: never run it against real data.
 *
 *   npx tsx bench/seed-events.ts --events 100000 [--concurrency 8]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { assignPaymentAddress, verifyPayment } from '../app-server/commands/escrow-payment.ts';
import { type CommandMeta, executeCommand } from '../app-server/commands/execute.ts';
import { loadConfig } from '../app-server/config.ts';
import { openDatabase } from '../app-server/db/database.ts';
import { migrateToLatest } from '../app-server/db/migrate.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import { chainHead } from '../app-server/event-store/read.ts';
import {
  addressAggregate,
  escrowAggregate,
  reviewAggregate,
  settingsAggregate,
  userAggregate,
} from '../domain/aggregates.ts';
import { projections } from '../projections/registry.ts';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '100000' }, concurrency: { type: 'string', default: '8' } },
});
const target = Number(values.events);
const concurrency = Number(values.concurrency);

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: concurrency + 2,
});
await migrateToLatest(database.db);
const deps = { db: database.db, store: createEventStore(database.db, projections) };
const TXID = 'c'.repeat(64);

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const meta = (actor: string): CommandMeta => {
  clock += 1_000;
  return { actor, requestId: 'seed', now: new Date(clock).toISOString() };
};
const ADMIN = randomUUID();

async function user(role: 'buyer' | 'seller' | 'admin', id = randomUUID()) {
  const username = `${role}-${id.slice(0, 8)}`;
  await executeCommand(
    deps,
    userAggregate,
    id,
    {
      type: 'register',
      user_id: id,
      username,
      email: `${username}@example.com`,
      full_name: `Generated ${role}`,
      role,
      country: 'DE',
      phone: null,
    },
    meta('system'),
  );
  await executeCommand(
    deps,
    userAggregate,
    id,
    { type: 'verifyEmail', email: `${username}@example.com` },
    meta(id),
  );
  return { id, email: `${username}@example.com` };
}

async function deal(n: number) {
  const [buyer, seller] = await Promise.all([user('buyer'), user('seller')]);
  const escrowId = randomUUID();
  const addressId = randomUUID();
  await executeCommand(
    deps,
    addressAggregate,
    addressId,
    {
      type: 'add',
      address_id: addressId,
      address: `bc1q${addressId.replaceAll('-', '')}`,
      network: 'mainnet',
    },
    meta(ADMIN),
  );
  await executeCommand(
    deps,
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
      pricing: { rate_cents: 6_543_210, fee_bps: 150 },
    },
    meta(buyer.id),
  );
  if (n % 10 === 9) {
    await executeCommand(deps, escrowAggregate, escrowId, { type: 'cancel', by: 'buyer' }, meta(buyer.id));
    return;
  }
  await assignPaymentAddress(
    deps,
    { escrowId, addressId, address: `bc1q${addressId.replaceAll('-', '')}`, by: 'buyer' },
    meta(buyer.id),
  );
  await executeCommand(
    deps,
    escrowAggregate,
    escrowId,
    { type: 'markPaid', by: 'buyer', notes: 'Sent', evidence: [] },
    meta(buyer.id),
  );
  await verifyPayment(deps, { escrowId, notes: 'Seen on chain', txid: TXID }, meta(ADMIN));
  await executeCommand(
    deps,
    escrowAggregate,
    escrowId,
    { type: 'setPayoutAddress', by: 'seller', address: 'bc1qsellerpayout' },
    meta(seller.id),
  );
  await executeCommand(
    deps,
    escrowAggregate,
    escrowId,
    { type: 'setPayoutAddress', by: 'buyer', address: 'bc1qbuyerrefund' },
    meta(buyer.id),
  );
  if (n % 10 === 7) {
    await executeCommand(
      deps,
      escrowAggregate,
      escrowId,
      { type: 'openDispute', by: 'buyer', dispute_id: randomUUID(), reason: 'Partly delivered' },
      meta(buyer.id),
    );
    await executeCommand(
      deps,
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
      meta(ADMIN),
    );
  } else if (n % 10 === 8) {
    await executeCommand(
      deps,
      escrowAggregate,
      escrowId,
      { type: 'refund', by: 'admin', notes: 'Seller could not deliver', txid: TXID },
      meta(ADMIN),
    );
  } else {
    await executeCommand(
      deps,
      escrowAggregate,
      escrowId,
      { type: 'confirmReceipt', by: 'buyer' },
      meta(buyer.id),
    );
    await executeCommand(
      deps,
      escrowAggregate,
      escrowId,
      { type: 'release', by: 'admin', notes: 'Delivered', txid: TXID },
      meta(ADMIN),
    );
  }
  if (n % 4 === 0) {
    const reviewId = randomUUID();
    await executeCommand(
      deps,
      reviewAggregate,
      reviewId,
      {
        type: 'submit',
        review_id: reviewId,
        name: 'Generated',
        email: null,
        country: ['DE', 'FR', 'US', 'BR'][Math.floor(n / 4) % 4]!,
        rating: 4.5,
        text: 'Went smoothly',
        escrow_id: escrowId,
        verified_deal: true,
      },
      meta('system'),
    );
    await executeCommand(deps, reviewAggregate, reviewId, { type: 'approve' }, meta(ADMIN));
  }
}

const started = performance.now();
const before = (await chainHead(database.db)).position;
await user('admin', ADMIN);
await executeCommand(
  deps,
  settingsAggregate,
  'pricing',
  { type: 'setPricing', rate_cents: 6_543_210, fee_bps: 150 },
  meta(ADMIN),
).catch(() => undefined);
let next = 0;
let position = before;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (position - before < target) {
      await deal(next++);
      position = (await chainHead(database.db)).position;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log(
  `${database.backend}: appended ${position - before} events in ${seconds.toFixed(1)} s (${Math.round((position - before) / seconds)} events/s through the command handlers); log now holds ${position}`,
);
await database.close();
