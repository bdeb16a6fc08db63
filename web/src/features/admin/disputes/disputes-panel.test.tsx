// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';
import { resetApp } from '../../../testing/render-app.tsx';
import type { HistoryEntry } from '../escrows/api/get-escrow-history.ts';
import { renderConsole } from '../shared/render-console.tsx';
import type { Dispute } from './api/get-disputes.ts';

afterEach(resetApp);

const escrow = escrowFixture({
  side: 'admin',
  id: 'e1',
  product_service: 'Camera',
  amount_sats: 2_030_000,
  escrow_fee: 15,
  total_usd: 1015,
  status: 'disputed',
  buyer_email: 'ann@example.com',
  seller_email: 'sam@example.com',
  payout_address: 'bc1qseller',
  refund_address: 'bc1qbuyer',
});
const dispute: Dispute = {
  id: 'd1',
  escrow_id: 'e1',
  reason: 'Half arrived',
  opened_by_side: 'buyer',
  opened_by: 'u1',
  opened_at: '2026-01-02T10:00:00Z',
  status: 'open',
  outcome: null,
  resolution: null,
  seller_percent: null,
  resolved_by: null,
  resolved_at: null,
  evidence: [],
};
const marked: HistoryEntry = {
  position: 3,
  version: 3,
  type: 'PaymentMarked',
  summary: 'marked escrow e1 as paid (1 file(s))',
  occurred_at: '2026-01-02T09:00:00Z',
  actor: 'u1',
  actor_username: 'ann',
  data: {
    notes: 'Paid from my wallet',
    evidence: [
      {
        evidence_id: 'f1',
        filename: 'receipt.pdf',
        content_type: 'application/pdf',
        size_bytes: 2048,
        sha256: 'a'.repeat(64),
      },
    ],
  },
  status_after: 'pending_payment',
  after: {
    address: null,
    payment_marked_at: '2026-01-02T09:00:00Z',
    buyer_confirmed_at: null,
    payout_address: null,
    refund_address: null,
    dispute_id: null,
  },
};

function render(resolve = { status: 200, body: { ...escrow, status: 'released' } }, shown = escrow) {
  return renderConsole('/admin?tab=disputes', ({ method, path }) => {
    if (path === '/api/admin/disputes') return { status: 200, body: [dispute] };
    if (path === '/api/escrows/e1') return { status: 200, body: shown };
    if (path === '/api/admin/escrows/e1/history') return { status: 200, body: [marked] };
    if (path === '/api/escrows/e1/messages') return { status: 200, body: [] };
    if (method === 'POST') return resolve;
    return undefined;
  });
}

describe('Disputes', () => {
  it('shows the escrow, both parties, the reason and the evidence of the payment mark', async () => {
    render();
    const card = (await screen.findByText('Half arrived')).closest('li')!;
    expect(await within(card).findByText('ann@example.com')).toBeTruthy();
    expect(within(card).getByText('sam@example.com')).toBeTruthy();
    expect(await within(card).findByText(/Paid from my wallet/)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Download receipt.pdf' })).toBeTruthy();
  });

  it('a split shows what each side gets before confirming, and sends the percent and both addresses', async () => {
    const app = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog', { name: 'Resolve this dispute' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resolve dispute' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Write the outcome (both parties are told)');
    await userEvent.type(within(dialog).getByLabelText(/Outcome/), 'Half each');
    await userEvent.selectOptions(within(dialog).getByLabelText('Resolution'), 'split');
    const percent = within(dialog).getByLabelText(/Seller's share/);
    await userEvent.clear(percent);
    await userEvent.type(percent, '100');
    expect(within(dialog).getByText('Enter a whole number from 1 to 99')).toBeTruthy();
    await userEvent.clear(percent);
    await userEvent.type(percent, '30');
    // Principal 2,000,000 sats (fee 30,000 kept): the seller 30% = 600,000, the buyer the rest.
    expect(within(dialog).getByText('0.00600000 BTC')).toBeTruthy();
    expect(within(dialog).getByText('0.01400000 BTC')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resolve dispute' }));
    expect(await screen.findByText('Dispute resolved')).toBeTruthy();
    expect(app.calls('POST')[0]).toEqual({
      method: 'POST',
      path: '/api/admin/disputes/d1/resolve',
      body: {
        outcome: 'Half each',
        resolution: 'split',
        expected_address: 'bc1qseller',
        seller_percent: '30',
        expected_refund_address: 'bc1qbuyer',
      },
    });
  });

  it('without a resolution only the outcome is sent; a refusal without detail says Failed to resolve dispute', async () => {
    const app = render({ status: 500, body: {} as never });
    await userEvent.click(await screen.findByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Outcome/), 'Talked it over');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resolve dispute' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to resolve dispute');
    expect(app.calls('POST')[0]!.body).toEqual({ outcome: 'Talked it over' });
  });

  it('a split both parties agreed to is paid out as agreed: no outcome asked, no other resolution offered', async () => {
    const proposal = {
      id: 'p1',
      kind: 'split' as const,
      status: 'accepted' as const,
      proposed_by: 'seller' as const,
      seller_percent: 60,
      days: null,
      note: null,
      seller_sats: 1_200_000,
      buyer_sats: 800_000,
      created_at: '2026-01-03T10:00:00Z',
    };
    const app = render(undefined, { ...escrow, proposals: [proposal] });
    expect(await screen.findByText('A split, 60% to the seller: resolve to pay it out as agreed')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog', { name: 'Resolve this dispute' });
    expect(within(dialog).getByText(/Both parties agreed to a split, 60% to the seller/)).toBeTruthy();
    expect(within(dialog).queryByLabelText('Resolution')).toBeNull();
    expect(within(dialog).queryByLabelText(/Seller's share/)).toBeNull();
    expect(
      within(dialog)
        .getByLabelText(/Outcome/)
        .getAttribute('aria-required'),
    ).toBeNull();
    // The agreed shares: 60% of the 2,000,000 sats principal to the seller, the rest to the buyer, the fee kept.
    expect(within(dialog).getByText('0.01200000 BTC')).toBeTruthy();
    expect(within(dialog).getByText('0.00800000 BTC')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay out as agreed' }));
    expect(await screen.findByText('Dispute resolved')).toBeTruthy();
    expect(app.calls('POST')[0]).toEqual({
      method: 'POST',
      path: '/api/admin/disputes/d1/resolve',
      body: {
        outcome: '',
        resolution: 'split',
        expected_address: 'bc1qseller',
        seller_percent: '60',
        expected_refund_address: 'bc1qbuyer',
      },
    });
  });
});
