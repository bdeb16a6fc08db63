import { describe, expect, it } from 'vitest';
import { ESCROW_ID, histories, sample } from '../../domain/escrow/test-fixtures.ts';
import { type DomainEvent, streamTypeOf } from '../../domain/events.ts';
import { project } from '../test-events.ts';
import { escrowsProjection } from './projection.ts';

const statusAfter = async (events: DomainEvent[]) =>
  (await project([escrowsProjection], `escrow:${ESCROW_ID}`, events)).rows('escrows')[0]!;

describe('escrows projection', () => {
  it('changes its table only on escrow events (lists kept in memory wait for the next escrow event)', () => {
    expect(escrowsProjection.handles.filter((type) => streamTypeOf(type) !== 'escrow')).toEqual([]);
  });

  it('shows a new escrow with its figures, parties and deadline', async () => {
    const row = await statusAfter([sample.EscrowCreated]);
    expect(row).toMatchObject({
      id: ESCROW_ID,
      status: 'pending_payment',
      amount_cents: 100_000,
      fee_cents: 1_500,
      total_cents: 101_500,
      amount_sats: 2_030_000,
      buyer_email: 'buyer@example.com',
      seller_email: 'seller@example.com',
      buyer_id: sample.EscrowCreated.data.created_by,
      assigned_address: null,
      payment_due_at: '2026-01-08T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('follows payment: address, mark, rejection clears the mark, verification funds it', async () => {
    const marked = await statusAfter(histories.pendingMarked);
    expect(marked).toMatchObject({
      assigned_address: sample.PaymentAddressAssigned.data.address,
      payment_marked_at: '2026-01-01T00:02:00.000Z',
    });
    const rejected = await statusAfter([...histories.pendingMarked, sample.PaymentRejected]);
    expect(rejected.payment_marked_at).toBeNull();
    const funded = await statusAfter(histories.funded);
    expect(funded).toMatchObject({
      status: 'funded',
      payment_txid: 'a'.repeat(64),
      payout_address: 'bc1qpayout',
      refund_address: 'bc1qrefund',
    });
  });

  it('returns to the status before a freeze, and before a dispute closed without money', async () => {
    expect((await statusAfter([...histories.funded, sample.EscrowFrozen])).status).toBe('frozen');
    expect((await statusAfter([...histories.funded, sample.EscrowFrozen, sample.EscrowUnfrozen])).status).toBe(
      'funded',
    );
    expect(
      (await statusAfter([...histories.disputedFromFunded, sample.EscrowFrozen, sample.EscrowUnfrozen])).status,
    ).toBe('disputed');
    expect((await statusAfter([...histories.disputedFromPending, sample.DisputeResolved])).status).toBe(
      'pending_payment',
    );
  });

  it('records who got what when the money moves', async () => {
    const released = await statusAfter(histories.released);
    expect(released).toMatchObject({
      status: 'released',
      seller_sats: 2_000_000,
      buyer_sats: 0,
      fee_sats: 30_000,
      closed_at: expect.any(String),
    });
    const split = await statusAfter([
      ...histories.disputedFromFunded,
      {
        ...sample.DisputeResolved,
        data: {
          ...sample.DisputeResolved.data,
          resolution: 'split',
          seller_percent: 60,
          seller_sats: 1_200_000,
          buyer_sats: 800_000,
          fee_sats: 30_000,
        },
      },
    ]);
    expect(split).toMatchObject({
      status: 'released',
      seller_sats: 1_200_000,
      buyer_sats: 800_000,
      open_dispute_id: null,
    });
    expect((await statusAfter([sample.EscrowCreated, sample.EscrowCancelled])).status).toBe('cancelled');
  });
});
