import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addressAggregate, escrowAggregate } from '../../domain/aggregates.ts';
import type { DomainError } from '../../domain/shared/errors.ts';
import { projections } from '../../projections/registry.ts';
import { createEventStore } from '../event-store/append.ts';
import type { EventStore } from '../event-store/event-store.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { handle } from '../commands/handle.ts';
import { assignPaymentAddress, verifyPayment } from './commands.ts';

let t: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  t = await openTestDatabase();
  store = createEventStore(t.db, projections);
});
beforeEach(async () => t.reset());
afterAll(async () => t.dispose());

const meta = { actor: 'system', requestId: 'test' };

async function anEscrow(): Promise<string> {
  const id = randomUUID();
  await handle(
    store,
    escrowAggregate,
    id,
    {
      type: 'create',
      by: 'buyer',
      escrow_id: id,
      created_by: randomUUID(),
      creator_side: 'buyer',
      creator_email: 'b@example.com',
      counterparty_email: 's@example.com',
      product_service: 'Phone',
      description: 'A phone',
      amount_cents: 20_000,
      deadline_days: 7,
      pricing: { rate_cents: 5_000_000, fee_bps: 150 },
    },
    meta,
  );
  return id;
}

async function anAddress(): Promise<{ id: string; address: string }> {
  const id = randomUUID();
  const address = `bc1q${id.replaceAll('-', '')}`;
  await handle(store, addressAggregate, id, { type: 'add', address_id: id, address, network: 'mainnet' }, meta);
  return { id, address };
}

describe('payment address assignment across two streams', () => {
  it('gives one address to exactly one of five escrows asking at once', async () => {
    const address = await anAddress();
    const escrows = await Promise.all(Array.from({ length: 5 }, anEscrow));
    const results = await Promise.allSettled(
      escrows.map((escrowId) =>
        assignPaymentAddress(store, { escrowId, addressId: address.id, address: address.address, by: 'buyer' }, meta),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected') as PromiseRejectedResult[]) {
      expect((r.reason as DomainError).code).toBe('conflict');
    }
    const holders = await t.db
      .selectFrom('escrows')
      .select('id')
      .where('assigned_address_id', '=', address.id)
      .execute();
    expect(holders).toHaveLength(1);
    const row = await t.db.selectFrom('addresses').selectAll().where('id', '=', address.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'assigned', assigned_to_escrow_id: holders[0]!.id });
  });

  it('writes neither stream when one part is refused', async () => {
    const address = await anAddress();
    const [first, second] = [await anEscrow(), await anEscrow()];
    await assignPaymentAddress(
      store,
      { escrowId: first, addressId: address.id, address: address.address, by: 'buyer' },
      meta,
    );
    await expect(
      assignPaymentAddress(
        store,
        { escrowId: second, addressId: address.id, address: address.address, by: 'buyer' },
        meta,
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
    const untouched = await t.db
      .selectFrom('escrows')
      .select('assigned_address_id')
      .where('id', '=', second)
      .executeTakeFirstOrThrow();
    expect(untouched.assigned_address_id).toBeNull();
  });

  it('marks the address used when the payment is verified', async () => {
    const address = await anAddress();
    const escrowId = await anEscrow();
    await assignPaymentAddress(store, { escrowId, addressId: address.id, address: address.address, by: 'buyer' }, meta);
    await handle(
      store,
      escrowAggregate,
      escrowId,
      { type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] },
      meta,
    );
    await verifyPayment(store, { escrowId, notes: 'seen', txid: null }, meta);
    const row = await t.db
      .selectFrom('addresses')
      .select('status')
      .where('id', '=', address.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('used');
    const escrow = await t.db
      .selectFrom('escrows')
      .select('status')
      .where('id', '=', escrowId)
      .executeTakeFirstOrThrow();
    expect(escrow.status).toBe('funded');
  });
});
