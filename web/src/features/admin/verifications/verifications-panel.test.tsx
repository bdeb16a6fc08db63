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
  escrow: escrowFixture({ side: 'admin', id: 'e1', product_service: 'Camera', description: 'A used camera', amount_btc: 0.0203, amount_sats: 2_030_000, total_usd: 1015, assigned_address: 'bc1qpay', buyer_email: 'ann@example.com', seller_email: 'sam@example.com' }),
  notes: 'Sent at noon',
  marked_at: '2026-01-02T10:00:00Z',
  evidence: [
    { id: 'f1', evidence_id: 'f1', notes: 'Sent at noon', file_path: '/api/evidence/f1', marked_at: '2026-01-02T10:00:00Z', mark_status: 'pending', filename: 'receipt.txt', content_type: 'text/plain', size_bytes: 12, sha256: 'b'.repeat(64), url: '/api/evidence/f1' },
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
    for (const text of ['A used camera', '0.02030000 BTC', 'bc1qpay', 'Sent at noon']) expect(within(card).getByText(text)).toBeTruthy();
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
    expect(app.calls('POST')[0]).toEqual({ method: 'POST', path: '/api/admin/escrows/e1/verify-payment', body: { verified: 'true', notes: '', txid: 'C'.repeat(64) } });
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
