// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';

afterEach(resetApp);

const changes = [
  {
    id: 2,
    action_type: 'FeeSet',
    timestamp: '2026-01-01T10:00:00Z',
    actor: 'a1',
    actor_username: 'ops',
    summary: 'set the fee to 1.50%',
  },
  {
    id: 1,
    action_type: 'BtcRateSet',
    timestamp: '2026-01-01T10:00:00Z',
    actor: 'a1',
    actor_username: 'root',
    summary: 'set the BTC/USD rate to 50000.00',
  },
];

describe('Settings', () => {
  it('says who set the rate and the fee, and warns when the rate is older than a day', async () => {
    renderConsole('/admin?tab=settings', ({ path }) => {
      if (path === '/api/btc-rate')
        return {
          status: 200,
          body: {
            btc_usd_rate: 50000,
            fee_percentage: 1.5,
            rate_set_at: '2026-01-01T10:00:00Z',
            fee_set_at: '2026-01-01T10:00:00Z',
          },
        };
      if (path.startsWith('/api/admin/audit-logs?object_type=settings')) return { status: 200, body: changes };
      return undefined;
    });
    expect(await screen.findByText('$50,000.00')).toBeTruthy();
    expect(await screen.findByText(/by root/)).toBeTruthy();
    expect(screen.getByText(/by ops/)).toBeTruthy();
    expect(screen.getByText(/The rate is older than a day/)).toBeTruthy();
  });

  it('with no rate yet, says nobody can open an escrow; checks the input as the server does, then sends it', async () => {
    const app = renderConsole('/admin?tab=settings', ({ method, path }) => {
      if (path === '/api/btc-rate')
        return { status: 503, body: { detail: 'The BTC/USD rate has not been set yet', code: 'not_ready' } };
      if (path.startsWith('/api/admin/audit-logs')) return { status: 200, body: [] };
      if (method === 'PUT')
        return {
          status: 200,
          body: {
            btc_usd_rate: 64000.5,
            fee_percentage: 2,
            rate_set_at: new Date().toISOString(),
            fee_set_at: new Date().toISOString(),
          },
        };
      return undefined;
    });
    expect(await screen.findByText(/No BTC\/USD rate is set/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/BTC\/USD rate/), '64000.123');
    await userEvent.type(screen.getByLabelText(/Fee/), '101');
    await userEvent.click(screen.getByRole('button', { name: 'Set rate and fee' }));
    expect(screen.getByText('Btc usd rate has more than 2 decimal places')).toBeTruthy();
    expect(screen.getByText('Fee percentage must be between 0 and 100')).toBeTruthy();
    expect(app.calls('PUT')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText(/BTC\/USD rate/));
    await userEvent.type(screen.getByLabelText(/BTC\/USD rate/), '64000.50');
    await userEvent.clear(screen.getByLabelText(/Fee/));
    await userEvent.type(screen.getByLabelText(/Fee/), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Set rate and fee' }));
    const dialog = screen.getByRole('dialog', { name: 'Set the rate and fee?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set rate and fee' }));
    expect(await screen.findByText('Rate and fee saved')).toBeTruthy();
    expect(app.calls('PUT')[0]).toEqual({
      method: 'PUT',
      path: '/api/admin/btc-rate',
      body: { btc_usd_rate: '64000.50', fee_percentage: '2' },
    });
  });
});
