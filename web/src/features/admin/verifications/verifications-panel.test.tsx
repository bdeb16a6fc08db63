// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';
import { resetApp } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';
import type { PendingVerification } from './api/get-pending-verifications.ts';

afterEach(resetApp);

const item: PendingVerification = {
  escrow: escrowFixture({
    side: 'admin',
    id: 'e1',
    product_service: 'Camera',
    description: 'A used camera',
    amount_btc: 0.0203,
    amount_sats: 2_030_000,
    total_usd: 1015,
    assigned_address: 'bc1qpay',
    buyer_email: 'ann@example.com',
    seller_email: 'sam@example.com',
  }),
  notes: 'Sent at noon',
  marked_at: '2026-01-02T10:00:00Z',
  evidence: [
    {
      id: 'f1',
      evidence_id: 'f1',
      notes: 'Sent at noon',
      file_path: '/api/evidence/f1',
      marked_at: '2026-01-02T10:00:00Z',
      mark_status: 'pending',
      filename: 'receipt.txt',
      content_type: 'text/plain',
      size_bytes: 12,
      sha256: 'b'.repeat(64),
      url: '/api/evidence/f1',
    },
  ],
};

function render(answer: { status: number; body: unknown } = { status: 200, body: {} }) {
  return renderConsole('/admin?tab=verifications', ({ method, path }) => {
    if (path === '/api/admin/pending-verifications') return { status: 200, body: [item] };
    return method === 'POST' ? answer : undefined;
  });
}

describe('Verifications', () => {
  it('shows the description, the amount in BTC, the address, the notes and the evidence', async () => {
    render();
    const card = (await screen.findByRole('heading', { name: 'Camera' })).closest('li')!;
    for (const text of ['A used camera', '0.02030000 BTC', 'bc1qpay', 'Sent at noon'])
      expect(within(card).getByText(text)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Download receipt.txt' })).toBeTruthy();
  });

  it('Verify checks the txid here, then sends verified=true with it', async () => {
    const app = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    const dialog = screen.getByRole('dialog', { name: 'Verify this payment?' });
    expect(within(dialog).getByText('bc1qpay')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Transaction id/), 'abc');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify payment' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('The transaction id must be 64 hexadecimal characters');
    await userEvent.clear(within(dialog).getByLabelText(/Transaction id/));
    await userEvent.type(within(dialog).getByLabelText(/Transaction id/), 'C'.repeat(64));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify payment' }));
    expect(await screen.findByText('Payment verified: the escrow is funded')).toBeTruthy();
    expect(app.calls('POST')[0]).toEqual({
      method: 'POST',
      path: '/api/admin/escrows/e1/verify-payment',
      body: { verified: 'true', notes: '', txid: 'C'.repeat(64) },
    });
  });

  it('Verify with a proof: shows what it proves before confirming, and sends the three fields', async () => {
    const proven = {
      txid: 'd'.repeat(64),
      block_hash: '00'.repeat(8) + 'e'.repeat(48),
      confirmations: 3,
      received_sats: 2_031_000,
      expected_sats: 2_030_000,
      overpaid_sats: 1000,
      short_sats: 0,
      work_judged: true,
      proof_sha256: 'f'.repeat(64),
    };
    const app = renderConsole('/admin?tab=verifications', ({ method, path }) => {
      if (path === '/api/admin/pending-verifications') return { status: 200, body: [item] };
      if (path === '/api/admin/escrows/e1/payment-proof') return { status: 200, body: proven };
      return method === 'POST' ? { status: 200, body: {} } : undefined;
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    const dialog = screen.getByRole('dialog', { name: 'Verify this payment?' });
    await userEvent.type(within(dialog).getByLabelText(/tx_hex/), '0200');
    await userEvent.type(within(dialog).getByLabelText(/txout_proof/), 'abcd');
    // Not checked yet: confirming is refused here.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify payment' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Check the proof first: it must prove the payment before you confirm',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check proof' }));
    const status = await within(dialog).findByText(/Proven on the chain: 3 confirmations/);
    expect(status.textContent).toContain(proven.block_hash);
    expect(within(dialog).getByText(/overpaid by 0.00001000 BTC/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify payment' }));
    expect(await screen.findByText('Payment proven and verified: the escrow is funded')).toBeTruthy();
    expect(app.calls('POST')).toEqual([
      {
        method: 'POST',
        path: '/api/admin/escrows/e1/payment-proof',
        body: { tx_hex: '0200', txout_proof: 'abcd', accept_partial: 'false' },
      },
      {
        method: 'POST',
        path: '/api/admin/escrows/e1/verify-payment',
        body: { verified: 'true', notes: '', tx_hex: '0200', txout_proof: 'abcd', accept_partial: 'false' },
      },
    ]);
  });

  it('Check proof shows the refusal, and a changed proof must be checked again', async () => {
    renderConsole('/admin?tab=verifications', ({ method, path }) => {
      if (path === '/api/admin/pending-verifications') return { status: 200, body: [item] };
      if (path === '/api/admin/escrows/e1/payment-proof')
        return {
          status: 422,
          body: {
            detail:
              'only 5 of the 2030000 satoshis arrived at bc1qpay (2029995 short); set accept_partial=true to accept it',
          },
        };
      return method === 'POST' ? { status: 200, body: {} } : undefined;
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    const dialog = screen.getByRole('dialog', { name: 'Verify this payment?' });
    await userEvent.type(within(dialog).getByLabelText(/tx_hex/), '0200');
    await userEvent.type(within(dialog).getByLabelText(/txout_proof/), 'abcd');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check proof' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('only 5 of the 2030000 satoshis arrived');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify payment' }));
    expect(
      within(dialog)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toContain('Check the proof first: it must prove the payment before you confirm');
  });

  it("Reject sends verified=false with the reason; without a detail the spec's Failed to verify payment", async () => {
    const app = render({ status: 500, body: {} });
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject this payment?' });
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Nothing arrived');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject payment' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to verify payment');
    expect(app.calls('POST')[0]!.body).toEqual({ verified: 'false', notes: 'Nothing arrived' });
  });
});
