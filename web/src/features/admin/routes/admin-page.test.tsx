// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';

afterEach(resetApp);

describe('/admin', () => {
  it('sends a signed-in buyer to / without asking for any console data', async () => {
    const app = renderConsole('/admin?tab=users', undefined, { role: 'buyer' });
    await waitFor(() => expect(app.router.state.location.pathname).not.toBe('/admin'));
    expect(app.calls('GET', '/api/admin/')).toHaveLength(0);
  });

  it('opens the tab the URL names, and counts what needs action on the tabs', async () => {
    renderConsole('/admin?tab=disputes', ({ path }) => {
      if (path === '/api/admin/disputes')
        return {
          status: 200,
          body: [
            {
              id: 'd1',
              escrow_id: 'e1',
              status: 'open',
              reason: 'x',
              opened_by_side: 'buyer',
              opened_at: '2026-01-01T00:00:00Z',
            },
            {
              id: 'd2',
              escrow_id: 'e2',
              status: 'resolved',
              reason: 'y',
              opened_by_side: 'seller',
              opened_at: '2026-01-01T00:00:00Z',
            },
          ],
        };
      if (path === '/api/admin/reviews/pending') return { status: 200, body: [{ id: 'r1' }, { id: 'r2' }] };
      if (path === '/api/admin/addresses')
        return {
          status: 200,
          body: [
            { id: 'x', status: 'available' },
            { id: 'y', status: 'used' },
          ],
        };
      if (path === '/api/admin/escrows?limit=25&offset=0&ready=true')
        return { status: 200, body: { total: 3, ready_count: 3, refund_due_count: 0, escrows: [] } };
      return undefined;
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Disputes' })).toBeTruthy();
    expect(await screen.findByLabelText('3 escrows ready to release')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Disputes/ }).getAttribute('aria-current')).toBe('page');
    expect(await screen.findByLabelText('1 open disputes')).toBeTruthy();
    expect(screen.getByLabelText('2 reviews to moderate')).toBeTruthy();
    expect(screen.getByLabelText('1 free addresses: the pool is low')).toBeTruthy();
    expect(screen.queryByLabelText(/payments to verify/)).toBeNull();
  });

  it('an unknown tab opens the Overview', async () => {
    const empty = {
      range: { from: null, to: null },
      escrows_created: 0,
      escrows_funded: 0,
      volume_sats: 0,
      volume_cents: 0,
      fee_sats: 0,
      fee_cents: 0,
      released_sats: 0,
      refunded_sats: 0,
      disputes_opened: 0,
      dispute_rate: 0,
      median_marked_to_verified_seconds: null,
      median_confirmed_to_released_seconds: null,
      by_month: [],
      escrows_by_status: {},
      pool: { available: 0, assigned: 0, used: 0 },
    };
    renderConsole('/admin?tab=nothing', ({ path }) =>
      path === '/api/admin/reports/overview' ? { status: 200, body: empty } : undefined,
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'Overview' })).toBeTruthy();
    expect(await screen.findByText('Nothing happened in this range.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /payouts\.csv/ })).toBeTruthy();
  });

  it('shows a banner over every tab while the server finds the event log broken', async () => {
    const app = renderConsole('/admin?tab=users', ({ path }) =>
      path === '/api/health' ? { status: 200, body: { status: 'ok', version: '0.2.0', chain: 'broken' } } : undefined,
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/The event log failed its integrity check/);
    expect(screen.getByRole('link', { name: /Ledger tab/ }).getAttribute('href')).toBe('/admin?tab=ledger');
    await act(() => app.router.navigate('/admin?tab=settings'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Settings' })).toBeTruthy();
    expect(screen.getByText(/failed its integrity check/)).toBeTruthy();
  });

  it('shows no banner while the chain verifies', async () => {
    const app = renderConsole('/admin?tab=users');
    await waitFor(() => expect(app.calls('GET', '/api/health')).toHaveLength(1));
    expect(await screen.findByRole('heading', { level: 2, name: 'Users' })).toBeTruthy();
    expect(screen.queryByText(/failed its integrity check/)).toBeNull();
  });
});
