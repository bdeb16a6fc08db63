// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetApp, type Server } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';
import type { ModeratedReview } from './api/get-pending-reviews.ts';

afterEach(resetApp);

const review = (id: string, name: string, status: ModeratedReview['status'] = 'pending'): ModeratedReview => ({
  id,
  name,
  email: null,
  country: 'DE',
  rating: 4.5,
  text: `Text by ${name}`,
  escrow_id: null,
  created_at: '2026-01-02T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
  edited_by_admin: false,
  verified_deal: false,
  status,
  admin_edit_note: null,
  rejection_reason: status === 'rejected' ? 'Spam' : null,
});
const store =
  (
    pending: ModeratedReview[],
    all: ModeratedReview[],
    act: Server = () => ({ status: 200, body: { detail: 'ok' } }),
  ): Server =>
  (request) => {
    if (request.path === '/api/admin/reviews/pending') return { status: 200, body: pending };
    if (request.path === '/api/admin/reviews') return { status: 200, body: all };
    return request.method === 'GET' ? undefined : act(request);
  };
const pendingRegion = () => screen.findByRole('region', { name: /^Pending Reviews/ });

describe('Reviews', () => {
  it("shows 'No pending reviews' and the counts in the spec's words", async () => {
    renderConsole('/admin?tab=reviews', store([], [review('r9', 'Old', 'approved')]));
    expect(await screen.findByText('No pending reviews')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Pending Reviews (0)' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'All Reviews (1)' })).toBeTruthy();
  });

  it('Approve says Review approved; a failure without a detail says Failed to approve review', async () => {
    let ok = true;
    const app = renderConsole(
      '/admin?tab=reviews',
      store([review('r1', 'Ann')], [], () =>
        ok ? { status: 200, body: { detail: 'Review approved' } } : { status: 500, body: {} },
      ),
    );
    const region = await pendingRegion();
    await userEvent.click(await within(region).findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Review approved')).toBeTruthy();
    expect(app.calls('POST', '/api/admin/')).toEqual([
      { method: 'POST', path: '/api/admin/reviews/r1/approve', body: null },
    ]);
    ok = false;
    await userEvent.click(within(region).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to approve review');
  });

  it('Reject asks for a reason: empty gives Please provide a rejection reason', async () => {
    const app = renderConsole('/admin?tab=reviews', store([review('r1', 'Ann')], []));
    await userEvent.click(await within(await pendingRegion()).findByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject this review?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please provide a rejection reason');
    expect(app.calls('POST', '/api/admin/')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Rejection reason/), 'Spam');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Review rejected')).toBeTruthy();
    expect(app.calls('POST', '/api/admin/')).toEqual([
      { method: 'POST', path: '/api/admin/reviews/r1/reject', body: { reason: 'Spam' } },
    ]);
  });

  it('Edit & Approve sends the edited text and the admin note; Save & Approve / Cancel', async () => {
    const app = renderConsole('/admin?tab=reviews', store([review('r1', 'Ann')], []));
    await userEvent.click(await within(await pendingRegion()).findByRole('button', { name: 'Edit & Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit & Approve' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    const text = within(dialog).getByLabelText(/Edited Text/);
    await userEvent.clear(text);
    await userEvent.type(text, 'Better words');
    await userEvent.type(within(dialog).getByLabelText(/Admin Note/), 'typo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save & Approve' }));
    expect(await screen.findByText('Review edited and approved')).toBeTruthy();
    expect(app.calls('POST', '/api/admin/')[0]).toEqual({
      method: 'POST',
      path: '/api/admin/reviews/r1/edit',
      body: { edited_text: 'Better words', admin_note: 'typo' },
    });
  });

  it("Delete asks in the spec's words, then Review deleted; a rejected one can be reopened", async () => {
    const app = renderConsole('/admin?tab=reviews', store([], [review('r2', 'Cat', 'rejected')]));
    const all = await screen.findByRole('region', { name: /^All Reviews/ });
    expect(await within(all).findByText('Rejection reason: Spam')).toBeTruthy();
    await userEvent.click(within(all).getByRole('button', { name: 'Reopen' }));
    expect(await screen.findByText('Review reopened')).toBeTruthy();
    await userEvent.click(within(all).getByRole('button', { name: 'Delete the review by Cat' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Delete this review permanently? This action cannot be undone.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Review deleted')).toBeTruthy();
    expect(app.calls(undefined, '/api/admin/reviews/r2').map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/admin/reviews/r2/reopen',
      'DELETE /api/admin/reviews/r2',
    ]);
  });
});
